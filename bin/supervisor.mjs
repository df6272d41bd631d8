// `passepartout run`'s first process: the one a terminal or a service manager knows, and the only one that stays for
// the life of the service. It supervises and nothing else, so it holds no more than a bare Node: it imports only
// Node's own modules. What a start needs (the command line read, the core tangled, its bundle built) is done by
// a process that prepares the start and exits, `passepartout run` itself told so (PREPARING): it says over its
// channel what to run (`{type: 'core', argv, env, restart, error}`), or says why not itself and exits with its status.
import {spawn} from 'node:child_process'
import {once} from 'node:events'
import os from 'node:os'

/**
 * The variable that makes `passepartout run` prepare a start instead of supervising: its value the TCP port the
 * core is to listen on (that the first start took), or empty.
 */
export const PREPARING = 'PASSEPARTOUT_PREPARE_CORE'

/**
 * Run `passepartout ARGS` (a `run`, PROGRAM the command) until the core exits other than to be started again; the exit
 * status. A SIGINT or SIGTERM this process gets goes to the core, which stops once it has saved its memory; one that
 * comes while no core runs ends the loop with status 0 (once a start being prepared is). A core that dies of the very signal passed on to it (it was still starting) stopped as asked; one that ended otherwise
 * (killed, or an unusual status) is said to have, on stderr: the terminal must not just return to its prompt. A
 * core started again listens on the TCP port the first one took, said over the channel: `--tcp=0` means a free
 * port once, not a new one at each restart. Each start is prepared again: the core tangled anew, on new code.
 */
export async function supervise(program, args) {
  let core
  let asked
  // Not to the preparing process: its tangle finishes (as when it ran in this process), then the loop ends.
  const forward = (signal) => {
    asked ??= signal
    core?.kill(signal)
  }
  // A terminal that goes away must not stop the core (it is a service then): the hang-up is not passed on.
  const onHangUp = () => {}
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  process.on('SIGHUP', onHangUp)
  let port = ''
  try {
    for (;;) {
      if (asked) return 0
      const preparing = spawn(process.execPath, [...process.execArgv, program, ...args], {
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: {...process.env, [PREPARING]: port},
      })
      const start = await preparedStart(preparing)
      if (!start || asked) return asked ? 0 : statusOf(preparing)
      // The channel is how the core knows this process is there: it stops when the channel closes.
      core = spawn(process.execPath, start.argv, {
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: {...start.env, ...process.env},
      })
      core.on('message', (message) => {
        const {type, tcpPort} = message ?? {}
        if (type === 'listening' && Number.isInteger(tcpPort)) port = String(tcpPort)
      })
      const [code, signal] = await once(core, 'exit')
      core = undefined
      if (signal && signal === asked) return 0
      if (code === start.restart) {
        if (asked) return 0
        process.stdout.write('passepartout: starting the core again on its new code\n')
        continue
      }
      // Status 1 is a core that said why itself (another core holds the project, a mandatory skill is not ready).
      const unusual = code !== 0 && code !== 1 ? `the core ended with status ${code}` : ''
      const ended = signal ? `the core was killed by ${signal}` : unusual
      if (ended) process.stderr.write(`passepartout: ${start.error[0]}${ended}${start.error[1]}\n`)
      return code ?? 128 + (os.constants.signals[signal] ?? 0)
    }
  } finally {
    process.off('SIGINT', forward)
    process.off('SIGTERM', forward)
    process.off('SIGHUP', onHangUp)
  }
}

/** What the preparing process PREPARING says to start, once it has ended (its channel closed too); none if it said none. */
async function preparedStart(preparing) {
  let start
  preparing.on('message', (message) => {
    if (message?.type === 'core') start = message
  })
  // Not 'exit': a message may come after it, 'close' comes once the channel has closed as well.
  await once(preparing, 'close')
  return start
}

/** The exit status of `run` when PREPARING ended without a start: its own, or 128 and the signal that ended it. */
function statusOf(preparing) {
  const {exitCode, signalCode} = preparing
  return exitCode ?? 128 + (os.constants.signals[signalCode] ?? 0)
}
