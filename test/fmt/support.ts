/**
 * What the fmt tests share: Org documents written to a real folder, formatted
 * on disk, and tangled by the real tangler to compare what they tangle to.
 */
import fs from 'node:fs'
import path from 'node:path'
import * as prettier from 'prettier'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {HOUSE_STYLE} from '../../tools/fmt/format-code.ts'
import {type FmtReport, formatFiles} from '../../tools/fmt/fmt.ts'
import {planDocument} from '../../tools/tangle/tangle-document.ts'
import {tempProject} from '../support/temp-project.ts'

/** A temporary project holding FILES; formatting and tangling happen in it. */
export function project(files: Record<string, string>): string {
  return tempProject(files, 'passepartout-fmt-')
}

/** FILE of DIR formatted in place (or only checked); the report and what the file holds afterwards. */
export async function fmt(dir: string, file: string, check = false): Promise<{report: FmtReport; text: string}> {
  const full = path.join(dir, file)
  const report = await formatFiles([full], {check})
  return {report, text: fs.readFileSync(full, 'utf8')}
}

/** Each diagnostic of REPORT as it is printed, the path relative to DIR. */
export function printed(report: FmtReport, dir: string): string[] {
  return report.diagnostics.map((message) => formatDiagnostic(message, dir))
}

/** What the document FILE of DIR tangles to, by target (relative to DIR). */
export function tangled(dir: string, file: string): Record<string, string> {
  const full = path.join(dir, file)
  const plan = planDocument(full, fs.readFileSync(full), {boundary: {root: dir, allowed: []}})
  if (plan.failed) throw new Error(`${file} does not tangle: ${plan.diagnostics.map((d) => d.reason).join('; ')}`)
  return Object.fromEntries(plan.targets.map((target) => [path.relative(dir, target.path), target.content]))
}

/** CODE as Prettier formats it as a whole file in the house style. */
export function prettierFormat(code: string): Promise<string> {
  return prettier.format(code, {...HOUSE_STYLE, parser: 'typescript', filepath: 'code.ts'})
}

/** A `#+begin_src typescript` block with HEADER arguments around LINES. */
export function block(header: string, ...lines: string[]): string {
  return [`#+begin_src typescript${header ? ` ${header}` : ''}`, ...lines, '#+end_src'].join('\n')
}
