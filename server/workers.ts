import { fork, type ChildProcess } from 'node:child_process'
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
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

/** One front listener: routes each request to a worker's `side` port. */
function front(workers: Worker[], side: 'agentPort' | 'controlPort'): Server {
  let turn = 0
  return createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const body = await readBody(req)
      const pathname = (req.url ?? '/').split('?')[0]!
      const list = side === 'controlPort' && req.method === 'GET' ? FAN_OUT[pathname] : undefined
      if (list) {
        const answers = await Promise.all(workers.map((w) => forward(w[side], req, body)))
        const failed = answers.find((a) => a.status !== 200)
        if (failed) return send(res, failed)
        const items = answers.flatMap((a) => (JSON.parse(a.body.toString('utf8')) as Record<string, unknown[]>)[list] ?? [])
        const merged = Buffer.from(JSON.stringify({ [list]: items }))
        return send(res, { status: 200, headers: { 'content-type': 'application/json' }, body: merged })
      }
      const key = routingKeyOf(req.url ?? '/', req.headers, body)
      const worker = key !== undefined ? workers[workerOf(key, workers.length)]! : workers[turn++ % workers.length]!
      send(res, await forward(worker[side], req, body))
    } catch (e) {
      const error = Buffer.from(JSON.stringify({ error: `worker unreachable: ${(e as Error).message}` }))
      send(res, { status: 502, headers: { 'content-type': 'application/json' }, body: error })
    }
  })
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
