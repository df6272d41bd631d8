/**
 * `make bench`: a turn's SQLite, by driver. The statements a tool turn (message → tool call → result → answer)
 * writes to its session, as sessions.org wrote them before one module owned the connection (the turn opened, each
 * step's messages appended, the tokens each answer spent, the ending), on a file database in a new temporary
 * folder, in WAL mode as memory opens it:
 *
 * - `@libsql/client`: its SQLite entry, each statement prepared anew, a batch a transaction, tokens apart (6 transactions);
 * - `libsql`'s `Database` (the same native library, which `@libsql/client` drives): each statement prepared once and
 *   kept for the connection's life, a write run without asking for rows, the tokens with the next write (4 transactions).
 *
 * CPU time of this process a turn (user + system), rounds interleaved, medians of the rounds and their ratio.
 * better-sqlite3 is not measured: it builds its binary in an install script, and npm here runs none; node:sqlite is
 * not in Node 20. Figures only; asserts nothing (the machine is shared).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {createClient, type InStatement} from '@libsql/client/sqlite3'
import Database from 'libsql'
import {SESSION_SCHEMA} from '../generated/core/sessions.ts'

const ROUNDS = 9
const TURNS = 200

const OPEN =
  'INSERT INTO sessions (name, created, updated, turns, tokens, model, spoken) VALUES (?, ?, ?, 1, 0, ?, ?) ON CONFLICT (name) DO UPDATE SET turns = turns + 1, updated = excluded.updated, model = coalesce(excluded.model, model), spoken = coalesce(excluded.spoken, spoken) RETURNING turns, model'
const OPEN_TURN =
  "INSERT INTO session_turns (session, turn, status, reason, chars, started, updated) SELECT name, turns, 'running', NULL, 0, ?, ? FROM sessions WHERE name = ?"
const APPEND =
  'INSERT INTO session_messages (session, turn, seq, message) SELECT ?, ?, coalesce(max(seq), 0) + 1, ? FROM session_messages WHERE session = ? AND turn = ?'
const COUNT =
  'UPDATE session_turns SET chars = chars + ?, updated = ?, model = coalesce(?, model), local = max(local, ?) WHERE session = ? AND turn = ?'
const TOUCH = 'UPDATE sessions SET updated = ? WHERE name = ?'
const SPEND = 'UPDATE sessions SET tokens = tokens + ? WHERE name = ?'
const END =
  'UPDATE session_turns SET status = ?, reason = ?, chars = chars + ?, updated = ?, model = coalesce(?, model), local = max(local, ?) WHERE session = ? AND turn = ?'
const SPEND_TOUCH = 'UPDATE sessions SET updated = ?, tokens = tokens + ? WHERE name = ?'

const asked = JSON.stringify({role: 'user', content: 'What is in notes.txt?'})
const called = JSON.stringify({role: 'assistant', content: '', calls: [{id: 'c1', name: 'read', arguments: '{}'}]})
const output = JSON.stringify({role: 'tool', tool: 'read', ok: true, call: 'c1', content: 'a note'})
const answer = JSON.stringify({role: 'assistant', content: 'It holds a note.'})

type Row = Record<string, unknown>

/** A turn through `@libsql/client`, as sessions.org wrote it. */
async function clientTurn(client: ReturnType<typeof createClient>, session: string): Promise<void> {
  const now = new Date().toISOString()
  const [opened] = await client.batch(
    [
      {sql: OPEN, args: [session, now, now, null, now]},
      {sql: OPEN_TURN, args: [now, now, session]},
    ],
    'write',
  )
  const turn = Number(opened!.rows[0]!.turns)
  const append = (messages: string[]): InStatement[] => [
    ...messages.map((message) => ({sql: APPEND, args: [session, turn, message, session, turn]})),
    {sql: COUNT, args: [100, now, null, 0, session, turn]},
    {sql: TOUCH, args: [now, session]},
  ]
  await client.batch(append([asked]), 'write')
  await client.execute({sql: SPEND, args: [120, session]})
  await client.batch(append([called, output]), 'write')
  await client.execute({sql: SPEND, args: [140, session]})
  await client.batch(
    [
      {sql: APPEND, args: [session, turn, answer, session, turn]},
      {sql: END, args: ['answered', null, 16, now, null, 0, session, turn]},
      {sql: TOUCH, args: [now, session]},
    ],
    'write',
  )
}

