/**
 * The warm type checker's thread: it holds the ts-morph program (warm-checker.ts) and answers each request
 * (warm-messages.ts) in the order they came. Started by warm-program.ts; the program's files are named by the
 * requests, the configuration by `workerData.tsconfig` and
 * the options added to it, `workerData.added`.
 */
import {parentPort, workerData} from 'node:worker_threads'
import {WarmChecker} from './warm-checker.ts'
import type {WarmRequest, WarmResponse} from './warm-messages.ts'

const {tsconfig, added} = workerData as {tsconfig: string | undefined; added: Record<string, unknown> | undefined}
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
  }
}

parentPort!.on('message', (request: WarmRequest) => {
  let response: WarmResponse
  try {
    response = {id: request.id, ok: true, value: answer(request)}
  } catch (error) {
    response = {id: request.id, ok: false, error: (error as Error).stack ?? String(error)}
  }
  parentPort!.postMessage(response)
})
