/**
 * `weave --serve` (serve.ts, weave-command.ts): the site's folder over HTTP on 127.0.0.1 alone, each page with the
 * script that reloads it, never a file outside the folder; and as a process, a real save of a document woven
 * again and told on the event stream, the page served anew, Ctrl-C (SIGINT) ending it with status 0 and the port
 * closed.
 */
import {execFileSync, spawn} from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {EVENTS_PATH, type SiteServer, serveSite} from '../../tools/weave/serve.ts'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

/** GET URL: its status and body. */
function get(url: string): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({status: response.statusCode ?? 0, body}))
      })
      .on('error', reject)
  })
}

/**
 * The raw GET of PATH (as written: no URL normalizes its `..`) from the server at PORT, its Host header HOST (the
 * server's own by default); its status, or 'no answer' when none came within 5 s.
 */
function getRaw(port: number, requestPath: string, host = `127.0.0.1:${port}`): Promise<number | 'no answer'> {
  return new Promise((resolve, reject) => {
    http
      .get({host: '127.0.0.1', port, path: requestPath, headers: {host}, timeout: 5000}, (response) => {
        response.resume().on('end', () => resolve(response.statusCode ?? 0))
      })
      .on('timeout', function (this: http.ClientRequest) {
        resolve('no answer')
        this.destroy()
      })
      .on('error', reject)
  })
}

describe('the site served', () => {
  let site: string
  let server: SiteServer
  let port: number
  beforeAll(async () => {
    const folder = tempProject({
      'secret.txt': 'not the site',
      'site/index.html': '<!doctype html><html><body><p>index</p></body></html>\n',
      'site/org/a.html': '<!doctype html><html><body><p>a</p></body></html>\n',
      'site/weave.css': 'p {}\n',
    })
    site = path.join(folder, 'site')
    // What whoever can write the site's folder may put there: a link out of it, a named pipe.
    fs.symlinkSync(path.join(folder, 'secret.txt'), path.join(site, 'linked.txt'))
    fs.symlinkSync(folder, path.join(site, 'up'))
    execFileSync('mkfifo', [path.join(site, 'pipe.html')])
    server = await serveSite(site, 0)
    port = Number(new URL(server.url).port)
  })
  afterAll(() => server.close())

  it('listens on 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  })

  it('serves a page with the reload script, which its file does not hold', async () => {
    const page = await get(`${server.url}org/a.html`)
    expect(page.status).toBe(200)
    expect(page.body).toContain(`new EventSource("${EVENTS_PATH}")`)
    expect(page.body.indexOf('EventSource')).toBeLessThan(page.body.indexOf('</body>'))
    expect(fs.readFileSync(path.join(site, 'org/a.html'), 'utf8')).not.toContain('EventSource')
  })

  it.each([
    ['/', 200],
    ['/org/', 404],
    ['/weave.css', 200],
    ['/org/missing.html', 404],
    ['/../secret.txt', 404],
    ['/%2e%2e/secret.txt', 404],
    ['/org/%2e%2e/%2e%2e/secret.txt', 404],
    ['/%E0%A4%A', 404],
    ['/linked.txt', 404],
    ['/up/secret.txt', 404],
    ['/pipe.html', 404],
  ])('answers GET %s with %i', async (requestPath, status) => {
    expect(await getRaw(port, requestPath)).toBe(status)
  })

  // A page elsewhere whose own name a DNS server answers with 127.0.0.1 (DNS rebinding) sends its own Host.
  it.each([
    ['127.0.0.1:PORT', 200],
    ['localhost:PORT', 200],
    ['attacker.example:PORT', 403],
    ['127.0.0.1', 403],
    ['127.0.0.1:1', 403],
  ])('answers a request whose Host is %s with %i', async (host, status) => {
    expect(await getRaw(port, '/', host.replace('PORT', String(port)))).toBe(status)
  })

  it('is not reached on another interface of the machine', async () => {
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((address) => address && address.family === 'IPv4' && !address.internal)
    for (const other of others)
      await expect(get(`http://${other!.address}:${port}/`)).rejects.toMatchObject({code: 'ECONNREFUSED'})
  })
})

describe('passepartout weave --serve', () => {
  it('weaves again on a save, tells the open pages, serves the new page, and stops on Ctrl-C', async () => {
    const project = tempProject({'org/a.org': '#+TITLE: A\nHello.\n', 'org/b.org': '#+TITLE: B\nOther.\n'})
    const child = spawn(cli, ['weave', '--serve', '--port', '0'], {cwd: project})
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      let stdout = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      const url = await within(
        30_000,
        'the server to say its address',
        async () => /(http:\/\/\S+\/) /.exec(stdout)?.[1],
      )
      const events = await follow(`${url}${EVENTS_PATH.slice(1)}`)
      fs.writeFileSync(path.join(project, 'org/a.org'), '#+TITLE: A\nHello again.\n')
      const told = await within(20_000, 'an event after the save', async () => events.data[0])
      expect(JSON.parse(told)).toEqual(['org/a.html'])
      expect((await get(`${url}org/a.html`)).body).toContain('Hello again.')
      const summary = /wove 2 documents into generated\/site\/ \(1 file written, 5 unchanged\) in \d+ ms\n/
      await within(
        10_000,
        () => `the summary of the weave after the save in ${stdout}`,
        async () => summary.exec(stdout)?.[0],
      )
      events.close()
      child.kill('SIGINT')
      expect(await exited).toBe(0)
      await expect(get(url)).rejects.toMatchObject({code: 'ECONNREFUSED'})
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})

/** Follow the event stream at URL: the data of each event, in order. */
async function follow(url: string): Promise<{data: string[]; close: () => void}> {
  const data: string[] = []
  const request = http.get(url)
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    request.once('response', resolve).once('error', reject),
  )
  let buffer = ''
  response.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const event = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      for (const line of event.split('\n')) if (line.startsWith('data: ')) data.push(line.slice(6))
    }
  })
  return {data, close: () => request.destroy()}
}

/** What FIND gives once it gives something, looked for every 50 ms, for at most MS: else a failure naming WHAT. */
async function within<T>(ms: number, what: string | (() => string), find: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${typeof what === 'string' ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
