import { decodeWords } from 'postal-mime'
import { htmlTokens, replaceBeforeLastGt, replaceElements } from '../../core/html-linear.ts'

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

/** Splits header block and body at the first empty line (`\r?\n\r?\n`), decoding only the header block. */
function splitHead(raw: Buffer): [string, Buffer] {
  const end = headEnd(raw)
  return [raw.toString('latin1', 0, end), bodyAfter(raw, end)]
}

/** The bytes after the blank line that ends at `end` (headEnd's answer): empty when there is no blank line. */
function bodyAfter(raw: Buffer, end: number): Buffer {
  if (end === raw.length) return Buffer.alloc(0)
  // The blank line's two line ends: end is at the first one (its CR, if any), each an optional CR and an LF.
  const second = raw[end] === 13 ? end + 2 : end + 1
  return raw.subarray(raw[second] === 13 ? second + 2 : second + 1)
}

/** Unfolds and decodes headers (RFC 5322 folding, RFC 2047 encoded words, UTF-8 raw bytes). */
function parseHeaders(block: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = []
  for (const line of block.split(/\r?\n/)) {
    const c = line.charCodeAt(0)
    if ((c === 32 || c === 9) && out.length > 0) {
      out[out.length - 1]!.value += ` ${line.trim()}`
      continue
    }
    const i = line.indexOf(':')
    if (i <= 0) continue
    out.push({ name: line.slice(0, i).trim(), value: line.slice(i + 1).trim() })
  }
  for (const h of out) h.value = decodeHeaderValue(h.value)
  return out
}

function decodeHeaderValue(latin1: string): string {
  // Raw 8-bit header bytes are UTF-8 in practice; encoded words are decoded by postal-mime. ASCII is its own UTF-8,
  // and a value without `=?` has no encoded word (postal-mime would give it back as it is).
  const utf8 = NON_ASCII.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1
  if (!utf8.includes('=?')) return utf8
  try {
    return decodeWords(utf8)
  } catch {
    return utf8
  }
}

/** `type/subtype; a=b; c="d"` → type and lower-cased parameter map (RFC 2231 `name*=` supported). */
export function parseParams(value: string): { value: string; params: Record<string, string> } {
  // Without a quote every `;` is outside quotes: the lookahead (an even number of quotes to the end) always holds.
  const [head = '', ...rest] = value.includes('"') ? value.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/) : value.split(';')
  const params: Record<string, string> = {}
  for (const piece of rest) {
    const eq = piece.indexOf('=')
    if (eq < 0) continue
    let key = piece.slice(0, eq).trim().toLowerCase()
    let val = piece
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/s, '$1')
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

const NON_ASCII = /[^\x00-\x7f]/
/** Decodes without streaming, so one decoder serves every call (it keeps nothing between them). */
const UTF8 = new TextDecoder('utf-8')

function decodeTransfer(body: Buffer, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return fromBase64Bytes(body)
    case 'quoted-printable': {
      // Written into one buffer (the text's length bounds it) without a string per character.
      const text = body.toString('latin1').replace(/=\r?\n/g, '')
      const bytes = Buffer.allocUnsafe(text.length)
      let n = 0
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i)
        const high = c === 61 ? hexValue(text.charCodeAt(i + 1)) : -1
        const low = high < 0 ? -1 : hexValue(text.charCodeAt(i + 2))
        if (low >= 0) {
          bytes[n++] = high * 16 + low
          i += 2
        } else bytes[n++] = c & 0xff
      }
      return bytes.subarray(0, n)
    }
    default:
      return body
  }
}

/**
 * A base64 body's bytes: every character outside the alphabet and `=` dropped (line breaks, spaces, stray
 * characters), then decoded. A body of alphabet lines whose `=` only ends it (what mailers write) goes to the decoder
 * as it is: Node's base64 decoder skips line breaks, so the bytes are the same, and the `replace` over a 34 MB
 * attachment body and the flattening of its result (~0.3 s, 0416) are saved.
 */
function fromBase64Bytes(body: Buffer): Buffer {
  const text = body.toString('latin1')
  if (!/[^A-Za-z0-9+/=\r\n]|=[^=\r\n]/.test(text)) return Buffer.from(text, 'base64')
  return Buffer.from(text.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
}

/** The value of a hexadecimal digit's character code (NaN, past the text's end, included): -1 if not one. */
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 65 && c <= 70) return c - 55
  if (c >= 97 && c <= 102) return c - 87
  return -1
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

