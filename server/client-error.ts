import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** A request Node's parser refused: llhttp's code, the chunk it was reading and how far into it the error came. */
type ParseError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number }

/** What Node answers such a request when no 'clientError' listener is set (lib/_http_server.js socketOnError). */
const NODE_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
}

const PAGE =
  '<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 414 (Request-URI Too Large)!!1</title>\n' +
  '  <p><b>414.</b> <ins>That’s an error.</ins>\n  <p>The requested URL is too large to process.' +
  '  <ins>That’s all we know.</ins>\n'
const URI_TOO_LONG = Buffer.from(
  'HTTP/1.1 414 Request-URI Too Large\r\nContent-Type: text/html; charset=UTF-8\r\n' +
    `Content-Length: ${Buffer.byteLength(PAGE)}\r\nConnection: close\r\n\r\n${PAGE}`,
)

/**
 * Whether the header section overflowed inside its request line: the chunk starts a request (`METHOD /…`) and no
 * line ended before the point llhttp stopped. Deviation: a request line split across chunks before the overflow
 * (a slow or fragmented client) is not recognised and gets Node's 431, like an oversized header.
 */
export function requestLineOverflowed(err: ParseError): boolean {
  const raw = err.rawPacket
  if (err.code !== 'HPE_HEADER_OVERFLOW' || !raw || typeof err.bytesParsed !== 'number') return false
  const upTo = Math.min(err.bytesParsed, raw.length)
  return /^[A-Z]+ [^ \r\n]/.test(raw.toString('latin1', 0, Math.min(upTo, 64))) && !raw.subarray(0, upTo).includes(10)
}

/**
 * The server's 'clientError' listener: a request line over Node's header limit (16 KiB, unchanged) gets Google's
 * 414 page (its front end answers an over-long URL with an HTML 414, where Node answers an empty 431); every other
 * parse error gets exactly what Node sends without a listener.
 */
export function answerClientError(err: ParseError, socket: Duplex): void {
  const message = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !message?.headersSent) {
    const status = NODE_STATUS[err.code ?? ''] ?? 400
    socket.write(
      requestLineOverflowed(err)
        ? URI_TOO_LONG
        : Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`, 'latin1'),
    )
  }
  socket.destroy(err)
}
