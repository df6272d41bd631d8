/**
 * The one-shot check with the native TypeScript compiler (`tsc` 7, the
 * `typescript` package): it checks 1000 generated files in about a third of
 * the time ts-morph takes. It runs as a child process on a configuration
 * that extends the project's tsconfig.json with exactly the generated files as
 * roots, and its `--pretty false` output (`file(line,col): error TS2322: …`,
 * columns in UTF-16 code units like ts-morph's) is read back into problems.
 */
import {spawn} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {compilerExited} from '../messages/check.ts'
import {isInside, userStateFolder} from '../project.ts'
import {readProjectText, SETTINGS_FILE_MAX_BYTES} from '../project-file.ts'
import {configurationChain} from './compiler-inputs.ts'
import {stampOf} from './file-records.ts'
import {DEFAULT_COMPILER_OPTIONS, type TsProblem} from './checker.ts'

/** How to run the native compiler: a program and the arguments before ours. */
export interface NativeCompiler {
  command: string
  args: string[]
  /** The `typescript` package's version. */
  version: string
}

/**
 * COMPILER as the key of what it answered: its version and the stamp of the file that runs it. Beside the compiler
 * it names (compiler-inputs.ts, which this module reads, names the other inputs of an answer).
 */
export function compilerIdentity(compiler: NativeCompiler): string {
  const program = compiler.args[0] ?? compiler.command
  return `${compiler.version} ${program} ${stampOf(program)?.stamp ?? 'missing'}`
}

/** What the compiler said of a program: its problems, and every file it read (absolute paths). */
export interface ProgramCheck {
  problems: TsProblem[]
  read: string[]
}

/**
 * The native compiler, or undefined when the installed `typescript` is not
 * version 7 or later: its executable from the platform's package when there
 * is one (no Node process in between), else its `tsc` script.
 */
export function nativeCompiler(): NativeCompiler | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('typescript/package.json')
    const {version, bin} = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {version: string; bin: {tsc: string}}
    if (Number.parseInt(version, 10) < 7) return undefined
    const executable = platformExecutable(manifest)
    if (executable) return {command: executable, args: [], version}
    return {command: process.execPath, args: [path.resolve(path.dirname(manifest), bin.tsc)], version}
  } catch {
    return undefined
  }
}