/** Statements prepared once, each run as a read (rows) or a write (changes) as SQLite says it is. */
function preparedOn(db: Database.Database): (sql: string, args: unknown[]) => Row[] {
  const kept = new Map<string, Database.Statement>()
  return (sql, args) => {
    let statement = kept.get(sql)
    if (!statement) kept.set(sql, (statement = db.prepare(sql)))
    if (statement.reader) return statement.all(args) as Row[]
    statement.run(args)
    return []
  }
}

/**
 * The same turn through `libsql`'s `Database`: with MERGED, each step's writes and the tokens before them in one
 * transaction (4); without, the tokens apart, as the client wrote them (6).
 */
function databaseTurn(
  db: Database.Database,
  run: (sql: string, args: unknown[]) => Row[],
  session: string,
  merged: boolean,
): void {
  const now = new Date().toISOString()
  const inTransaction = <T>(work: () => T): T => {
    db.exec('BEGIN IMMEDIATE')
    const result = work()
    db.exec('COMMIT')
    return result
  }
  const turn = inTransaction(() => {
    const [opened] = run(OPEN, [session, now, now, null, now])
    run(OPEN_TURN, [now, now, session])
    return Number(opened!.turns)
  })
  const spend = (tokens: number) => (merged ? tokens : (inTransaction(() => run(SPEND, [tokens, session])), 0))
  const append = (messages: string[], tokens: number) => {
    for (const message of messages) run(APPEND, [session, turn, message, session, turn])
    run(COUNT, [100, now, null, 0, session, turn])
    run(SPEND_TOUCH, [now, tokens, session])
  }
  inTransaction(() => append([asked], 0))
  const first = spend(120)
  inTransaction(() => append([called, output], first))
  const second = spend(140)
  inTransaction(() => {
    run(APPEND, [session, turn, answer, session, turn])
    run(END, ['answered', null, 16, now, null, 0, session, turn])
    run(SPEND_TOUCH, [now, second, session])
  })
}

function freshFile(name: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-sqlite-bench-${name}-`))
  const file = path.join(folder, 'memory.db')
  const db = new Database(file)
  db.exec('PRAGMA journal_mode=WAL')
  for (const statement of SESSION_SCHEMA) db.exec(statement)
  db.close()
  return file
}

function cpuMs(): number {
  const {user, system} = process.cpuUsage()
  return (user + system) / 1000
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export async function main(): Promise<number> {
  console.log(`sqlite benchmark: node ${process.version}; ${os.cpus().length} CPUs; ${TURNS} tool turns a round, medians of ${ROUNDS} interleaved rounds\n`)
  const clientFile = freshFile('client')
  const databaseFile = freshFile('database')
  const client = createClient({url: `file:${clientFile}`, concurrency: 1, timeout: 5000})
  await client.execute('PRAGMA synchronous=NORMAL')
  const db = new Database(databaseFile, {timeout: 5000})
  db.exec('PRAGMA synchronous=NORMAL')
  const run = preparedOn(db)
  const clientTimes: number[] = []
  const databaseTimes: number[] = []
  const apartTimes: number[] = []
  const databaseTurns = (merged: boolean, round: number) => {
    for (let n = 0; n < TURNS; n++) databaseTurn(db, run, `s-${round}-${n % 10}`, merged)
  }
  for (let round = 0; round < ROUNDS; round++) {
    let started = cpuMs()
    for (let n = 0; n < TURNS; n++) await clientTurn(client, `s-${round}-${n % 10}`)
    clientTimes.push((cpuMs() - started) / TURNS)
    started = cpuMs()
    databaseTurns(false, round)
    apartTimes.push((cpuMs() - started) / TURNS)
    started = cpuMs()
    databaseTurns(true, round)
    databaseTimes.push((cpuMs() - started) / TURNS)
  }
  const before = median(clientTimes)
  const line = (what: string, times: number[]) => {
    const ms = median(times)
    console.log(`  ${what.padEnd(52)} ${ms.toFixed(3)} ms of CPU a turn (${(ms / before).toFixed(2)}×)`)
  }
  line('@libsql/client, prepared each time, 6 transactions', clientTimes)
  line('libsql Database, prepared once, 6 transactions', apartTimes)
  line('libsql Database, prepared once, 4 transactions', databaseTimes)
  client.close()
  db.close()
  for (const file of [clientFile, databaseFile]) fs.rmSync(path.dirname(file), {recursive: true, force: true})
  return 0
}
