import { STATUS_CODES } from 'node:http'
import { createServer, connect, type Server, type Socket } from 'node:net'
import {
  ChunkScanner,
  closesConnection,
  dechunk,
  FramingError,
  parseHead,
  requestFraming,
  responseFraming,
  type BodyFraming,
  type Head,
} from './http-framing.ts'

/**
 * The byte-level front of `wsgym serve --workers N`. It reads each request's head (and its body only when routing
 * needs it), picks a worker, and relays the request's bytes unchanged to a keep-alive connection to that worker and
 * the response's bytes unchanged back. No HTTP server or client objects are built per request, so the front costs a
 * small fraction of what the worker spends on the request. One request is in flight per client connection at a
 * time (responses can never be reordered); requests a client pipelines wait in order. A `101 Switching Protocols`
 * answer turns the connection into a byte tunnel to that worker (OpenEnv's WebSocket).
 */

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** Where a request goes: a worker's port, `'body'` (read the body, then ask again), or an answer made here. */
export type Decision = number | 'body' | { answer: () => Promise<Answer> }

export type FrontProxyOptions = {
  /** Routes a request; `body` is given (decoded from chunks) only after a `'body'` decision. */
  route(head: Head, body?: Buffer): Decision
  /** Requests wait until this settles (the workers are up). */
  ready?: Promise<unknown>
}

/** Bodies read for routing are capped; a larger one is routed without them. */
export const MAX_ROUTED_BODY = 1024 * 1024
/** Client bytes buffered beyond the request in flight before reading from the client pauses. */
const MAX_PENDING = 1024 * 1024
/** A request this small is kept until its answer starts, so a stale keep-alive connection can be retried once. */
const MAX_RETRY_BYTES = 256 * 1024
/** A connection with no request in flight that sends nothing (or half a head) for this long is closed. */
export const IDLE_CLIENT_MS = 65_000

export function createFrontProxy(opts: FrontProxyOptions): Server {
  let ready = opts.ready === undefined
  void opts.ready?.then(() => (ready = true))
  return createServer({ noDelay: true }, (socket) => {
    const connection = new ClientConnection(socket, opts, ready)
    if (!ready)
      void opts.ready!.then(
        () => connection.start(),
        () => connection.start(),
      )
  })
}