/** The first Content-Type, Content-Disposition and Content-Transfer-Encoding, as `header()` finds them. */
function contentHeaders(headers: MimePart['headers']): [string | undefined, string | undefined, string | undefined] {
  let type: string | undefined
  let disposed: string | undefined
  let encoding: string | undefined
  for (const h of headers) {
    const name = h.name.toLowerCase()
    if (name === 'content-type') type ??= h.value
    else if (name === 'content-disposition') disposed ??= h.value
    else if (name === 'content-transfer-encoding') encoding ??= h.value
  }
  return [type, disposed, encoding]
}

/** A message parseMime read, kept to read copies of it whose top-level headers differ (parseCopy). */
export type ParsedMessage = { raw: Buffer; root: MimePart }

/**
 * `parseMime(raw)` for a copy of `known` (delivery adds and removes top-level headers): when the bytes after the
 * header block and the top-level Content-Type, Content-Disposition and Content-Transfer-Encoding are the same,
 * everything parseMime derives but the headers is the same too, so the part tree is `known`'s with the copy's
 * headers; undefined otherwise. The trees then share their parts, which nothing changes after parsing.
 */
export function parseCopy(raw: Buffer, known: ParsedMessage): MimePart | undefined {
  const [head, body] = splitHead(raw)
  if (!body.equals(bodyAfter(known.raw, headEnd(known.raw)))) return undefined
  const headers = parseHeaders(head)
  const mine = contentHeaders(headers)
  const theirs = contentHeaders(known.root.headers)
  if (mine[0] !== theirs[0] || mine[1] !== theirs[1] || mine[2] !== theirs[2]) return undefined
  return { ...known.root, headers }
}

/**
 * Most MIME parts one message's tree holds. Deviation: Gmail's own limit is not documented; a part past it is left
 * out of the tree (never seen in real mail). 20,000 sibling parts in a 1 MB message held the event loop 1-3 s per
 * parse, and a 35 MB send could hold 700,000 (docs/decisions/0387).
 */
export const MAX_MIME_PARTS = 1000

/** Parses RFC 822 / MIME bytes into a part tree (depth-limited against hostile nesting, part-count-limited). */
export function parseMime(raw: Buffer, depth = 0, budget = { parts: MAX_MIME_PARTS }): MimePart {
  const [head, body] = splitHead(raw)
  const headers = parseHeaders(head)
  const [type, disposed, encoding] = contentHeaders(headers)
  const ct = parseParams(type ?? 'text/plain; charset=us-ascii')
  const disposition = parseParams(disposed ?? '')
  const filename = disposition.params.filename ?? ct.params.name ?? ''
  const mimeType = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(ct.value) ? ct.value : 'text/plain'
  const isAttachment = disposition.value === 'attachment' || filename !== ''
  const charset = (ct.params.charset ?? 'utf-8').toLowerCase()
  const boundary = ct.params.boundary
  // Both shapes spelled out in one key order (no `{ ...base, … }`: docs/decisions/0446).
  if (mimeType.startsWith('multipart/') && boundary && depth < 20) {
    const parts = splitMultipart(body, boundary, budget).map((p) => parseMime(p, depth + 1, budget))
    return { headers, mimeType, filename, isAttachment: false, charset, body: null, parts }
  }
  return {
    headers,
    mimeType,
    filename,
    isAttachment,
    charset,
    body: decodeTransfer(body, encoding ?? '7bit'),
    parts: [],
  }
}

