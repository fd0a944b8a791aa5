import { fork, type ChildProcess } from 'node:child_process'
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { routingKeyOf, workerOf } from './routing.ts'
import { childEnv, workerEnv } from './env.ts'

/**
 * `wsgym serve --workers N`: N worker processes, each a whole server (agent + control listeners on loopback ports)
 * serving the worlds whose id routes to it (server/routing.ts), behind a small front on the public ports that
 * forwards each request to the worker of its routing key. A request naming no world goes to the next worker in
 * turn (a worker creates only ids that route to itself); `GET /worlds` and `GET /gym/episodes` ask every worker.
 * Templates are built (or read from dist/templates) by each worker; worlds move between workers or hosts as
 * snapshot bytes. nginx can replace this front: see docs/decisions/0160-workers-routed-by-world-id.md.
 */
export type Worker = { index: number; agentPort: number; controlPort: number; process: ChildProcess }

/** Environment a worker reads (set by the front when it forks the CLI again). */
export const WORKER_ENV = 'WSGYM_WORKER'

/** Worker `k` of `n` when this process is one, from WSGYM_WORKER=`k/n`. */
export function workerSlot(): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(workerEnv.slot ?? '')
  return m ? { index: Number(m[1]), count: Number(m[2]) } : undefined
}

/** In a worker: tells the front which loopback ports it listens on. */
export function reportReady(agentUrl: string, controlUrl: string) {
  const port = (url: string) => Number(new URL(url).port)
  process.send?.({ wsgym: 'ready', agentPort: port(agentUrl), controlPort: port(controlUrl) })
}

const upstream = new Agent({ keepAlive: true, maxSockets: 256 })

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

type Answer = { status: number; headers: IncomingMessage['headers']; body: Buffer }

function forward(port: number, req: IncomingMessage, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, 'content-length': String(body.length) }
    delete headers['transfer-encoding']
    const options = { host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent: upstream }
    const out = request(options, async (res) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: await readBody(res) }))
    out.on('error', reject)
    out.end(body)
  })
}

/** Lists merged from every worker: the collections that span worlds. */
const FAN_OUT: Record<string, string> = { '/worlds': 'worlds', '/gym/episodes': 'episodes' }

/**
 * `GET /worlds` pages (sorted by id, `pageSize`, `pageToken`) merged across workers: each worker answered its
 * first `pageSize` ids after the token, so the global page is the first `pageSize` of their union.
 */
function mergeWorldPages(pages: Record<string, unknown>[], items: unknown[], url: string) {
  const size = Number(new URL(url, 'http://front').searchParams.get('pageSize') ?? 100) || 100
  const sorted = (items as { id: string }[]).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const page = sorted.slice(0, size)
  const more = sorted.length > size || pages.some((p) => p.nextPageToken !== undefined)
  const total = pages.reduce((n, p) => n + (typeof p.total === 'number' ? p.total : 0), 0)
  return { worlds: page, total, ...(more && page.length ? { nextPageToken: page[page.length - 1]!.id } : {}) }
}

/** One front listener: routes each request (and WebSocket upgrade) to a worker's `side` port. */
function front(workers: Worker[], side: 'agentPort' | 'controlPort'): Server {
  let turn = 0
  // The worker of the request's routing key, or the next one in turn when it names no world.
  const pick = (req: IncomingMessage, body: Buffer) => {
    const key = routingKeyOf(req.url ?? '/', req.headers, body)
    return key !== undefined ? workers[workerOf(key, workers.length)]! : workers[turn++ % workers.length]!
  }
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const body = await readBody(req)
      const pathname = (req.url ?? '/').split('?')[0]!
      const list = side === 'controlPort' && req.method === 'GET' ? FAN_OUT[pathname] : undefined
      if (list) {
        const answers = await Promise.all(workers.map((w) => forward(w[side], req, body)))
        const failed = answers.find((a) => a.status !== 200)
        if (failed) return send(res, failed)
        const pages = answers.map((a) => JSON.parse(a.body.toString('utf8')) as Record<string, unknown>)
        const items = pages.flatMap((p) => (p[list] as unknown[] | undefined) ?? [])
        const merged = Buffer.from(JSON.stringify(list === 'worlds' ? mergeWorldPages(pages, items, req.url ?? '/') : { [list]: items }))
        return send(res, { status: 200, headers: { 'content-type': 'application/json' }, body: merged })
      }
      send(res, await forward(pick(req, body)[side], req, body))
    } catch (e) {
      const error = Buffer.from(JSON.stringify({ error: `worker unreachable: ${(e as Error).message}` }))
      send(res, { status: 502, headers: { 'content-type': 'application/json' }, body: error })
    }
  })
  server.on('upgrade', tunnel((req) => pick(req, Buffer.alloc(0)), side))
  return server
}

