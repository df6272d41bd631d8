/**
 * The README's picture of the woven site: this project's org/ woven into a temporary folder, one page opened from
 * file:// in the headless Chromium of the tests, light theme, and its first screen written as a PNG to
 * docs/images/. Run by hand after a change to how pages look (`node bin/launch.mjs test/support/site-screenshot.ts`,
 * from the project's folder); the tests only check that the committed image is there at this size, as a test that
 * took it again would change the file at every run (a font, a version of Chromium).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {listOrgFiles} from '../../tools/project.ts'
import {readToolchainSettings} from '../../tools/settings.ts'
import {weave} from '../../tools/weave/weave.ts'
import {TestBrowser, findChromium, skippedLine} from './browser.ts'

/** The image, from the project's folder. */
export const SCREENSHOT_FILE = 'docs/images/weave-page.png'

/**
 * The page shown and the size of the view: the skill ledger's first block that another uses by a noweb reference,
 * with the prose before it (its caption says where it tangles, "used in" links back), at a width a laptop's
 * browser has (1200 px), one screen high.
 */
export const SCREENSHOT = {page: 'org/core/skill-ledger.html', width: 1200, height: 800}

/** Run in the page: scroll to the first block another uses, with some of the prose before it in view. */
const SCROLL_TO_BLOCK = `document.querySelector('figure.block:has(p.used-in)').scrollIntoView()
window.scrollBy(0, -300)`

/** Weave this project (PASSEPARTOUT_HOME, else the working folder) and write its screenshot; say where. */
export async function main(): Promise<number> {
  const repo = readToolchainSettings().home ?? process.cwd()
  const chromium = findChromium()
  if (!chromium) {
    console.error(skippedLine('the screenshot'))
    return 1
  }
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-screenshot-'))
  const browser = await TestBrowser.launch(chromium)
  try {
    await weave({files: listOrgFiles(path.join(repo, 'org')), base: repo, out})
    const page = await browser.open(pathToFileURL(path.join(out, SCREENSHOT.page)).href)
    await page.page.setViewport({width: SCREENSHOT.width, height: SCREENSHOT.height})
    await page.page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}])
    await page.evaluate(SCROLL_TO_BLOCK)
    await page.screenshot(path.join(repo, SCREENSHOT_FILE))
    console.log(`wrote ${SCREENSHOT_FILE} (${SCREENSHOT.page}, ${SCREENSHOT.width}×${SCREENSHOT.height})`)
    return 0
  } finally {
    await browser.close()
    fs.rmSync(out, {recursive: true, force: true})
  }
}
