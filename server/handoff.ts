import type { ChildProcess } from 'node:child_process'
import { Agent, request, type IncomingMessage, type RequestListener, type Server as HttpServer } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { FramingError, MAX_HEAD_BYTES, parseHead } from './http-framing.ts'
import { routingKeyOf, workerOf } from './routing.ts'
import { IDLE_CLIENT_MS, MAX_ROUTED_BODY } from './front-proxy.ts'
import { connectionCaps, type ConnectionLimits } from './connections.ts'

/**
 * Connection hand-off for `wsgym serve --workers N` (docs/decisions/0332). The front accepts a client connection,
 * reads its first request head, and passes the socket itself (a file descriptor over the IPC channel) to the
 * worker that request routes to, or to the next worker in turn when it names no world. From then on the client
 * talks to that worker directly: the front spends nothing per request. A worker checks the routing key of every
 * request it reads; one that belongs to another worker (a client that reuses one connection for several worlds) is
 * relayed to it over loopback, and the lists that span every worker go to the front's merging proxy.
 */

export type Side = 'agent' | 'control'

/** A worker as the front sees it: where to send connections, and its own loopback ports. */
export type HandoffWorker = { process: ChildProcess; agentPort: number; controlPort: number }

/** What the front sends a worker with a connection (the socket travels as the message's handle). */
type ConnectionMessage = { wsgym: 'connection'; side: Side; bytes: string }
/** What every worker is told once all are up: its peers' ports and the front's merging proxies. */
export type PeersMessage = {
  wsgym: 'peers'
  index: number
  agentPorts: number[]
  controlPorts: number[]
  /** The front's byte-level proxies on loopback (server/front-proxy.ts), which merge the cross-worker lists. */
  relay: Record<Side, number>
}

/** Paths whose GET lists every worker's items: answered by the front's merging proxy. */
export const FAN_OUT_PATHS: Record<string, string> = { '/worlds': 'worlds', '/gym/episodes': 'episodes' }

/**
 * The public listener of one side: reads each new connection's first request head (at most 64 KiB), picks the
 * worker, and hands the socket over with the bytes read so far. Connections wait until `ready` settles (every
 * worker is up). With `limits` (the agent side), the connections held here before their hand-off are bounded as
 * the agent listener of one process bounds its own (server/connections.ts, docs/decisions/0410): per client address
 * and in all (past a cap a 503 in Google's error envelope, then closed), and a head must be whole within
 * `headersTimeoutMs` of the connection being read (else Node's bare 408, then closed). Without them a connection
 * may send nothing for up to 65 s. After the hand-off the worker's own bounds apply.
 */
export function handoffListener(
  side: Side,
  workers: HandoffWorker[],
  ready: Promise<unknown>,
  limits?: ConnectionLimits,
): Server {
  let turn = 0
  const pick = (bytes: Buffer): HandoffWorker => {
    try {
      const head = parseHead(bytes, 'request')
      const key = head ? routingKeyOf(head.target, head.headers) : undefined
      if (key !== undefined) return workers[workerOf(key, workers.length)]!
    } catch (e) {
      if (!(e instanceof FramingError)) throw e
      // The worker's own HTTP parser answers a malformed request; any worker will do.
    }
    return workers[turn++ % workers.length]!
  }
  const admit = limits && connectionCaps(limits)
  return createServer({ pauseOnConnect: true, noDelay: true }, (socket) => {
    const release = admit?.(socket)
    if (admit && !release) return
    const handOver = (bytes: Buffer) => {
      // From here the connection is the worker's, and counted there.
      release?.()
      send(pick(bytes), side, socket, bytes)
    }
    void ready.then(
      () => readFirstHead(socket, handOver, limits?.headersTimeoutMs),
      () => socket.destroy(),
    )
  })
}

/** What Node answers a head that took longer than its `headersTimeout` (server/client-error.ts passes it on). */
const HEAD_TIMEOUT = Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', 'latin1')

/**
 * Reads a connection's first head and calls `done` with its bytes. With `headersTimeoutMs` the whole head must
 * come within that long (as with Node's own timer, a trickle of header lines does not extend it), else 408 and
 * closed; without, the connection is closed after 65 s without a byte.
 */
function readFirstHead(socket: Socket, done: (bytes: Buffer) => void, headersTimeoutMs?: number) {
  let bytes: Buffer = Buffer.alloc(0)
  const late = () => {
    socket.off('data', onData)
    socket.on('data', () => {})
    socket.end(HEAD_TIMEOUT, () => socket.destroy())
    // A client that never reads the answer is not waited for.
    socket.setTimeout(1_000, () => socket.destroy())
  }
  const timer = headersTimeoutMs === undefined ? undefined : setTimeout(late, headersTimeoutMs)
  socket.once('close', () => clearTimeout(timer))
  const finish = () => {
    clearTimeout(timer)
    socket.off('data', onData)
    socket.setTimeout(0)
    socket.pause()
    for (let more = socket.read() as Buffer | null; more !== null; more = socket.read() as Buffer | null) {
      bytes = Buffer.concat([bytes, more])
    }
    // pause() and read() leave the handle reading into the stream's buffer, and the handle stays open here until
    // the worker acknowledges it: a next request the client sends meanwhile must reach the worker, not this copy.
    // (Stopped after the last read(): an empty buffer's read() starts the handle reading again.)
    const handle = (socket as unknown as { _handle?: { reading?: boolean; readStop(): number } })._handle
    if (handle?.reading) {
      handle.reading = false
      handle.readStop()
    }
    done(bytes)
  }
  const onData = (d: Buffer) => {
    bytes = bytes.length ? Buffer.concat([bytes, d]) : d
    // A whole head, or more than any head may be: the worker's parser answers an oversized one (431).
    if (bytes.indexOf('\r\n\r\n') !== -1 || bytes.length > MAX_HEAD_BYTES) finish()
  }
  socket.on('data', onData)
  socket.on('error', () => socket.destroy())
  // Without a head timeout (the control side), a connection that sends nothing for 65 s is closed here.
  if (timer === undefined) socket.setTimeout(IDLE_CLIENT_MS, () => socket.destroy())
  socket.resume()
}

