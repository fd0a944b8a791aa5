/**
 * RFC 5545 text output: property escaping, 75-octet line folding with CRLF, and VTIMEZONE blocks built from
 * the IANA database through luxon.
 * @see https://www.rfc-editor.org/rfc/rfc5545
 */
import { DateTime } from 'luxon'
import { luxonZone, offsetFn } from '../time/zone-clock.ts'

/** TEXT value escaping (3.3.11): backslash, semicolon, comma and newlines. */
export function escapeText(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** A parameter value (3.2): quoted when it holds `:;,`; DQUOTE and control characters cannot appear. */
export function paramValue(s: string): string {
  const clean = s.replace(/["\u0000-\u001f\u007f]/g, '')
  return /[:;,]/.test(clean) ? `"${clean}"` : clean
}

/** One content line folded at 75 octets (3.1), never inside a UTF-8 sequence; continuation lines start with a space. */
export function foldLine(line: string): string {
  const out: string[] = []
  let current = ''
  let octets = 0
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8')
    if (octets + size > 75) {
      out.push(current)
      current = ' '
      octets = 1
    }
    current += ch
    octets += size
  }
  out.push(current)
  return out.join('\r\n')
}

/** Joins content lines into an iCalendar stream: folded, CRLF-terminated. */
export function icsText(lines: string[]): string {
  return lines.map(foldLine).join('\r\n') + '\r\n'
}

/** Unfolds an iCalendar stream back into content lines (CRLF + one space or tab is removed). */
export function unfoldIcs(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((l) => l !== '')
}

/** `20260309T150000Z` */
export const icsUtc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/** `20260309T100000` (wall clock of `ms` in `zone`, for `;TZID=` values). */
export const icsLocal = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat("yyyyMMdd'T'HHmmss")

const offsetText = (minutes: number) => {
  const a = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${String(a % 60).padStart(2, '0')}`
}

/** Instants in [fromMs, toMs) where `zone` changes its UTC offset, to the minute. */
function transitions(zone: string, fromMs: number, toMs: number): number[] {
  const key = `${zone}|${fromMs}|${toMs}`
  const hit = TRANSITIONS.get(key)
  if (hit) return hit
  if (TRANSITIONS.size >= 512) TRANSITIONS.clear()
  const out = scanTransitions(zone, fromMs, toMs)
  TRANSITIONS.set(key, out)
  return out
}

/**
 * Offset changes found so far, by zone and span: a pure function of the IANA data, and every invitation of a zone in
 * the same year asks for the same span (a day-by-day scan of ten years is ~7,300 offset look-ups).
 */
const TRANSITIONS = new Map<string, number[]>()

function scanTransitions(zone: string, fromMs: number, toMs: number): number[] {
  // `DateTime.fromMillis(ms, { zone }).offset`: the zone's offset
  // (NaN for an invalid zone or instant), without a DateTime.
  const offset = offsetFn(luxonZone(zone))
  const out: number[] = []
  const DAY = 86_400_000
  // Each day's offset is read once: the end of one day is the start of the next (the same numbers as reading both).
  let next = offset(fromMs)
  for (let t = fromMs; t < toMs; t += DAY) {
    const here = next
    next = offset(t + DAY)
    if (here === next) continue
    let [lo, hi] = [t, t + DAY]
    let atLo = here
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000
      const atMid = offset(mid)
      if (atMid === atLo) {
        lo = mid
        atLo = atMid
      } else hi = mid
    }
    out.push(hi)
  }
  return out
}

/**
 * A VTIMEZONE for `zone` covering `years` years from the start of `fromMs`'s year: one STANDARD/DAYLIGHT
 * observance per offset change (listed with RDATE), or a single STANDARD block for a zone without changes.
 * Deviation: observances are listed as dates, not as RRULEs, so the block covers only that span.
 */
export function vtimezone(zone: string, fromMs: number, years = 10): string[] {
  const start = DateTime.fromMillis(fromMs, { zone }).setLocale('en-US').startOf('year')
  const key = `${zone}|${start.toMillis()}|${years}`
  let block = BLOCKS.get(key)
  if (!block) {
    if (BLOCKS.size >= 512) BLOCKS.clear()
    BLOCKS.set(key, (block = buildVtimezone(zone, start, years)))
  }
  return [...block]
}

/**
 * Whole VTIMEZONE blocks by zone, first year and span, like TRANSITIONS: a pure function of the IANA data, and every
 * invitation of a zone in the same year needs the same block (naming each observance costs luxon zone look-ups).
 */
const BLOCKS = new Map<string, string[]>()

function buildVtimezone(zone: string, start: DateTime, years: number): string[] {
  const changes = transitions(zone, start.toMillis(), start.plus({ years }).toMillis())
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`]
  if (!changes.length) {
    const offset = offsetText(start.offset)
    lines.push(
      'BEGIN:STANDARD',
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      `TZNAME:${start.offsetNameShort ?? offset}`,
      'DTSTART:19700101T000000',
      'END:STANDARD',
    )
    return [...lines, 'END:VTIMEZONE']
  }
  // Group changes by (kind, from, to, name): each group becomes one observance with RDATEs.
  const groups = new Map<string, { kind: string; from: number; to: number; name: string; starts: string[] }>()
  for (const ms of changes) {
    const before = DateTime.fromMillis(ms - 60_000, { zone })
    const after = DateTime.fromMillis(ms, { zone }).setLocale('en-US')
    const kind = after.isInDST ? 'DAYLIGHT' : 'STANDARD'
    const name = after.offsetNameShort ?? offsetText(after.offset)
    const key = `${kind}|${before.offset}|${after.offset}|${name}`
    // DTSTART/RDATE of an observance are local times in the offset in force before the change.
    const local = DateTime.fromMillis(ms, { zone: 'UTC' })
      .plus({ minutes: before.offset })
      .toFormat("yyyyMMdd'T'HHmmss")
    const g = groups.get(key) ?? { kind, from: before.offset, to: after.offset, name, starts: [] }
    g.starts.push(local)
    groups.set(key, g)
  }
  for (const g of groups.values()) {
    lines.push(
      `BEGIN:${g.kind}`,
      `TZOFFSETFROM:${offsetText(g.from)}`,
      `TZOFFSETTO:${offsetText(g.to)}`,
      `TZNAME:${g.name}`,
      `DTSTART:${g.starts[0]}`,
    )
    if (g.starts.length > 1) lines.push(`RDATE:${g.starts.slice(1).join(',')}`)
    lines.push(`END:${g.kind}`)
  }
  return [...lines, 'END:VTIMEZONE']
}
