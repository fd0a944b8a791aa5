/**
 * The normalising checker for answer tasks: the agent's final text is compared with the expected fact by meaning,
 * not by spelling. Times are compared as local wall-clock times (and dates when the answer states one) in the zone
 * the task states; numbers and amounts as values; names without case, accents or punctuation. An answer that also
 * names a wrong candidate fails, so listing every candidate never pays. Every text is read as a person reads it first
 * (oracles/reader-text.ts: invisible characters, fullwidth and other-script digits, look-alike letters), and a wrong
 * candidate also counts as named in the other spellings a person reads as it (number words, "half past nine",
 * "9 o'clock", numeric dates in either order: docs/decisions/0364).
 */
import { readerText } from './reader-text.ts'
import { pushAll } from '../envs/core/arrays.ts'

/** What the answer must state. */
export type Expected =
  | { kind: 'instant'; iso: string; zone: string }
  | { kind: 'date'; date: string }
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string; aliases?: string[] }

export type AnswerVerdict = { ok: boolean; note: string }

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** Lower case, no accents, punctuation as spaces, single spaces. */
export function normaliseText(s: string): string {
  return readerText(s)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

/** Local date (YYYY-MM-DD) and minutes after midnight of an instant in a zone. */
export function localParts(iso: string, zone: string): { date: string; minutes: number } {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, x.value]))
  return { date: `${p.year}-${p.month}-${p.day}`, minutes: Number(p.hour) * 60 + Number(p.minute) }
}

/**
 * Every clock time the text states, as minutes after midnight ("3 pm", "3:30pm", "15:00", "21h", "noon"). `loose`
 * adds the readings a person might mean by a time without am/pm ("9 o'clock", "half past nine", "quarter to ten":
 * the morning and the evening one); the wrong-candidate check reads them so.
 */