/** Raw bytes of a response the front writes itself (errors, merged lists). */
export function answerBytes(a: Answer, close = false): Buffer {
  const lines = [`HTTP/1.1 ${a.status} ${STATUS_CODES[a.status] ?? ''}`]
  for (const [k, v] of Object.entries(a.headers)) {
    const name = k.toLowerCase()
    if (v === undefined || ['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) continue
    for (const one of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${one}`)
  }
  lines.push(`content-length: ${a.body.length}`)
  if (close) lines.push('connection: close')
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), a.body])
}

const jsonError = (status: number, message: string): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ error: message })),
})

/** One keep-alive connection from this client connection to one worker. */
type Upstream = { port: number; socket: Socket; closed: boolean }

/** The request in flight and the state of its answer. */
type Exchange = {
  head: Head
  upstream?: Upstream
  /** Request bytes still to relay (body framing), and whether the whole request has been sent. */
  body: BodyFraming
  left: number
  chunks?: ChunkScanner
  sent: boolean
  /** Copy of the request's bytes while it may be re-sent on a fresh upstream connection (undefined: too big). */
  replay?: Buffer[]
  retried: boolean
  /** The answer: bytes of its head read so far, its framing once the head is in, bytes of body still due. */
  answered: boolean
  responseHead?: Buffer
  response?: BodyFraming
  responseLeft: number
  responseChunks?: ChunkScanner
  responseCloses: boolean
  done: boolean
}

class ClientConnection {
  private pending: Buffer = Buffer.alloc(0)
  private current: Exchange | undefined
  private upstreams = new Map<number, Upstream>()
  /** Upstream connections that already carried an exchange (a request on one may meet its idle close). */
  private reused = new WeakSet<Upstream>()
  private continued = false
  private tunnelled = false
  private ended = false

  constructor(
    private readonly client: Socket,
    private readonly opts: FrontProxyOptions,
    private started: boolean,
  ) {
    client.on('data', (d: Buffer) => this.onClientData(d))
    client.on('error', () => this.destroy())
    client.on('close', () => this.destroy())
    client.on('drain', () => {
      for (const u of this.upstreams.values()) u.socket.resume()
    })
    // Like Node's headersTimeout: a client cannot hold a connection open by never finishing a head.
    client.setTimeout(IDLE_CLIENT_MS, () => {
      if (!this.current && !this.tunnelled) this.destroy()
    })
  }

  private onClientData(d: Buffer) {
    const ex = this.current
    if (ex && !ex.sent && ex.upstream && !this.pending.length) {
      // The body of the request in flight: relay what belongs to it, keep the rest (a pipelined request).
      const used = this.relayBody(ex, d, 0)
      if (used < d.length) this.pending = d.subarray(used)
    } else {
      this.pending = this.pending.length ? Buffer.concat([this.pending, d]) : d
    }
    if (this.current && this.pending.length > MAX_PENDING) this.client.pause()
    this.pump()
  }

  /** Lets requests through once the upstreams are ready. */
  start() {
    this.started = true
    this.pump()
  }

  /** Starts the next request when none is in flight. */
  private pump() {
    while (this.started && !this.current && !this.ended && this.pending.length) {
      let head: Head | undefined
      let body: BodyFraming
      try {
        head = parseHead(this.pending, 'request')
        if (!head) return
        body = requestFraming(head)
      } catch (e) {
        return this.fail(e instanceof FramingError ? e.status : 400, (e as Error).message)
      }
      const ex: Exchange = {
        head,
        body,
        left: body.kind === 'length' ? body.length : 0,
        chunks: body.kind === 'chunked' ? new ChunkScanner() : undefined,
        sent: false,
        retried: false,
        answered: false,
        responseLeft: 0,
        responseCloses: false,
        done: false,
      }
      let decision: Decision
      try {
        decision = this.opts.route(head)
        if (decision === 'body') {
          const whole = this.wholeBody(ex)
          if (whole === -1) return this.expectContinue(head) // wait for more of the body
          if (whole === -2) decision = this.opts.route(head, Buffer.alloc(0))
          else {
            const raw = this.pending.subarray(head.length, whole)
            decision = this.opts.route(head, body.kind === 'chunked' ? dechunk(raw) : raw)
            if (decision === 'body') decision = this.opts.route(head, Buffer.alloc(0))
          }
        }
      } catch (e) {
        return this.fail(502, `cannot route: ${(e as Error).message}`)
      }
      this.current = ex
      this.continued = false
      if (typeof decision === 'object') {
        this.skipBody(ex)
        void this.answerHere(ex, decision.answer)
        return
      }
      this.send(ex, decision as number)
    }
  }

  /** A client that waits for `100 Continue` before its body gets it here when the front must read that body. */
  private expectContinue(head: Head) {
    if (this.continued || (head.headers.expect ?? '').toLowerCase() !== '100-continue') return
    this.continued = true
    this.client.write('HTTP/1.1 100 Continue\r\n\r\n')
  }

  /** End offset of the whole request in `pending` (-1: not all here yet, -2: too big to read for routing). */
  private wholeBody(ex: Exchange): number {
    const start = ex.head.length
    if (ex.body.kind === 'none') return start
    if (ex.body.kind === 'length') {
      if (ex.body.length > MAX_ROUTED_BODY) return -2
      return this.pending.length >= start + ex.body.length ? start + ex.body.length : -1
    }
    if (this.pending.length - start > MAX_ROUTED_BODY) return -2
    let end: number
    try {
      end = new ChunkScanner().scan(this.pending, start)
    } catch {
      return -2 // the worker answers the malformed body
    }
    return end
  }

  /** Relays the request to the worker on `port`: its head and whatever of its body has arrived. */
  private send(ex: Exchange, port: number) {
    const upstream = this.upstream(port)
    ex.upstream = upstream
    const head = this.pending.subarray(0, ex.head.length)
    const rest = this.pending.subarray(ex.head.length)
    this.pending = Buffer.alloc(0)
    ex.replay = [head] // socket reads are fresh buffers, never reused: no copy needed
    this.write(upstream, head)
    if (ex.body.kind === 'none') ex.sent = true
    const used = ex.sent ? 0 : this.relayBody(ex, rest, 0)
    this.pending = rest.subarray(used)
  }

  /** Relays body bytes of the request in flight from `buf[start..]`; returns the offset past what belonged to it. */
  private relayBody(ex: Exchange, buf: Buffer, start: number): number {
    let end: number
    if (ex.body.kind === 'length') {
      end = Math.min(buf.length, start + ex.left)
      ex.left -= end - start
      if (ex.left === 0) ex.sent = true
    } else {
      let at: number
      try {
        at = ex.chunks!.scan(buf, start)
      } catch (e) {
        this.fail((e as FramingError).status ?? 400, (e as Error).message)
        return buf.length
      }
      end = at === -1 ? buf.length : at
      if (at !== -1) ex.sent = true
    }
    const piece = buf.subarray(start, end)
    if (piece.length) {
      if (ex.replay) {
        ex.replay.push(piece)
        if (ex.replay.reduce((n, b) => n + b.length, 0) > MAX_RETRY_BYTES) ex.replay = undefined
      }
      this.write(ex.upstream!, piece)
    }
    if (ex.sent && ex.done) this.finish(ex)
    return end
  }

  /** Drops the body of a request answered here (it is read from `pending` as it arrives). */
  private skipBody(ex: Exchange) {
    const rest = this.pending.subarray(ex.head.length)
    this.pending = Buffer.alloc(0)
    let end = 0
    if (ex.body.kind === 'length') {
      end = Math.min(rest.length, ex.left)
      ex.left -= end
      ex.sent = ex.left === 0
    } else if (ex.body.kind === 'chunked') {
      const at = ex.chunks!.scan(rest, 0)
      end = at === -1 ? rest.length : at
      ex.sent = at !== -1
    } else ex.sent = true
    this.pending = rest.subarray(end)
    // Bodies answered here are GET lists: none in practice. A body still arriving is read with the next data.
    if (!ex.sent) this.fail(400, 'a body on a merged list request')
  }

  private async answerHere(ex: Exchange, make: () => Promise<Answer>) {
    let a: Answer
    try {
      a = await make()
    } catch (e) {
      a = jsonError(502, `worker unreachable: ${(e as Error).message}`)
    }
    if (this.ended) return
    const close = closesConnection(ex.head)
    this.client.write(answerBytes(a, close))
    ex.done = true
    ex.responseCloses = close
    this.finish(ex)
  }

  private upstream(port: number): Upstream {
    const known = this.upstreams.get(port)
    if (known && !known.closed) return known
    const socket = connect({ port, host: '127.0.0.1', noDelay: true })
    const u: Upstream = { port, socket, closed: false }
    socket.on('data', (d: Buffer) => this.onUpstreamData(u, d))
    socket.on('drain', () => this.client.resume())
    socket.on('error', () => this.onUpstreamGone(u))
    socket.on('close', () => this.onUpstreamGone(u))
    this.upstreams.set(port, u)
    return u
  }

  private write(u: Upstream, bytes: Buffer) {
    if (!u.socket.write(bytes)) this.client.pause()
  }

  private onUpstreamData(u: Upstream, d: Buffer) {
    const ex = this.current
    if (this.tunnelled) return void this.client.write(d)
    if (!ex || ex.upstream !== u || ex.done) return // nothing is expected: an idle worker never talks first
    ex.answered = true
    ex.replay = undefined
    let i = 0
    while (i < d.length && !ex.done) {
      if (!ex.response) {
        ex.responseHead = ex.responseHead ? Buffer.concat([ex.responseHead, d.subarray(i)]) : d.subarray(i)
        let head: Head | undefined
        try {
          head = parseHead(ex.responseHead, 'response')
        } catch {
          return this.fail(502, 'a worker answered malformed HTTP')
        }
        if (!head) return
        const headBytes = ex.responseHead.subarray(0, head.length)
        i = d.length - (ex.responseHead.length - head.length)
        ex.responseHead = undefined
        this.client.write(headBytes)
        if (head.status === 101) return this.tunnel(u, d.subarray(i))
        if (head.status < 200) continue // 100 Continue and friends: the final answer follows
        ex.response = responseFraming(head, ex.head.method)
        ex.responseCloses = closesConnection(head) || closesConnection(ex.head) || ex.response.kind === 'close'
        if (ex.response.kind === 'length') ex.responseLeft = ex.response.length
        if (ex.response.kind === 'chunked') ex.responseChunks = new ChunkScanner()
        if (ex.response.kind === 'none') ex.done = true
        continue
      }
      let end: number
      if (ex.response.kind === 'length') {
        end = Math.min(d.length, i + ex.responseLeft)
        ex.responseLeft -= end - i
        if (ex.responseLeft === 0) ex.done = true
      } else if (ex.response.kind === 'chunked') {
        let at: number
        try {
          at = ex.responseChunks!.scan(d, i)
        } catch {
          return this.fail(502, 'a worker answered malformed HTTP')
        }
        end = at === -1 ? d.length : at
        if (at !== -1) ex.done = true
      } else end = d.length
      if (!this.client.write(d.subarray(i, end))) u.socket.pause()
      i = end
    }
    if (ex.done) this.finish(ex)
  }

  private onUpstreamGone(u: Upstream) {
    if (u.closed) return
    u.closed = true
    if (this.upstreams.get(u.port) === u) this.upstreams.delete(u.port)
    if (this.tunnelled) return this.destroy()
    const ex = this.current
    if (!ex || ex.upstream !== u || ex.done) return
    if (ex.response?.kind === 'close') {
      ex.done = true
      return this.finish(ex)
    }
    // A kept-alive connection the worker closed just as this request went out: send it once more on a fresh one.
    if (!ex.answered && ex.replay && !ex.retried && this.reused.has(u)) {
      ex.retried = true
      const fresh = this.upstream(u.port)
      ex.upstream = fresh
      for (const b of ex.replay) this.write(fresh, b)
      return
    }
    if (ex.answered) return this.destroy()
    this.fail(502, 'worker unreachable: its connection closed')
  }

  /** Both the request and its answer are through: the next request may go. */
  private finish(ex: Exchange) {
    if (!ex.done || !ex.sent || this.current !== ex) return
    this.current = undefined
    if (ex.upstream) this.reused.add(ex.upstream)
    this.client.resume()
    if (ex.responseCloses) {
      this.ended = true
      this.client.end()
      for (const u of this.upstreams.values()) u.socket.end()
      return
    }
    this.pump()
  }

  /** After a 101: the client and this worker talk directly for the rest of the connection. */
  private tunnel(u: Upstream, rest: Buffer) {
    this.tunnelled = true
    this.current = undefined
    if (rest.length) this.client.write(rest)
    for (const other of this.upstreams.values()) if (other !== u) other.socket.destroy()
    if (this.pending.length) u.socket.write(this.pending)
    this.pending = Buffer.alloc(0)
    this.client.removeAllListeners('data')
    this.client.on('data', (d: Buffer) => {
      if (!u.socket.write(d)) this.client.pause()
    })
    this.client.resume()
  }

  /** Answers an error and closes the connection (what follows a bad request cannot be framed). */
  private fail(status: number, message: string) {
    if (this.ended) return
    const ex = this.current
    this.ended = true
    if (!ex?.answered) this.client.end(answerBytes(jsonError(status, message), true))
    else this.client.destroy()
    for (const u of this.upstreams.values()) u.socket.destroy()
  }

  private destroy() {
    if (!this.client.destroyed) this.client.destroy()
    this.ended = true
    for (const u of this.upstreams.values()) u.socket.destroy()
    this.upstreams.clear()
  }
}
