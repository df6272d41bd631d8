/**
 * bin/bundle.mjs as the tests that read what a bundle holds build with it: the same function the command line's
 * bundles and the package's dist/ are built by, and esbuild's metafile of what it wrote.
 */
import path from 'node:path'
import {pathToFileURL} from 'node:url'

const repo = path.resolve(import.meta.dirname, '../..')

/** What esbuild says of a build: the modules read, and those each output file holds. */
export interface Metafile {
  inputs: Record<string, unknown>
  outputs: Record<string, {entryPoint?: string; inputs: Record<string, unknown>}>
}

/** ENTRY bundled into OUTDIR as OPTIONS say (bin/bundle.mjs's `buildBundle`); its metafile. */
export async function buildBundle(
  entry: string,
  outdir: string,
  options: {selfContained?: boolean; lean?: boolean} = {},
): Promise<Metafile> {
  const bundler = (await import(pathToFileURL(path.join(repo, 'bin', 'bundle.mjs')).href)) as {
    buildBundle: (entry: string, outdir: string, options: object) => Promise<{metafile: Metafile}>
  }
  return (await bundler.buildBundle(entry, outdir, options)).metafile
}
