/**
 * A span of days with the expected date at one end ("between 10 and 15 March", "10-15 March", "March 10 to 15",
 * "from 10 March until 15 March"): for a date someone must commit to (a ship date), a hedge (docs/decisions/0463).
 * Not read into checkAnswer: "between 12:30 and 13:30" answers a slot question there (0444), and a span may be context.
 */
import { datesIn } from './answer.ts'

const MONTH = String.raw`(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?`
const DAY = String.raw`(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?`
/** One end: an ISO date, "10 March", "March 10", or a bare day that borrows the other end's month. */
const END = String.raw`\d{4}-\d{2}-\d{2}|${DAY}(?:\s+of)?\s+${MONTH}|${MONTH}\s+${DAY}\b|${DAY}`
const SEP = String.raw`-|\u2013|\u2014|\b(?:and|to|till|until|through|thru)\b`
const SPAN = new RegExp(
  String.raw`\b(between\s+|from\s+)?(${END})\s*(${SEP})\s*(${END})(?![\d:]|\.\d|\s*(?:[ap]\.?m\b|%))`,
  'gi',
)
const monthOf = (s: string) => new RegExp(MONTH, 'i').exec(s)?.[0]
const dayOf = (s: string) => Number(/\d{1,2}(?!\d*-)/.exec(s.replace(/^\d{4}-\d{2}-/, ''))?.[0])

/** Whether `text` (reader text) gives `date` (ISO "YYYY-MM-DD") as one end of a span whose other end is another day. */
export function spansFrom(text: string, date: string): boolean {
  const is = (s: string) => datesIn(s).some((d) => d === date || d === date.slice(5))
  for (const m of text.matchAll(SPAN)) {
    const [, lead, a0, sep, b0] = m as unknown as [string, string | undefined, string, string, string]
    // "and" joins a span only after "between" ("10 March and 15 March" is a list, read elsewhere).
    if (/and/i.test(sep) && !/between/i.test(lead ?? '')) continue
    const [ma, mb] = [monthOf(a0), monthOf(b0)]
    if (!ma && !mb && !/\d{4}-/.test(a0 + b0)) continue
    // A bare end takes the other end's month, and must follow the first ("10 March - 2 pallets" is no span).
    const a = ma || /\d{4}-/.test(a0) ? a0 : `${a0} ${mb}`
    const b = mb || /\d{4}-/.test(b0) ? b0 : `${b0} ${ma}`
    if ((!ma || !mb) && !(dayOf(b0) > dayOf(a0))) continue
    if (is(a) !== is(b) && datesIn(a).length > 0 && datesIn(b).length > 0) return true
  }
  return false
}
