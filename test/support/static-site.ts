/**
 * A folder served over HTTP on 127.0.0.1, for the browser's tests: a site whose scripts fetch files (a search index)
 * must be served, as Chromium lets a file:// page fetch nothing. A path that names no file of the folder is a 404.
 */
import fs from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

export interface ServedSite {
  /** The site's root, ending in a slash: `http://127.0.0.1:PORT/`. */
  url: string
  /** The path of each request, in the order they came (`/index.html`). */
  requests: string[]
  close(): Promise<void>
}

/** Serve FOLDER on a free port of 127.0.0.1; a path ending in a slash serves its index.html. */
export async function serveFolder(folder: string): Promise<ServedSite> {
  const root = path.resolve(folder)
  const requests: string[] = []
  const server = http.createServer((request, response) => {
    const urlPath = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    requests.push(urlPath)
    const file = fileOf(root, urlPath)
    fs.readFile(file ?? root, (error, bytes) => {
      if (file === undefined || error) {
        response.writeHead(404, {'content-type': 'text/plain'}).end('not found')
        return
      }
      const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream'
      response.writeHead(200, {'content-type': type}).end(bytes)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    // Chromium keeps its connections open: they are cut, or the server would wait for the browser to close.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The file of ROOT a URL's path names, or undefined when it would be outside ROOT. */
function fileOf(root: string, urlPath: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return undefined
  }
  const file = path.join(root, decoded.endsWith('/') ? `${decoded}index.html` : decoded)
  return file === root || file.startsWith(`${root}${path.sep}`) ? file : undefined
}