function splitMultipart(body: Buffer, boundary: string, budget: { parts: number }): Buffer[] {
  const text = body.toString('latin1')
  const delimiter = `--${boundary}`
  const parts: Buffer[] = []
  let pos = text.indexOf(delimiter)
  while (pos >= 0 && budget.parts-- > 0) {
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
    const utf8 = part.charset === 'us-ascii' || part.charset === 'utf-8'
    return (utf8 ? UTF8 : new TextDecoder(part.charset)).decode(part.body)
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

// The tag-stripping steps below run in linear time (envs/core/html-linear.ts, docs/decisions/0392): as plain
// regular expressions an unclosed `<script>`, `<!--` or `<` was retried from every later `<` (quadratic).
const SCRIPTS = ['script', 'style']
const TAG = /<[^>]+>/g

export function htmlToText(html: string): string {
  const text = replaceElements(html, SCRIPTS, ' ').replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
  return replaceBeforeLastGt(text, TAG, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
}

/** Elements a browser renders inside the running text (no break or space of their own). */
const INLINE =
  'a|abbr|b|bdi|bdo|big|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|' +
  'time|tt|u|var|wbr'
const INLINE_TAG = new RegExp(`</?(?:${INLINE})(?:\\s[^>]*)?/?>`, 'gi')
const NAMED: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", shy: '' }

/**
 * An HTML part as a reader sees it, for the oracles' `visibleText` (never an API answer, which keeps `htmlToText`):
 * inline elements join the text around them (`P<b></b>O-1` reads "PO-1"), and numeric and common named character
 * references are decoded (`&#56;` reads "8"), so nothing a reader sees hides from the checks (docs/decisions/0364).
 * Text a mail client does not render is kept too, as hidden elements are: comments and the text of `<style>` and
 * `<script>` elements travel to the recipient as much as the rest, so a secret or a wrong answer put there is in the
 * mail (docs/decisions/0400; before, a comment carried either past every check).
 */
export function htmlReaderText(html: string): string {
  // The comment's delimiters become breaks and its text stays; a `<` inside it is stripped as a tag, as elsewhere.
  const text = html.includes('<!--') ? html.split('<!--').join('\n').split('-->').join('\n') : html
  return replaceBeforeLastGt(
    replaceBeforeLastGt(text, INLINE_TAG, '').replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n'),
    TAG,
    ' ',
  )
    .replace(/&#(?:x([0-9a-f]{1,6})|(\d{1,7}));?/gi, (all, hex?: string, dec?: string) => {
      const cp = hex ? parseInt(hex, 16) : Number(dec)
      return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : all
    })
    .replace(/&([a-z]+);/gi, (all, name: string) => NAMED[name.toLowerCase()] ?? all)
}

/** Attributes whose values a reader sees: a link's target (hover, click), an image's text and source, a tooltip. */
const SHOWN_ATTRIBUTES = new Set(['href', 'src', 'alt', 'title'])

/**
 * The values of the attributes of an HTML part a reader sees beside its text (docs/decisions/0437): `href` (shown on
 * hover, followed on a click), `alt` (shown for an image not loaded), `title` (a tooltip) and `src` (an image's
 * address), in document order, one a line; '' when there is none. Linear: the tags come from `htmlTokens`, and their
 * attributes are read in one pass each.
 */
export function shownAttributes(html: string): string {
  if (!/href|src|alt|title/i.test(html)) return ''
  const out: string[] = []
  for (const t of htmlTokens(html)) if (t.tag && !t.close && t.attrs) readAttributes(t.attrs, out)
  return out.join('\n')
}

/** Pushes the values of `SHOWN_ATTRIBUTES` in a tag's attribute text (`a="1" b='2' c=3 d`) to `out`, in one pass. */
function readAttributes(attrs: string, out: string[]) {
  const n = attrs.length
  const ws = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'
  let i = 0
  while (i < n) {
    while (i < n && (ws(attrs[i]) || attrs[i] === '/')) i++
    const start = i
    while (i < n && !ws(attrs[i]) && attrs[i] !== '=' && attrs[i] !== '/') i++
    const name = attrs.slice(start, i).toLowerCase()
    while (i < n && ws(attrs[i])) i++
    if (attrs[i] !== '=') continue
    i++
    while (i < n && ws(attrs[i])) i++
    const q = attrs[i]
    let value: string
    if (q === '"' || q === "'") {
      const end = attrs.indexOf(q, i + 1)
      value = attrs.slice(i + 1, end < 0 ? n : end)
      i = end < 0 ? n : end + 1
    } else {
      const from = i
      while (i < n && !ws(attrs[i])) i++
      value = attrs.slice(from, i)
    }
    if (SHOWN_ATTRIBUTES.has(name) && value.trim()) out.push(value)
  }
}

export const headerOf = header
