import { decodeWords } from 'postal-mime'

/** One node of a parsed MIME tree: headers in source order, decoded leaf bytes, child parts. */
export type MimePart = {
  headers: { name: string; value: string }[]
  mimeType: string
  filename: string
  isAttachment: boolean
  charset: string
  /** Decoded content of a leaf part (null for multipart containers). */
  body: Buffer | null
  parts: MimePart[]
}

/** Splits header block and body at the first empty line. */
function splitHead(raw: Buffer): [string, Buffer] {
  const text = raw.toString('latin1')
  const m = /\r?\n\r?\n/.exec(text)
  if (!m) return [text, Buffer.alloc(0)]
  return [text.slice(0, m.index), raw.subarray(m.index + m[0].length)]
}

/** Unfolds and decodes headers (RFC 5322 folding, RFC 2047 encoded words, UTF-8 raw bytes). */
function parseHeaders(block: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = []
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && out.length > 0) {
      out[out.length - 1]!.value += ` ${line.trim()}`
      continue
    }
    const i = line.indexOf(':')
    if (i <= 0) continue
    out.push({ name: line.slice(0, i).trim(), value: line.slice(i + 1).trim() })
  }
  return out.map((h) => ({ name: h.name, value: decodeHeaderValue(h.value) }))
}

function decodeHeaderValue(latin1: string): string {
  // Raw 8-bit header bytes are UTF-8 in practice; encoded words are decoded by postal-mime.
  const utf8 = Buffer.from(latin1, 'latin1').toString('utf8')
  try {
    return decodeWords(utf8)
  } catch {
    return utf8
  }
}

/** `type/subtype; a=b; c="d"` → type and lower-cased parameter map (RFC 2231 `name*=` supported). */
export function parseParams(value: string): { value: string; params: Record<string, string> } {
  const [head = '', ...rest] = value.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)
  const params: Record<string, string> = {}
  for (const piece of rest) {
    const eq = piece.indexOf('=')
    if (eq < 0) continue
    let key = piece.slice(0, eq).trim().toLowerCase()
    let val = piece.slice(eq + 1).trim().replace(/^"(.*)"$/s, '$1')
    if (key.endsWith('*')) {
      key = key.slice(0, -1)
      const m = /^([^']*)'[^']*'(.*)$/.exec(val)
      try {
        val = decodeURIComponent(m ? m[2]! : val)
      } catch {
        // keep as is
      }
    }
    params[key] = val
  }
  return { value: head.trim().toLowerCase(), params }
}

const header = (headers: MimePart['headers'], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value

function decodeTransfer(body: Buffer, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
    case 'quoted-printable': {
      const text = body.toString('latin1').replace(/=\r?\n/g, '')
      const bytes: number[] = []
      for (let i = 0; i < text.length; i++) {
        const hex = text.slice(i + 1, i + 3)
        if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
          bytes.push(parseInt(hex, 16))
          i += 2
        } else bytes.push(text.charCodeAt(i) & 0xff)
      }
      return Buffer.from(bytes)
    }
    default:
      return body
  }
}

/** The top-level headers of RFC 822 bytes, as `parseMime(raw).headers` gives them, without reading the body. */
export function parseTopHeaders(raw: Buffer): MimePart['headers'] {
  return parseHeaders(raw.toString('latin1', 0, headEnd(raw)))
}

/** Where splitHead's header block ends: before the first `\r?\n\r?\n`, else the whole message. */
export function headEnd(raw: Buffer): number {
  for (let i = raw.indexOf(10); i >= 0; i = raw.indexOf(10, i + 1)) {
    const blank = raw[i + 1] === 10 || (raw[i + 1] === 13 && raw[i + 2] === 10)
    if (blank) return i > 0 && raw[i - 1] === 13 ? i - 1 : i
  }
  return raw.length
}

/** Parses RFC 822 / MIME bytes into a part tree (depth-limited against hostile nesting). */
export function parseMime(raw: Buffer, depth = 0): MimePart {
  const [head, body] = splitHead(raw)
  const headers = parseHeaders(head)
  const ct = parseParams(header(headers, 'content-type') ?? 'text/plain; charset=us-ascii')
  const disposition = parseParams(header(headers, 'content-disposition') ?? '')
  const filename = disposition.params.filename ?? ct.params.name ?? ''
  const mimeType = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(ct.value) ? ct.value : 'text/plain'
  const base = {
    headers,
    mimeType,
    filename,
    isAttachment: disposition.value === 'attachment' || filename !== '',
    charset: (ct.params.charset ?? 'utf-8').toLowerCase(),
  }
  const boundary = ct.params.boundary
  if (mimeType.startsWith('multipart/') && boundary && depth < 20) {
    return { ...base, isAttachment: false, body: null, parts: splitMultipart(body, boundary).map((p) => parseMime(p, depth + 1)) }
  }
  return { ...base, body: decodeTransfer(body, header(headers, 'content-transfer-encoding') ?? '7bit'), parts: [] }
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const text = body.toString('latin1')
  const delimiter = `--${boundary}`
  const parts: Buffer[] = []
  let pos = text.indexOf(delimiter)
  while (pos >= 0) {
    const lineEnd = text.indexOf('\n', pos)
    if (text.startsWith(`${delimiter}--`, pos) || lineEnd < 0) break
    const next = text.indexOf(`\n${delimiter}`, lineEnd)
    const end = next < 0 ? text.length : next
    const chunk = text.slice(lineEnd + 1, end).replace(/\r$/, '')
    parts.push(Buffer.from(chunk, 'latin1'))
    if (next < 0) break
    pos = next + 1
  }
  return parts
}

/** Decodes a leaf's bytes to text using its charset (unknown charsets fall back to UTF-8). */
export function partText(part: MimePart): string {
  if (!part.body) return ''
  try {
    return new TextDecoder(part.charset === 'us-ascii' ? 'utf-8' : part.charset).decode(part.body)
  } catch {
    return part.body.toString('utf8')
  }
}

/** The best plain-text rendering of a message: first text/plain leaf, else de-tagged text/html. */
export function bodyText(root: MimePart): string {
  const leaves: MimePart[] = []
  const walk = (p: MimePart) => (p.parts.length ? p.parts.forEach(walk) : leaves.push(p))
  walk(root)
  const plain = leaves.find((p) => p.mimeType === 'text/plain' && !p.isAttachment)
  if (plain) return partText(plain)
  const html = leaves.find((p) => p.mimeType === 'text/html' && !p.isAttachment)
  return html ? htmlToText(partText(html)) : ''
}

export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
}

export const headerOf = header