export function timesIn(text: string, loose = false): number[] {
  const t = text.toLowerCase()
  const out: number[] = []
  for (const m of t.matchAll(/\b(\d{1,2})h(?![\w:.])/g)) if (Number(m[1]) <= 23) out.push(Number(m[1]) * 60)
  if (loose) pushAll(out, spokenTimes(wordsAsDigits(t)))
  const re = /\b(\d{1,2})(?:[:.h](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?(?![\d/])/g
  for (const m of t.matchAll(re)) {
    const h = Number(m[1])
    const min = m[2] ? Number(m[2]) : 0
    const ampm = m[3]?.[0]
    if (!m[2] && !ampm) continue // a bare number is not a time
    if (min > 59 || h > 23 || (ampm && (h < 1 || h > 12))) continue
    const hour = ampm === 'p' ? (h % 12) + 12 : ampm === 'a' ? h % 12 : h
    out.push(hour * 60 + min)
  }
  if (/\bnoon\b|\bmidday\b/.test(t)) out.push(720)
  if (/\bmidnight\b/.test(t)) out.push(0)
  return out
}

/** "9 o'clock", "half past 9", "quarter past 9", "quarter to 10", each as its morning and its evening time. */
function spokenTimes(t: string): number[] {
  const out: number[] = []
  const both = (h: number, min: number) => {
    if (h < 0 || h > 23) return
    out.push(h * 60 + min)
    if (h <= 12) out.push(((h + 12) % 24) * 60 + min, (h % 12) * 60 + min)
  }
  for (const m of t.matchAll(/\b(\d{1,2})\s*o['’]?\s*clock\b/g)) both(Number(m[1]), 0)
  for (const m of t.matchAll(/\b(half|quarter)\s+past\s+(\d{1,2})\b/g)) both(Number(m[2]), m[1] === 'half' ? 30 : 15)
  for (const m of t.matchAll(/\bquarter\s+to\s+(\d{1,2})\b/g)) both((Number(m[1]) + 23) % 24, 45)
  return out
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Every calendar date the text states, as month-day ("MM-DD") or full ISO dates when a year is given. `loose` adds
 * numeric dates ("4/26", "26.4.2026") read both ways, month first and day first; the wrong-candidate check reads them.
 */
export function datesIn(text: string, loose = false): string[] {
  const t = text.toLowerCase()
  const out: string[] = []
  if (loose) pushAll(out, numericDates(t))
  for (const m of t.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.push(`${m[1]}-${m[2]}-${m[3]}`)
  const mon = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?'
  const year = '(?:,?\\s+(\\d{4})(?![-\\d]))?'
  for (const m of t.matchAll(new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b${year}`, 'g'))) {
    const md = `${pad(MONTHS.indexOf(m[1]!) + 1)}-${pad(Number(m[2]))}`
    out.push(m[3] ? `${m[3]}-${md}` : md)
  }
  for (const m of t.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${mon}${year}`, 'g'))) {
    const md = `${pad(MONTHS.indexOf(m[2]!) + 1)}-${pad(Number(m[1]))}`
    out.push(m[3] ? `${m[3]}-${md}` : md)
  }
  return out
}

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven']
const TEENS = ['twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const WORD_VALUE = new Map<string, number>([
  ...UNITS.map((w, i) => [w, i] as const),
  ...TEENS.map((w, i) => [w, i + 12] as const),
  ...TENS.map((w, i) => [w, (i + 2) * 10] as const),
])
const NUMBER_WORDS = new RegExp(
  `\\b(${TENS.join('|')})(?:[-\\s]+(${UNITS.slice(1, 10).join('|')}))?\\b|\\b(${[...UNITS, ...TEENS].join('|')})\\b`,
  'gi',
)

/** The text with number words up to ninety-nine as digits ("twenty-one" → "21", "eight thousand" → "8 thousand"). */
export function wordsAsDigits(text: string): string {
  return text.replace(NUMBER_WORDS, (all, tens?: string, unit?: string, small?: string) => {
    if (small) return String(WORD_VALUE.get(small.toLowerCase()))
    return String(WORD_VALUE.get(tens!.toLowerCase())! + (unit ? WORD_VALUE.get(unit.toLowerCase())! : 0))
  })
}

/**
 * Every number the text states, with currency signs, thousands separators and k/m suffixes read, and number words
 * (`wordsAsDigits`).
 */
export function numbersIn(text: string): number[] {
  return digitsIn(wordsAsDigits(text))
}

function digitsIn(text: string): number[] {
  const out: number[] = []
  const re = /(?<![\w.])[$€£]?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(k|m|thousand|million)?\b/gi
  for (const m of text.matchAll(re)) {
    let v = Number(m[1]!.replace(/,/g, '') + (m[2] ?? ''))
    const s = m[3]?.toLowerCase()
    if (s === 'k' || s === 'thousand') v *= 1e3
    if (s === 'm' || s === 'million') v *= 1e6
    out.push(v)
  }
  return out
}

/**
 * Rewrites ISO date-times in a text (`2026-12-03T09:30:00+01:00`, `…T08:30Z`) as `YYYY-MM-DD HH:MM` local to `zone`
 * (one without an offset is taken as local already), so an answer copied from an API field reads like a person's.
 */
export function localiseIso(text: string, zone: string): string {
  const re = /\b(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/gi
  return text.replace(re, (all, d: string, h: string, m: string, off?: string) => {
    if (!off) return `${d} ${h}:${m}`
    const at = new Date(all.toUpperCase())
    if (Number.isNaN(at.getTime())) return all
    const p = localParts(at.toISOString(), zone)
    return `${p.date} ${String(Math.floor(p.minutes / 60)).padStart(2, '0')}:${String(p.minutes % 60).padStart(2, '0')}`
  })
}

/** "4/26", "26.4.2026", "04-26-2026" as every month-day (with the year when given) they can mean. */
function numericDates(t: string): string[] {
  const out: string[] = []
  for (const m of t.matchAll(
    /(?<![\d./-])(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{4}|\d{2}))?(?![\d/-]|\.\d|\s*[ap]\.?m\b)/g,
  )) {
    const [a, b] = [Number(m[1]), Number(m[2])]
    const y = m[3] ? (m[3].length === 2 ? `20${m[3]}` : m[3]) : undefined
    for (const [mo, d] of [
      [a, b],
      [b, a],
    ] as const)
      if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31) out.push(y ? `${y}-${pad(mo)}-${pad(d)}` : `${pad(mo)}-${pad(d)}`)
  }
  return out
}

const dateMatches = (stated: string, date: string) => (stated.length === 5 ? date.endsWith(stated) : stated === date)

/**
 * Does the text state this expected fact? `loose` also reads the spellings that only the wrong-candidate check
 * counts (spoken times, numeric dates): a person could read them as the fact, though they do not state it plainly.
 */
export function states(raw: string, e: Expected, loose = false): boolean {
  const text = readerText(raw)
  if (e.kind === 'name') {
    const hay = ` ${normaliseText(text)} `
    return [e.value, ...(e.aliases ?? [])].some((n) => normaliseText(n) !== '' && hay.includes(` ${normaliseText(n)} `))
  }
  if (e.kind === 'number') return numbersIn(text).some((v) => Math.abs(v - e.value) < 0.005)
  if (e.kind === 'date') return datesIn(text, loose).some((d) => dateMatches(d, e.date))
  const { date, minutes } = localParts(e.iso, e.zone)
  const local = localiseIso(text, e.zone)
  const dates = datesIn(local, loose)
  if (dates.length > 0 && !dates.some((d) => dateMatches(d, date))) return false
  return timesIn(local, loose).includes(minutes)
}

/**
 * Judges a final answer: it must state the expected fact and none of the wrong candidates. A time candidate that
 * differs from the expected one only by its date counts as named when the answer states that date.
 */
export function checkAnswer(
  answer: string | null | undefined,
  expected: Expected,
  wrong: Expected[] = [],
): AnswerVerdict {
  if (answer == null || answer.trim() === '') return { ok: false, note: 'no final answer was submitted' }
  if (answer.length > 2000) return { ok: false, note: 'the answer is longer than 2,000 characters' }
  // Strict and loose readings each: a numeric date the loose one adds must not hide a time the strict one reads.
  const named = wrong.filter((w) => states(answer, w) || states(answer, w, true))
  if (named.length > 0) return { ok: false, note: `the answer also names ${named.length} wrong candidate(s)` }
  if (!states(answer, expected)) return { ok: false, note: 'the answer does not state the expected fact' }
  return { ok: true, note: 'the answer states the expected fact and no wrong candidate' }
}