/**
 * WebSocket upgrades (OpenEnv's `/ws`) pass through the front as a byte tunnel to one worker, chosen like any request
 * (by routing key, else in turn): the worker answers the handshake itself, and the connection stays on that worker for
 * its life, so the episodes it opens are that worker's.
 */
function tunnel(pick: (req: IncomingMessage) => Worker, side: 'agentPort' | 'controlPort') {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let upstreamSocket: Socket | undefined
    const fail = () => {
      if (!socket.destroyed) socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      upstreamSocket?.destroy()
    }
    socket.on('error', () => upstreamSocket?.destroy())
    try {
      upstreamSocket = connect(pick(req)[side], '127.0.0.1', () => {
        const lines = [`${req.method} ${req.url} HTTP/1.1`]
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
        upstreamSocket!.write(`${lines.join('\r\n')}\r\n\r\n`)
        if (head.length) upstreamSocket!.write(head)
        socket.pipe(upstreamSocket!).pipe(socket)
      })
    } catch {
      return fail()
    }
    upstreamSocket.on('error', fail)
    upstreamSocket.on('close', () => socket.destroy())
    socket.on('close', () => upstreamSocket?.destroy())
  }
}

function send(res: ServerResponse, a: Answer) {
  const headers: Record<string, string | string[] | undefined> = { ...a.headers, 'content-length': String(a.body.length) }
  delete headers['transfer-encoding']
  delete headers.connection
  delete headers['keep-alive']
  res.writeHead(a.status, headers)
  res.end(a.body)
}

const listen = (server: Server, host: string, port: number) =>
  new Promise<string>((resolve) =>
    server.listen(port, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)))

/**
 * Starts the front listeners, then forks `count` workers of `script` (the CLI) with `args`, each told its slot
 * and the public URLs; resolves once every worker reported its ports.
 */
export type FrontOptions = { host: string; port: number; controlPort: number; count: number; script: string; args: string[] }

export async function startFront(opts: FrontOptions) {
  const workers: Worker[] = []
  const agent = front(workers, 'agentPort')
  const control = front(workers, 'controlPort')
  const agentUrl = await listen(agent, opts.host, opts.port)
  const controlUrl = await listen(control, opts.host, opts.controlPort)
  const ready = Array.from({ length: opts.count }, (_, index) => new Promise<Worker>((resolve, reject) => {
    const slot = `${index}/${opts.count}`
    const env = childEnv({ [WORKER_ENV]: slot, WSGYM_PUBLIC_AGENT: agentUrl, WSGYM_PUBLIC_CONTROL: controlUrl })
    const child = fork(opts.script, opts.args, { env })
    child.on('message', (m: { wsgym?: string; agentPort: number; controlPort: number }) => {
      if (m?.wsgym === 'ready') resolve({ index, agentPort: m.agentPort, controlPort: m.controlPort, process: child })
    })
    child.on('exit', (code) => reject(new Error(`worker ${index} exited with ${code}`)))
  }))
  workers.push(...(await Promise.all(ready)))
  const close = async () => {
    await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
      if (w.process.exitCode !== null) return resolve()
      w.process.once('exit', () => resolve())
      w.process.kill('SIGTERM')
    })))
    await Promise.all([agent, control].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    upstream.destroy()
  }
  return { agentUrl, controlUrl, workers, close }
}
