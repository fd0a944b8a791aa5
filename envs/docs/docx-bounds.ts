import { constants, inflateRawSync } from 'node:zlib'
import { zipDirectory } from './render/zip.ts'

// What an uploaded .docx may hold before mammoth reads it (docs/decisions/0401). A zip names its entries' sizes but
// need not tell the truth, and deflate packs a thousand bytes into one: a 100 KB upload inflated to 35 MB of
// paragraphs held the server for minutes and 4 GB, and 2.5 KB of nested elements overflowed mammoth's stack after a
// second. So every entry is inflated here first, within a byte bound, and each XML part is scanned (linear, no
// parse) for its elements and their nesting. An entry whose first bytes are not markup (an image) is not inflated:
// the import drops images, and mammoth is told not to read them. Deviation (unverified): Google documents only a
// 50 MB import size.

/** Inflated bytes of all XML entries together (about 0.1 s to inflate and scan). */
export const MAX_DOCX_BYTES = 32 * 1024 * 1024
/** Elements of all XML parts together: mammoth spends ~30 µs on each (40,000 are some 100 pages of Word output). */
export const MAX_DOCX_ELEMENTS = 40_000
/** Deepest element nesting of an XML part (Word's own output nests tens deep). */
export const MAX_DOCX_DEPTH = 256

/** Why a .docx is refused before it is converted, or undefined when it is within the bounds (or no zip at all). */
export function docxOverBounds(data: Buffer): string | undefined {
  const entries = zipDirectory(data)
  if (!entries) return undefined // not a zip: mammoth refuses it on its own
  let bytes = 0
  let elements = 0
  for (const e of entries) {
    if (e.compressed > data.length) return 'an entry is truncated'
    const at = e.dataStart
    if (at === undefined || at + e.compressed > data.length) return 'an entry is truncated'
    const raw = data.subarray(at, at + e.compressed)
    let plain: Buffer
    if (e.method === 0) plain = raw
    else if (e.method === 8) {
      if (!startsAsMarkup(raw)) continue
      try {
        plain = inflateRawSync(raw, { maxOutputLength: MAX_DOCX_BYTES - bytes + 1 })
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'it inflates past its size bound'
        continue // corrupt data: mammoth answers it
      }
    } else continue
    bytes += plain.length
    if (bytes > MAX_DOCX_BYTES) return 'it inflates past its size bound'
    const scan = xmlShape(plain, MAX_DOCX_ELEMENTS - elements)
    if (scan === 'deep') return 'its elements nest too deep'
    if (scan === 'many') return 'it has too many elements'
    elements += scan
  }
  return undefined
}

/** Whether a deflated entry's first inflated bytes look like XML (any `<` after optional whitespace and BOM). */
function startsAsMarkup(raw: Buffer): boolean {
  let head: Buffer
  try {
    head = inflateRawSync(raw.subarray(0, 256), { finishFlush: constants.Z_SYNC_FLUSH })
  } catch {
    return true // let the full inflate decide
  }
  return xmlStart(head) >= 0 || head.length === 0
}

/** Index of the first `<` of XML text (after whitespace and a BOM), or -1 when it does not start so. */
function xmlStart(xml: Buffer): number {
  let i = 0
  while (i < xml.length && (xml[i] === 0x20 || xml[i] === 0x0a || xml[i] === 0x0d || xml[i] === 0x09)) i++
  if (xml[i] === 0xef && xml[i + 1] === 0xbb && xml[i + 2] === 0xbf) i += 3
  return xml[i] === 0x3c ? i : -1
}

/**
 * The element count of an XML part (0 for a part that is not XML), 'many' past `left` elements, or 'deep' past
 * MAX_DOCX_DEPTH levels. Markup starts at every `<` (XML escapes it in text); comments, CDATA, declarations and
 * processing instructions are skipped, and quoted attribute values are stepped over, so a `>` or `/>` inside one
 * cannot hide an element.
 */
export function xmlShape(xml: Buffer, left: number): number | 'many' | 'deep' {
  let i = xmlStart(xml)
  if (i < 0) return 0
  let depth = 0
  let count = 0
  for (;;) {
    const lt = xml.indexOf(0x3c, i)
    if (lt < 0) return count
    const next = xml[lt + 1]
    if (next === 0x21) {
      // <!-- … -->, <![CDATA[ … ]]>, <!DOCTYPE …>
      const close = xml[lt + 2] === 0x2d ? '-->' : xml[lt + 2] === 0x5b ? ']]>' : '>'
      const end = xml.indexOf(close, lt + 2)
      if (end < 0) return count
      i = end + close.length
    } else if (next === 0x3f) {
      const end = xml.indexOf('?>', lt + 2)
      if (end < 0) return count
      i = end + 2
    } else if (next === 0x2f) {
      depth--
      const end = xml.indexOf(0x3e, lt + 2)
      if (end < 0) return count
      i = end + 1
    } else {
      if (++count > left) return 'many'
      let j = lt + 1
      let quote = 0
      while (j < xml.length) {
        const ch = xml[j]!
        if (quote) {
          if (ch === quote) quote = 0
        } else if (ch === 0x22 || ch === 0x27) quote = ch
        else if (ch === 0x3e) break
        j++
      }
      if (j >= xml.length) return count
      if (xml[j - 1] !== 0x2f && ++depth > MAX_DOCX_DEPTH) return 'deep'
      i = j + 1
    }
  }
}