function send(worker: HandoffWorker, side: Side, socket: Socket, bytes: Buffer) {
  if (socket.destroyed || !worker.process.connected) return void socket.destroy()
  const message: ConnectionMessage = { wsgym: 'connection', side, bytes: bytes.toString('base64') }
  // The socket is closed in the front once sent (keepOpen false); the worker owns the only open copy.
  worker.process.send(message, socket, (e) => {
    if (e) socket.destroy()
  })
}

/** Connections the front handed over: only their requests are checked (peers and the front relay routed ones). */
const handed = new WeakSet<Socket>()

/** Whether a worker's connection came from the front (a client's), not from a peer or the front's relay. */
export const isHanded = (socket: Socket) => handed.has(socket)

/** In a worker: serves the connections the front hands over on the matching local HTTP server. */
export function adoptHandedConnections(servers: Record<Side, HttpServer>) {
  process.on('message', (m: ConnectionMessage | undefined, handle: unknown) => {
    if (m?.wsgym !== 'connection' || !handle) return
    const socket = handle as Socket
    const server = servers[m.side]
    handed.add(socket)
    // The bytes the front read go back in front of what is still in the kernel's buffer.
    if (m.bytes) socket.unshift(Buffer.from(m.bytes, 'base64'))
    server.emit('connection', socket)
    socket.resume()
  })
}

/** Content types whose body can name the world (a Slack token or OAuth code in a form, an id in JSON). */
const ROUTED_BODY = /^application\/(x-www-form-urlencoded|json)/i

/**
 * Wraps a worker's request listener: on a handed-over connection, a request whose routing key belongs to another
 * worker is relayed there, a cross-worker list to the front's merging proxy, and the rest served here. Requests on
 * the worker's own loopback listener come from the front's proxy or a peer, routed already: served here.
 */
export function routedListener(side: Side, listener: RequestListener, peers: () => PeersMessage | undefined) {
  return (req: IncomingMessage, res: Parameters<RequestListener>[1]) => {
    const p = peers()
    if (!p || !handed.has(req.socket)) return listener(req, res)
    const url = req.url ?? '/'
    if (side === 'control' && req.method === 'GET' && FAN_OUT_PATHS[url.split('?')[0]!]) {
      return relay(req, res, p.relay[side])
    }
    const ports = side === 'agent' ? p.agentPorts : p.controlPorts
    const key = routingKeyOf(url, req.headers)
    if (key !== undefined) {
      const owner = workerOf(key, ports.length)
      return owner === p.index ? listener(req, res) : relay(req, res, ports[owner]!)
    }
    const type = req.headers['content-type'] ?? ''
    if (!ROUTED_BODY.test(type)) return listener(req, res)
    const length = req.headers['content-length']
    if (req.headers['transfer-encoding'] !== undefined) return relay(req, res, p.relay[side]) // the front dechunks
    if (length === undefined || Number(length) === 0) return listener(req, res)
    if (!(Number(length) <= MAX_ROUTED_BODY)) return listener(req, res) // too big to route by: served here
    void readBody(req).then(
      (body) => {
        const named = routingKeyOf(url, req.headers, body)
        const owner = named === undefined ? p.index : workerOf(named, ports.length)
        if (owner === p.index) {
          // Read already: the body parsers take these bytes (server/middleware/node-body.ts, @hono/node-server).
          ;(req as IncomingMessage & { rawBody?: Buffer }).rawBody = body
          return listener(req, res)
        }
        return relay(req, res, ports[owner]!, body)
      },
      () => res.destroy(),
    )
  }
}

/** The whole body of a request or answer. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
    req.on('aborted', () => reject(new Error('request aborted')))
  })
}

const upstream = new Agent({ keepAlive: true, maxSockets: 256 })
/** Hop-by-hop fields, never relayed (each hop frames its own message). */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'])

/** Relays a request to a loopback port and its answer back; `body` when it was read already. */
function relay(req: IncomingMessage, res: Parameters<RequestListener>[1], port: number, body?: Buffer) {
  const headers: Record<string, string | string[]> = {}
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v
  if (body) headers['content-length'] = String(body.length)
  const out = request(
    { host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent: upstream },
    (up) => {
      const answer: string[] = []
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        if (!HOP.has(up.rawHeaders[i]!.toLowerCase())) answer.push(up.rawHeaders[i]!, up.rawHeaders[i + 1]!)
      }
      res.writeHead(up.statusCode ?? 502, answer)
      up.pipe(res)
    },
  )
  out.on('error', () => {
    if (res.headersSent) return void res.destroy()
    res.writeHead(502, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: 'the worker serving this world is unreachable' }))
  })
  if (body) out.end(body)
  else req.pipe(out)
}
