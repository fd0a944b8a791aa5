import type { Server as HttpServer, IncomingMessage, ServerOptions } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Bounds on the agent listener's connections, as a front end in front of a real API keeps them
 * (docs/decisions/0407): a request head must arrive within `headersTimeoutMs`, a body must keep coming (no pause
 * longer than `bodyTimeoutMs`, and on average at least `minBodyBytesPerSecond` after that first allowance), an idle
 * keep-alive connection is closed after `keepAliveTimeoutMs`, and a client address holds at most
 * `maxConnectionsPerClient` connections, the listener at most `maxConnections`.
 */
export type ConnectionLimits = {
  headersTimeoutMs: number
  keepAliveTimeoutMs: number
  bodyTimeoutMs: number
  minBodyBytesPerSecond: number
  maxConnectionsPerClient: number
  maxConnections: number
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 20_000,
  // Node's default: a keep-alive client pool (googleapis, @slack/web-api) reopens after it.
  keepAliveTimeoutMs: 5_000,
  bodyTimeoutMs: 30_000,
  minBodyBytesPerSecond: 16 * 1024,
  maxConnectionsPerClient: 512,
  maxConnections: 4096,
}

/** A connection past a cap may send its first request within this long to read the 503; then it is closed. */
const REFUSED_GRACE_MS = 1_000

/** Node's options for the listener: its own head and keep-alive timers, checked often enough for short settings. */
export function connectionServerOptions(limits: ConnectionLimits): ServerOptions {
  const shortest = Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs)
  return {
    headersTimeout: limits.headersTimeoutMs,
    // The whole-request timer (Node's default 300 s) would cut a long upload at any speed: the body's pace is
    // bounded by `bodyTimeoutMs` and `minBodyBytesPerSecond` instead.
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(shortest / 4))),
  }
}

/** Google's error envelope as raw HTTP bytes with `Connection: close`. */
function closingAnswer(status: 503 | 408, reason: string, message: string): Buffer {
  const state = status === 503 ? 'UNAVAILABLE' : 'DEADLINE_EXCEEDED'
  const body = JSON.stringify({
    error: { code: status, message, errors: [{ message, domain: 'global', reason }], status: state },
  })
  const line = status === 503 ? '503 Service Unavailable' : '408 Request Timeout'
  const retry = status === 503 ? 'Retry-After: 1\r\n' : ''
  const head =
    `HTTP/1.1 ${line}\r\nContent-Type: application/json; charset=UTF-8\r\n${retry}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`
  return Buffer.from(head + body, 'utf8')
}

/** `::ffff:10.0.0.1` and `10.0.0.1` are one client. */
const clientOf = (socket: Socket) => {
  const a = socket.remoteAddress ?? ''
  return a.startsWith('::ffff:') ? a.slice(7) : a
}

/** What the body watch knows of the request being read on one connection. */
type BodyWatch = { incoming: IncomingMessage; start: number; startBytes: number; lastBytes: number; lastAt: number }

type Internals = { parser?: { incoming?: IncomingMessage | null } | null; _httpMessage?: { headersSent?: boolean } }

/**
 * Caps on open connections per client address and in all: the answer admits a connection, counted until it
 * closes or its release is called (returned), or refuses it (a 503 in Google's error envelope on its first
 * request, then closed) and returns undefined. Used by the agent listener, and by the front of `--workers N` for
 * the connections it holds before their hand-off (a socket sent to a worker never emits 'close' in the front).
 */
