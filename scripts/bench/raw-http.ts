import { connect, type Socket } from 'node:net'

/**
 * A load generator's HTTP/1.1 client: one keep-alive socket, one request at a time, requests written as bytes and
 * answers framed by Content-Length or chunked encoding. It costs a fraction of node:http's client per request, so
 * on a machine whose cores the load generator shares with the servers it measures, the figures say more about the
 * servers.
 */
export type RawReply = { status: number; body: Buffer }

export class RawHttp {
  #socket: Socket | undefined
  #buffer: Buffer = Buffer.alloc(0)
  #waiting: { resolve: (r: RawReply) => void; reject: (e: Error) => void } | undefined

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly headers: Record<string, string>,
  ) {}

  call(method: string, path: string, body?: string): Promise<RawReply> {
    const socket = (this.#socket ??= this.#open())
    const payload = body === undefined ? '' : body
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`
    for (const [k, v] of Object.entries(this.headers)) head += `${k}: ${v}\r\n`
    if (body !== undefined || method === 'POST') head += `content-length: ${Buffer.byteLength(payload)}\r\n`
    return new Promise<RawReply>((resolve, reject) => {
      this.#waiting = { resolve, reject }
      socket.write(`${head}\r\n${payload}`)
    })
  }

  close() {
    this.#socket?.destroy()
    this.#socket = undefined
  }

  #open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true })
    socket.on('data', (d: Buffer) => {
      this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, d]) : d
      this.#pump()
    })
    const fail = (e: Error) => {
      this.#socket = undefined
      const w = this.#waiting
      this.#waiting = undefined
      w?.reject(e)
    }
    socket.on('error', fail)
    socket.on('close', () => fail(new Error('connection closed')))
    return socket
  }

  #pump() {
    const reply = takeReply(this.#buffer)
    if (!reply) return
    this.#buffer = this.#buffer.subarray(reply.used)
    const w = this.#waiting
    this.#waiting = undefined
    w?.resolve({ status: reply.status, body: reply.body })
  }
}

/** One whole answer at the start of `buf` and the bytes it takes, or undefined while it is incomplete. */
export function takeReply(buf: Buffer): { status: number; body: Buffer; used: number } | undefined {
  const end = buf.indexOf('\r\n\r\n')
  if (end === -1) return undefined
  const head = buf.toString('latin1', 0, end)
  const status = Number(head.slice(9, 12))
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  if (length) {
    const size = Number(length[1])
    if (buf.length < end + 4 + size) return undefined
    return { status, body: buf.subarray(end + 4, end + 4 + size), used: end + 4 + size }
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { status, body: Buffer.alloc(0), used: end + 4 }
  const parts: Buffer[] = []
  let at = end + 4
  for (;;) {
    const line = buf.indexOf('\r\n', at)
    if (line === -1) return undefined
    const size = Number.parseInt(buf.toString('latin1', at, line), 16)
    if (buf.length < line + 2 + size + 2) return undefined
    if (size === 0) return { status, body: Buffer.concat(parts), used: line + 4 }
    parts.push(buf.subarray(line + 2, line + 2 + size))
    at = line + 2 + size + 2
  }
}
