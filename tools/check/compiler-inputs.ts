/**
 * What decides the compiler's answer besides the files it lists as read
 * (`--listFiles`), for the check's memory (check-memory.ts): which compiler it
 * is, and the files that say how it finds files.
 *
 * How far this reaches, said once: the compiler's configuration (tsconfig.json
 * and each configuration it extends, by a path or by a package), the project's
 * package.json (its `exports` and `imports` name the project's own modules),
 * and the package managers' records of what node_modules holds (npm's
 * `.package-lock.json`, pnpm's `.modules.yaml`, yarn's `.yarn-state.yml`),
 * which every install, update or removal rewrites: a package or an `@types`
 * folder that appears, goes or changes version changes one of them. A file
 * under node_modules edited by hand is seen only when the compiler read it.
 */
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {readFailed} from '../messages/io.ts'
import {readProjectFile, readProjectText, SETTINGS_FILE_MAX_BYTES} from '../project-file.ts'

const PACKAGE_RECORDS = ['.package-lock.json', '.modules.yaml', '.yarn-state.yml']

/** The files besides the program's that the compiler's answer depends on, for PROJECT checked with TSCONFIG. */
export function configurationInputs(project: string, tsconfig: string | undefined): string[] {
  const records = PACKAGE_RECORDS.map((name) => path.join(project, 'node_modules', name))
  const files = [path.join(project, 'package.json'), ...records]
  if (tsconfig) files.push(...configurationChain(tsconfig))
  return files
}

/**
 * Why the compiler cannot be run for PROJECT with TSCONFIG: a file of its configuration (package.json, tsconfig.json
 * or one it extends) that exists and that the reader of a project's files refuses, said as that reader says it;
 * undefined when all can be read. The compiler and Node's resolver read them with an open that waits: a named pipe
 * there held the check, and a core judging its skills, for good.
 */
export function unreadableConfiguration(project: string | undefined, tsconfig: string | undefined): string | undefined {
  const files = [
    ...(project ? [path.join(project, 'package.json')] : []),
    ...(tsconfig ? configurationChain(tsconfig) : []),
  ]
  for (const file of files) {
    const read = readProjectFile(file, SETTINGS_FILE_MAX_BYTES)
    if (!read.ok && !read.missing) return readFailed(file, read.why).reason
  }
  return undefined
}

/** CONFIG and every configuration it extends, in the order the compiler reads them; each once. */
export function configurationChain(config: string): string[] {
  const chain: string[] = []
  const pending = [config]
  while (pending.length > 0) {
    const file = pending.shift()!
    if (chain.includes(file)) continue
    chain.push(file)
    for (const name of extendedNames(file)) {
      const found = resolveConfiguration(name, path.dirname(file))
      if (found) pending.push(found)
    }
  }
  return chain
}

/**
 * The names FILE's `extends` gives (a string or a list of them). Read from the text, not parsed: a
 * configuration may hold comments and trailing commas, and the names are all that is needed of it.
 */
function extendedNames(file: string): string[] {
  const read = readProjectText(file, SETTINGS_FILE_MAX_BYTES)
  if (!read.ok) return []
  const value = /"extends"\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\])/.exec(read.text)?.[1]
  if (!value) return []
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!)
}

/** Where the configuration NAME extended from a file in FOLDER is: a path, or a module of a package. */
function resolveConfiguration(name: string, folder: string): string | undefined {
  if (name.startsWith('.') || path.isAbsolute(name)) {
    const file = path.resolve(folder, name)
    return fs.existsSync(file) || name.endsWith('.json') ? file : `${file}.json`
  }
  const require = createRequire(path.join(folder, 'tsconfig.json'))
  for (const candidate of [name, `${name}.json`, `${name}/tsconfig.json`]) {
    try {
      return require.resolve(candidate)
    } catch {
      // The next spelling the compiler tries.
    }
  }
  return undefined
}
