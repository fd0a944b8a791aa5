/**
 * HTTP/1.1 message framing for the workers' front (server/front-proxy.ts): where a request or response head ends,
 * what it says about its body, and where a chunked body ends. It reads only what routing and relaying need and
 * refuses anything ambiguous (a request with both Content-Length and Transfer-Encoding, differing lengths, bare LF
 * line ends), so the front and the worker behind it can never disagree about where one request stops and the next
 * starts (request smuggling).
 */

export const MAX_HEAD_BYTES = 64 * 1024

export class FramingError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message)
  }
}

export type Head = {
  /** Request: method and target; response: the status code. */
  method: string
  target: string
  status: number
  version: string
  /** Lower-cased names; repeated fields joined with ', ' (Set-Cookie is not read here). */
  headers: Record<string, string>
  /** Bytes of the head, the blank line included. */
  length: number
}

/** How the body after a head is delimited. */
export type BodyFraming =
  { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' }

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/(1\.[01])$/
const STATUS_LINE = /^HTTP\/(1\.[01]) (\d{3})(?: .*)?$/
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/

/**
 * Parses the head at the start of `buf`: undefined while its blank line has not arrived, a FramingError when it is
 * malformed or longer than MAX_HEAD_BYTES.
 */
export function parseHead(buf: Buffer, kind: 'request' | 'response'): Head | undefined {
  const end = buf.indexOf('\r\n\r\n')
  if (end === -1) {
    if (buf.length > MAX_HEAD_BYTES) throw new FramingError('request head too large', 431)
    return undefined
  }
  if (end > MAX_HEAD_BYTES) throw new FramingError('request head too large', 431)
  const text = buf.toString('latin1', 0, end)
  if (/[^\r]\n|^\n/.test(text)) throw new FramingError('line ends must be CRLF')
  const lines = text.split('\r\n')
  const head: Head = { method: '', target: '', status: 0, version: '1.1', headers: {}, length: end + 4 }
  if (kind === 'request') {
    const m = REQUEST_LINE.exec(lines[0]!)
    if (!m) throw new FramingError('malformed request line')
    head.method = m[1]!
    head.target = m[2]!
    head.version = m[3]!
  } else {
    const m = STATUS_LINE.exec(lines[0]!)
    if (!m) throw new FramingError('malformed status line', 502)
    head.version = m[1]!
    head.status = Number(m[2])
  }
  for (let i = 1; i < lines.length; i++) {
    const m = FIELD.exec(lines[i]!)
    if (!m) throw new FramingError('malformed header field')
    const name = m[1]!.toLowerCase()
    head.headers[name] = name in head.headers ? `${head.headers[name]}, ${m[2]}` : m[2]!
  }
  return head
}

/** The framing of a request's body (RFC 9112 §6.3), refusing what two parsers could read differently. */
export function requestFraming(head: Head): BodyFraming {
  const te = head.headers['transfer-encoding']
  const cl = head.headers['content-length']
  if (te !== undefined && cl !== undefined) throw new FramingError('both Content-Length and Transfer-Encoding')
  if (te !== undefined) {
    if (te.toLowerCase() !== 'chunked') throw new FramingError('unsupported Transfer-Encoding', 501)
    return { kind: 'chunked' }
  }
  if (cl === undefined) return { kind: 'none' }
  const length = contentLength(cl)
  return length ? { kind: 'length', length } : { kind: 'none' }
}

/** The framing of a response's body, given the request's method. */
export function responseFraming(head: Head, method: string): BodyFraming {
  if (method === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304) return { kind: 'none' }
  const te = head.headers['transfer-encoding']
  if (te !== undefined) return /(^|,)\s*chunked\s*$/i.test(te) ? { kind: 'chunked' } : { kind: 'close' }
  const cl = head.headers['content-length']
  if (cl === undefined) return { kind: 'close' }
  const length = contentLength(cl)
  return length ? { kind: 'length', length } : { kind: 'none' }
}

function contentLength(value: string): number {
  const values = new Set(value.split(',').map((v) => v.trim()))
  const [only] = values
  if (values.size !== 1 || !/^\d{1,15}$/.test(only!)) throw new FramingError('malformed Content-Length')
  return Number(only)
}

/** Whether the connection ends after this message (`Connection: close`, or HTTP/1.0 without keep-alive). */
export function closesConnection(head: Head): boolean {
  const tokens = (head.headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((t) => t.trim())
  return tokens.includes('close') || (head.version === '1.0' && !tokens.includes('keep-alive'))
}

/**
 * Finds the end of a chunked body fed to it in pieces: `scan` consumes bytes from `start` and returns the offset
 * just past the body (the last chunk and trailers included), or -1 when it needs more.
 */
export class ChunkScanner {
  private state: 'size' | 'data' | 'crlf' | 'trailer' = 'size'
  private line = ''
  private left = 0

  scan(buf: Buffer, start = 0): number {
    let i = start
    while (i < buf.length) {
      if (this.state === 'data') {
        const take = Math.min(this.left, buf.length - i)
        i += take
        this.left -= take
        if (this.left === 0) this.state = 'crlf'
        continue
      }
      const nl = buf.indexOf(10, i)
      const stop = nl === -1 ? buf.length : nl + 1
      this.line += buf.toString('latin1', i, stop)
      if (this.line.length > 4096) throw new FramingError('chunk line too long')
      i = stop
      if (nl === -1) return -1
      if (!this.line.endsWith('\r\n')) throw new FramingError('line ends must be CRLF')
      const text = this.line.slice(0, -2)
      this.line = ''
      if (this.state === 'crlf') {
        if (text !== '') throw new FramingError('chunk data longer than its size')
        this.state = 'size'
      } else if (this.state === 'size') {
        const m = /^([0-9a-fA-F]{1,8})(;[^\r\n]*)?$/.exec(text)
        if (!m) throw new FramingError('malformed chunk size')
        this.left = parseInt(m[1]!, 16)
        this.state = this.left === 0 ? 'trailer' : 'data'
      } else if (text === '') {
        return i
      }
    }
    return -1
  }
}

/** The payload of a complete chunked body (for routing on a body the front had to read). */
export function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let i = 0
  for (;;) {
    const nl = body.indexOf('\r\n', i)
    if (nl === -1) break
    const size = parseInt(body.toString('latin1', i, nl).split(';')[0]!, 16)
    if (!size) break
    parts.push(body.subarray(nl + 2, nl + 2 + size))
    i = nl + 2 + size + 2
  }
  return Buffer.concat(parts)
}
