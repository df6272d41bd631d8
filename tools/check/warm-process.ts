/**
 * The warm type checker's process: it holds the ts-morph program (warm-checker.ts), judges skills' code by the
 * sandbox rules with TypeScript's parser (sandbox.ts), and answers each request
 * (warm-messages.ts) in the order they came. Started by warm-program.ts, its configuration in its one argument (JSON:
 * `tsconfig` and the options added to it, `added`); the program's files are named by the requests. It ends with
 * the channel to the process that started it: an asker gone leaves no checker behind.
 */
import {findSandboxViolations, parse, violationMessage} from './sandbox.ts'
import {WarmChecker} from './warm-checker.ts'
import type {SandboxFinding, SandboxSuspect, WarmRequest, WarmResponse} from './warm-messages.ts'

const {tsconfig, added} = JSON.parse(process.argv[2]!) as {
  tsconfig: string | undefined
  added: Record<string, unknown> | undefined
}
const warm = new WarmChecker(tsconfig, added)

function answer(request: WarmRequest): unknown {
  switch (request.type) {
    case 'update':
      return warm.update([...request.files, ...request.ifHeld.filter((file) => warm.holds(file))])
    case 'prime':
      return warm.prime()
    case 'recheck':
      return warm.recheck(request.files)
    case 'check-program':
      return warm.checkProgram()
    case 'sandbox':
      return request.skills.map(judge)
  }
}

/** The violations of the sandbox rules in SUSPECT's code, each where its text holds it. */
function judge({file, text, skill, granted}: SandboxSuspect): SandboxFinding[] {
  const source = parse(file, text)
  return findSandboxViolations(source, new Set(granted)).map((violation) => ({
    ...source.getLineAndCharacterOfPosition(violation.start),
    message: violationMessage(skill, violation),
  }))
}

process.on('message', (request: WarmRequest) => {
  let response: WarmResponse
  try {
    response = {id: request.id, ok: true, value: answer(request)}
  } catch (error) {
    response = {id: request.id, ok: false, error: (error as Error).stack ?? String(error)}
  }
  process.send!(response)
})
process.on('disconnect', () => process.exit(0))
