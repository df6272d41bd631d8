/**
 * The architecture's check (tools/architecture/check.ts) in each of several folders, one process for them all:
 * each run is the check's own `main`, in its folder as the working folder, as `make check` runs it in the
 * repository. dependency-cruiser and the compiler it parses with load once, not once a folder (1.5 s of CPU each).
 *
 *   node bin/launch.mjs test/support/architecture-cases.ts CONFIG FOLDER ...
 *
 * Prints one line of JSON: for each FOLDER, the check's exit status and what it wrote to stdout and stderr.
 */
import {main as checkArchitecture} from '../../tools/architecture/check.ts'

export interface CaseRun {
  status: number
  stdout: string
  stderr: string
}

/** A stream's write that keeps what it is given in SINK, and writes nothing. */
function keptIn(sink: {text: string}): typeof process.stdout.write {
  return ((chunk: string | Uint8Array) => {
    sink.text += String(chunk)
    return true
  }) as typeof process.stdout.write
}

/** What RUN returned, and what it wrote to stdout and stderr meanwhile. */
async function captured(run: () => Promise<number>): Promise<CaseRun> {
  const [stdout, stderr] = [{text: ''}, {text: ''}]
  const writes = {stdout: process.stdout.write, stderr: process.stderr.write}
  process.stdout.write = keptIn(stdout)
  process.stderr.write = keptIn(stderr)
  try {
    const status = await run()
    return {status, stdout: stdout.text, stderr: stderr.text}
  } finally {
    process.stdout.write = writes.stdout
    process.stderr.write = writes.stderr
  }
}

export async function main([config, ...folders]: string[]): Promise<number> {
  const runs: CaseRun[] = []
  for (const folder of folders) {
    process.chdir(folder)
    runs.push(await captured(() => checkArchitecture(['--config', config!])))
  }
  process.stdout.write(`${JSON.stringify(runs)}\n`)
  return 0
}
