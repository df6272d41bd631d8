/** A command line the program cannot act on: exit status 2. */
export class UsageError extends Error {}

export interface CommandContext {
  cwd: string
  /** Print the Org lines around each diagnostic. */
  frames: boolean
}

export const USAGE = `usage: passepartout <command> [options] [arguments]

commands:
  tangle [FILE|DIR ...]   write the files the Org documents' blocks tangle to
                          (default: every .org file under the project's org/)
  watch [FILE|DIR ...]    tangle, then tangle again after each saved change
                          until interrupted (Ctrl-C)
  check [FILE|DIR ...]    tangle, then type-check the generated TypeScript and
                          hold skills to their #+CAPABILITIES:, every problem
                          at its Org line
  deps [FILE|DIR ...]     the documents in load order (#+DEPENDS_ON: and :ID:)
  skills                  boot the project's skills (org/skills/) once and print
                          the catalog; exit 1 when a mandatory skill is not ready
  ask TEXT                send TEXT through Perceive, Reason and Act once and print
                          each attempt, the gate trace, the action and any approval
                          it waits for; exit 1 when no backend answered
  approve ID / deny ID    settle an approval that ask printed
  doctor                  check the backends, memory and mandatory skills:
                          healthy, degraded or unhealthy (exit 1)

options:
  --dry-run               show what would be written, write nothing
  --json                  print a machine-readable report on stdout (tangle, deps,
                          skills, ask, approve, deny, doctor)
  --dot                   deps: print the graph in Graphviz DOT
  --allow-outside         let targets resolve outside the project
  --no-cache              tangle every document, even those unchanged since the
                          last run (the cache is node_modules/.cache/passepartout)
  --frames / --no-frames  show the Org lines around each diagnostic
                          (default: when stderr is a terminal)
  -h, --help              show this help
`