export function connectionCaps(limits: ConnectionLimits): (socket: Socket) => (() => void) | undefined {
  const perClient = new Map<string, number>()
  let open = 0
  let refusing = 0
  const refuse = (socket: Socket, message: string) => {
    // A flood of refused connections is not answered: each would hold a descriptor for the grace period.
    if (refusing >= limits.maxConnections) return void socket.destroy()
    refusing++
    socket.once('close', () => refusing--)
    socket.on('error', () => socket.destroy())
    socket.setTimeout(REFUSED_GRACE_MS, () => socket.destroy())
    // Answered once the client has sent its request, so the client reads the answer instead of a reset.
    socket.once('data', () => socket.end(closingAnswer(503, 'backendConnectionLimit', message)))
    socket.on('data', () => {})
    // A socket accepted paused (the front's `pauseOnConnect`) must read to see the request.
    socket.resume()
  }
  return (socket) => {
    const client = clientOf(socket)
    const held = perClient.get(client) ?? 0
    if (held >= limits.maxConnectionsPerClient || open >= limits.maxConnections) {
      const why =
        held >= limits.maxConnectionsPerClient
          ? `This client (${client}) already holds ${held} open connections (the limit).`
          : `The server already holds ${open} open connections (the limit).`
      refuse(socket, `${why} Close idle connections or retry later.`)
      return undefined
    }
    perClient.set(client, held + 1)
    open++
    let counted = true
    const release = () => {
      if (!counted) return
      counted = false
      open--
      const left = (perClient.get(client) ?? 1) - 1
      if (left > 0) perClient.set(client, left)
      else perClient.delete(client)
    }
    socket.once('close', release)
    return release
  }
}

/**
 * Puts `limits` on an HTTP server: caps connections per client address and in all (`connectionCaps`), and watches
 * request bodies. `counted(socket)` says whether a connection counts against the caps (a worker of `--workers N`
 * counts the connections the front hands it, not its peers' relays). Node's own timers cover heads and idle
 * keep-alive (`connectionServerOptions`). Nothing here runs per request: admission runs once per connection, and
 * one timer looks at the open connections a few times a second (a per-request listener on the body would put the
 * stream in flowing mode, and cost every request).
 */
export function boundConnections(
  server: HttpServer,
  limits: ConnectionLimits,
  counted: (socket: Socket) => boolean = () => true,
): void {
  const admit = connectionCaps(limits)
  const sockets = new Map<Socket, BodyWatch | undefined>()
  // Node's HTTP handling is a 'connection' listener: it runs only for the connections admitted here.
  const http = server.listeners('connection') as ((socket: Socket) => void)[]
  server.removeAllListeners('connection')
  server.on('connection', (socket: Socket) => {
    if (counted(socket) && !admit(socket)) return
    sockets.set(socket, undefined)
    socket.once('close', () => sockets.delete(socket))
    for (const l of http) l.call(server, socket)
  })

  // The body watch: a request whose body is still arriving is cut with a 408 when it pauses longer than
  // `bodyTimeoutMs`, or falls behind `bodyTimeoutMs` plus one second per `minBodyBytesPerSecond` bytes received.
  const every = Math.max(100, Math.min(1_000, Math.floor(limits.bodyTimeoutMs / 4)))
  const sweep = setInterval(() => {
    const now = performance.now()
    for (const [socket, seen] of sockets) {
      const incoming = (socket as Socket & Internals).parser?.incoming
      if (!incoming || incoming.complete || socket.destroyed) {
        if (seen) sockets.set(socket, undefined)
        continue
      }
      const bytes = socket.bytesRead
      if (seen?.incoming !== incoming) {
        sockets.set(socket, { incoming, start: now, startBytes: bytes, lastBytes: bytes, lastAt: now })
        continue
      }
      // Bytes not yet taken by the app mean the server is behind, not the client.
      if (bytes > seen.lastBytes || incoming.readableLength > 0 || socket.readableLength > 0) {
        seen.lastBytes = bytes
        seen.lastAt = now
      }
      const allowance = limits.bodyTimeoutMs + ((bytes - seen.startBytes) * 1000) / limits.minBodyBytesPerSecond
      if (now - seen.lastAt <= limits.bodyTimeoutMs && now - seen.start <= allowance) continue
      sockets.delete(socket)
      cutSlowBody(socket)
    }
  }, every)
  sweep.unref()
  server.once('close', () => clearInterval(sweep))
}

function cutSlowBody(socket: Socket) {
  if ((socket as Socket & Internals)._httpMessage?.headersSent || !socket.writable) return void socket.destroy()
  const message = 'The request body arrived too slowly; the connection was closed.'
  socket.end(closingAnswer(408, 'requestTimeout', message), () => socket.destroy())
  // A client that never reads the answer is not waited for.
  socket.setTimeout(REFUSED_GRACE_MS, () => socket.destroy())
}
