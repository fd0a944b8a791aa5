import { fork, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import type { AddressInfo, Server } from 'node:net'
import { createFrontProxy, type Answer } from './front-proxy.ts'
import type { Head } from './http-framing.ts'
import { routingKeyOf, workerOf } from './routing.ts'
import { childEnv, workerEnv } from './env.ts'
import { FAN_OUT_PATHS, handoffListener, readBody, type PeersMessage } from './handoff.ts'
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connections.ts'

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

/** One GET to a worker, answered in full (the lists merged across workers). */
function ask(port: number, head: Head): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...head.headers }
    delete headers.connection
    delete headers['keep-alive']
    const options = { host: '127.0.0.1', port, method: head.method, path: head.target, headers, agent: upstream }
    const out = request(options, async (res) =>
      resolve({ status: res.statusCode ?? 502, headers: res.headers, body: await readBody(res) }),
    )
    out.on('error', reject)
    out.end()
  })
}

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

async function mergedList(workers: Worker[], side: 'agentPort' | 'controlPort', head: Head, list: string) {
  const answers = await Promise.all(workers.map((w) => ask(w[side], head)))
  const failed = answers.find((a) => a.status !== 200)
  if (failed) return failed
  const pages = answers.map((a) => JSON.parse(a.body.toString('utf8')) as Record<string, unknown>)
  const items = pages.flatMap((p) => (p[list] as unknown[] | undefined) ?? [])
  const merged = list === 'worlds' ? mergeWorldPages(pages, items, head.target) : { [list]: items }
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(merged)) }
}

/** Content types whose body routingKeyOf reads (a Slack token or OAuth code in a form, an id in JSON). */
const ROUTED_BODY = /^application\/(x-www-form-urlencoded|json)/i

/**
 * One front listener: routes each request to a worker's `side` port by its routing key, else to the next worker in
 * turn, at the byte level (server/front-proxy.ts). A WebSocket upgrade is routed the same way and then tunnelled:
 * the worker answers the handshake itself and the connection stays on it, so the episodes it opens are that
 * worker's.
 */
function front(workers: Worker[], side: 'agentPort' | 'controlPort', ready: Promise<unknown>): Server {
  let turn = 0
  const next = () => workers[turn++ % workers.length]![side]
  return createFrontProxy({
    ready,
    route(head, body) {
      const pathname = head.target.split('?')[0]!
      const list = side === 'controlPort' && head.method === 'GET' ? FAN_OUT_PATHS[pathname] : undefined
      if (list) return { answer: () => mergedList(workers, side, head, list) }
      const key = routingKeyOf(head.target, head.headers, body)
      if (key !== undefined) return workers[workerOf(key, workers.length)]![side]
      const hasBody = head.headers['content-length'] !== undefined || head.headers['transfer-encoding'] !== undefined
      if (body === undefined && hasBody && ROUTED_BODY.test(head.headers['content-type'] ?? '')) return 'body'
      return next()
    },
  })
}

const listen = (server: Server, host: string, port: number) =>
  new Promise<string>((resolve) =>
    server.listen(port, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)),
  )

/**
 * Starts the front listeners, then forks `count` workers of `script` (the CLI) with `args`, each told its slot
 * and the public URLs; resolves once every worker reported its ports.
 */
export type FrontOptions = {
  host: string
  port: number
  controlPort: number
  count: number
  script: string
  args: string[]
  /** Bounds on the agent side's connections until their hand-off (server/handoff.ts); the defaults when omitted. */
  connections?: ConnectionLimits
}

export async function startFront(opts: FrontOptions) {
  const workers: Worker[] = []
  let up: (ok: boolean) => void = () => {}
  const allUp = new Promise<boolean>((resolve) => (up = resolve))
  // Connections that reach the front before every worker reported its ports wait for them. The public listeners
  // hand each connection to a worker (server/handoff.ts); the byte-level proxies, on loopback, answer what a worker
  // passes on: the lists merged across workers and bodies in chunks that must be read to be routed.
  const agent = handoffListener('agent', workers, allUp, opts.connections ?? DEFAULT_CONNECTION_LIMITS)
  const control = handoffListener('control', workers, allUp)
  const agentRelay = front(workers, 'agentPort', allUp)
  const controlRelay = front(workers, 'controlPort', allUp)
  const agentUrl = await listen(agent, opts.host, opts.port)
  const controlUrl = await listen(control, opts.host, opts.controlPort)
  const relay = {
    agent: Number(new URL(await listen(agentRelay, '127.0.0.1', 0)).port),
    control: Number(new URL(await listen(controlRelay, '127.0.0.1', 0)).port),
  }
  const ready = Array.from(
    { length: opts.count },
    (_, index) =>
      new Promise<Worker>((resolve, reject) => {
        const slot = `${index}/${opts.count}`
        const env = childEnv({ [WORKER_ENV]: slot, WSGYM_PUBLIC_AGENT: agentUrl, WSGYM_PUBLIC_CONTROL: controlUrl })
        const child = fork(opts.script, opts.args, { env })
        child.on('message', (m: { wsgym?: string; agentPort: number; controlPort: number }) => {
          if (m?.wsgym === 'ready')
            resolve({ index, agentPort: m.agentPort, controlPort: m.controlPort, process: child })
        })
        child.on('exit', (code) => reject(new Error(`worker ${index} exited with ${code}`)))
      }),
  )
  try {
    workers.push(...(await Promise.all(ready)))
    const agentPorts = workers.map((w) => w.agentPort)
    const controlPorts = workers.map((w) => w.controlPort)
    for (const w of workers) {
      const peers: PeersMessage = { wsgym: 'peers', index: w.index, agentPorts, controlPorts, relay }
      await new Promise<void>((resolve, reject) => w.process.send(peers, (e) => (e ? reject(e) : resolve())))
    }
  } finally {
    up(workers.length === opts.count)
  }
  const close = async () => {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.process.exitCode !== null) return resolve()
            w.process.once('exit', () => resolve())
            w.process.kill('SIGTERM')
          }),
      ),
    )
    const servers = [agent, control, agentRelay, controlRelay]
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    upstream.destroy()
  }
  return { agentUrl, controlUrl, workers, close }
}