function platformExecutable(typescriptManifest: string): string | undefined {
  try {
    const manifest = createRequire(typescriptManifest).resolve(
      `@typescript/typescript-${process.platform}-${process.arch}/package.json`,
    )
    const executable = path.join(path.dirname(manifest), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc')
    return fs.existsSync(executable) ? executable : undefined
  } catch {
    return undefined
  }
}

export class NativeChecker {
  constructor(
    readonly compiler: NativeCompiler,
    readonly tsconfig: string | undefined,
    /** Where the generated configuration goes: a folder of the project's cache, or of the user's (`nativeWorkDir`). */
    private readonly workDir: string,
    /** Options added to the configuration's, as tsconfig.json spells them (what the installation gives a project). */
    private readonly added: Record<string, unknown> = {},
  ) {}

  /**
   * Problems of the program rooted at ROOTS, with the configuration's, and the files the compiler read; rejects
   * when the compiler cannot run or SIGNAL aborts it.
   */
  async checkProgram(roots: readonly string[], signal?: AbortSignal): Promise<ProgramCheck> {
    if (roots.length === 0) return {problems: [], read: []}
    fs.mkdirSync(this.workDir, {recursive: true})
    // Real paths throughout: when node_modules (where the configuration goes) is a link, the compiler runs in
    // the real folder and names files from there; each is named back as the caller knows it.
    const workDir = fs.realpathSync(this.workDir)
    // Regular files only: the compiler opens a root with an open that waits, and a named pipe put where a document
    // writes held it, and the check, for good (tangle refuses to write there, and says so).
    const regular = roots.filter((root) => fs.statSync(root, {throwIfNoEntry: false})?.isFile())
    const known = new Map(regular.map((root) => [fs.realpathSync(root), root]))
    const config = path.join(workDir, `tsconfig.${process.pid}.${configs++}.json`)
    fs.writeFileSync(config, JSON.stringify(this.configFor([...known.keys()], workDir)))
    try {
      const args = [...this.compiler.args, '-p', config, '--pretty', 'false', '--listFiles']
      const {status, output} = await run(this.compiler.command, args, workDir, signal)
      const named = (file: string) => known.get(file) ?? file
      const problems = parseOutput(output, workDir).map((each) => ({...each, file: each.file && named(each.file)}))
      // 0: clean; 1 and 2: problems reported. Anything else, or nothing said on a failure, is the compiler failing.
      if (status !== 0 && (status > 2 || problems.length === 0)) throw new Error(compilerExited(status, output.trim()))
      return {problems, read: listedFiles(output).map(named)}
    } finally {
      fs.rmSync(config, {force: true})
    }
  }

  private configFor(roots: readonly string[], workDir: string): object {
    const files = roots.map((root) => path.relative(workDir, root).split(path.sep).join('/'))
    const noEmit = {noEmit: true, incremental: false, composite: false}
    if (!this.tsconfig) return {compilerOptions: {...DEFAULT_COMPILER_OPTIONS, ...this.added, ...noEmit}, files}
    const typeRoots = isInside(workDir, path.dirname(this.tsconfig)) ? undefined : defaultTypeRoots(this.tsconfig)
    return {
      extends: this.tsconfig,
      compilerOptions: {...(typeRoots && {typeRoots}), ...this.added, ...noEmit},
      files,
      include: [],
    }
  }
}

/**
 * The type roots TSCONFIG has when it names none: the node_modules/@types folders at and above its own, where
 * the compiler looks for them from the configuration it is given. Said for a configuration written outside the
 * project (`nativeWorkDir`), which would otherwise find its `types: ["node"]` nowhere; undefined when a
 * configuration of its chain names them itself.
 */
function defaultTypeRoots(tsconfig: string): string[] | undefined {
  const named = configurationChain(tsconfig).some((file) => {
    const read = readProjectText(file, SETTINGS_FILE_MAX_BYTES)
    return read.ok && /"typeRoots"\s*:/.test(read.text)
  })
  if (named) return undefined
  const roots: string[] = []
  for (let dir = path.dirname(tsconfig); ; dir = path.dirname(dir)) {
    roots.push(path.join(dir, 'node_modules', '@types'))
    if (path.dirname(dir) === dir) return roots
  }
}

/**
 * A folder for the generated configuration, made: the project's cache when it has node_modules/ and that can be
 * written, else the user's own folder (a project on a read-only disk is checked all the same); else, a home
 * that cannot be written either, a new private folder in the temporary one (a name there that another user
 * could have made first is never written into).
 */
export function nativeWorkDir(project: string | undefined): string {
  const cache = project && fs.existsSync(path.join(project, 'node_modules'))
  const candidates = [cache ? path.join(project, 'node_modules', '.cache', 'passepartout', 'check') : undefined]
  for (const folder of [...candidates, path.join(userStateFolder(), 'check')]) {
    if (folder && writableFolder(folder)) return folder
  }
  return fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-check-'))
}

/** FOLDER is there, made when it was not, and this process can write in it. */
function writableFolder(folder: string): boolean {
  try {
    fs.mkdirSync(folder, {recursive: true})
    fs.accessSync(folder, fs.constants.W_OK)
    return true
  } catch {
    return false
  }
}

let configs = 0

function run(
  command: string,
  args: string[],
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<{status: number; output: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {cwd, stdio: ['ignore', 'pipe', 'pipe'], signal})
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', reject)
    child.on('close', (status) => resolve({status: status ?? -1, output: Buffer.concat(chunks).toString('utf8')}))
  })
}

const LOCATED = /^(.+)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/

/** The files `tsc --listFiles` names, one absolute path a line after its problems. */
export function listedFiles(output: string): string[] {
  return output.split(/\r?\n/).filter((line) => path.isAbsolute(line) && !LOCATED.test(line))
}

/** `tsc --pretty false` output: one problem per line, its chained details on the indented lines after it. */
export function parseOutput(output: string, cwd: string): TsProblem[] {
  const problems: TsProblem[] = []
  for (const line of output.split(/\r?\n/)) {
    const located = LOCATED.exec(line)
    const global = located ? null : GLOBAL.exec(line)
    const last = problems[problems.length - 1]
    if (located) {
      const [, file, row, column, severity, code, message] = located
      problems.push({
        file: path.resolve(cwd, file!),
        line: Number(row),
        column: Number(column),
        code: code!,
        message: message!,
        severity: severity as TsProblem['severity'],
      })
    } else if (global) {
      const [, severity, code, message] = global
      problems.push({
        file: undefined,
        line: 0,
        column: 0,
        code: code!,
        message: message!,
        severity: severity as TsProblem['severity'],
      })
    } else if (last && line.startsWith(' ')) last.message += `\n${line}`
  }
  return problems
}
