/**
 * The woven site served while its documents are edited (`weave --serve`): the site's folder over HTTP on
 * 127.0.0.1 alone (nobody else's to read), and each page served with a small script that follows the server's
 * events (server-sent events: one long response, no framework, and the browser reconnects by itself) and reloads
 * the page when a weave wrote it, or the style sheet or a script every page uses. The script is put in as the page
 * is served: the files on disk hold none, and read the same from `file://`.
 *
 * 127.0.0.1 is not enough on its own: a web page the person visits elsewhere can have its own name resolve to
 * 127.0.0.1 (DNS rebinding) and read the site through the browser, so a request is answered only when its Host is
 * this server's own (127.0.0.1 or localhost, at its port), as development servers learned to do. And only regular
 * files under the site's folder are served, once links are followed, read without waiting (a named pipe there held
 * the server, whose reads are synchronous).
 */
import fs from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {isInside} from '../project.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'

/** Where a page's script follows the weaves. */
export const EVENTS_PATH = '/.weave/events'

/** Reload this page when a weave wrote it, or a file that is not a page (the style sheet, a script). */
const RELOAD_SCRIPT = `<script>
new EventSource(${JSON.stringify(EVENTS_PATH)}).onmessage = (event) => {
  const here = decodeURIComponent(location.pathname.slice(1)) || 'index.html'
  const written = JSON.parse(event.data)
  if (written.some((file) => file === here || !file.endsWith('.html'))) location.reload()
}
</script>
`

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

export interface SiteServer {
  /** `http://127.0.0.1:PORT/`. */
  url: string
  /** Tell the open pages what a weave WROTE (paths under the site's folder): each reloads if it is among them. */
  written(files: readonly string[]): void
  /** Stop: the open event streams are ended, and the port is free when this resolves. */
  close(): Promise<void>
}

/** Serve the folder OUT on PORT of 127.0.0.1 (0: a free one, said in `url`). */
export async function serveSite(out: string, port: number): Promise<SiteServer> {
  const streams = new Set<http.ServerResponse>()
  const server = http.createServer((request, response) => {
    if (!isOwnHost(request.headers.host, (server.address() as AddressInfo).port)) {
      response.writeHead(403, {'content-type': 'text/plain; charset=utf-8'}).end('not this server\n')
      return
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === EVENTS_PATH) return follow(response, streams)
    serveFile(out, url.pathname, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    written: (files) => {
      if (files.length === 0) return
      for (const stream of streams) stream.write(`data: ${JSON.stringify(files)}\n\n`)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** Whether HOST (a request's Host header) names this server itself, at PORT: 127.0.0.1 or localhost. */
export function isOwnHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/** Keep RESPONSE open as an event stream until its page goes. */
function follow(response: http.ServerResponse, streams: Set<http.ServerResponse>): void {
  response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-store'})
  // A comment line at once: the client knows it is connected (and a test that it is followed).
  response.write(': following the weave\n\n')
  streams.add(response)
  response.on('close', () => streams.delete(response))
}

/** The file of OUT at the URL path PATHNAME (a folder's index.html), a page with the reload script; 404 for anything else. */
function serveFile(out: string, pathname: string, response: http.ServerResponse): void {
  const file = fileAt(out, pathname)
  const read = file === undefined ? undefined : readProjectFile(file, ORG_DOCUMENT_MAX_BYTES)
  const bytes = read?.ok ? read.bytes : undefined
  if (file === undefined || bytes === undefined) {
    response.writeHead(404, {'content-type': 'text/plain; charset=utf-8'}).end(`not in the site: ${pathname}\n`)
    return
  }
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream'
  const body = type.startsWith('text/html') ? withReload(bytes.toString('utf8')) : bytes
  response.writeHead(200, {'content-type': type, 'cache-control': 'no-store'}).end(body)
}

/** The file under OUT that PATHNAME names, never one outside it; a folder's index.html. */
function fileAt(out: string, pathname: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  const root = path.resolve(out)
  const named = path.resolve(root, `.${path.posix.normalize(decoded)}`)
  if (named !== root && !named.startsWith(`${root}${path.sep}`)) return undefined
  const file = fs.statSync(named, {throwIfNoEntry: false})?.isDirectory() ? path.join(named, 'index.html') : named
  // Where a link in the site leads must be in the site too.
  let real: string
  try {
    real = fs.realpathSync(file)
  } catch {
    return undefined
  }
  return isInside(real, fs.realpathSync(root)) ? file : undefined
}

/** HTML with the reload script before its `</body>`. */
function withReload(html: string): string {
  const end = html.lastIndexOf('</body>')
  return end === -1 ? `${html}${RELOAD_SCRIPT}` : `${html.slice(0, end)}${RELOAD_SCRIPT}${html.slice(end)}`
}
