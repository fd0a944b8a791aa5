/**
 * The normalising checker for answer tasks: the agent's final text is compared with the expected fact by meaning,
 * not by spelling. Times are compared as local wall-clock times (and dates when the answer states one) in the zone
 * the task states; numbers and amounts as values; names without case, accents or punctuation. An answer that also
 * names a wrong candidate fails, so listing every candidate never pays.
 */

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
  return s
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

/** Every clock time the text states, as minutes after midnight ("3 pm", "3:30pm", "15:00", "noon"). */
export function timesIn(text: string): number[] {
  const t = text.toLowerCase()
  const out: number[] = []
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

/** Every calendar date the text states, as month-day ("MM-DD") or full ISO dates when a year is given. */
export function datesIn(text: string): string[] {
  const t = text.toLowerCase()
  const out: string[] = []
  const pad = (n: number) => String(n).padStart(2, '0')
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

/** Every number the text states, with currency signs, thousands separators and k/m suffixes read. */
export function numbersIn(text: string): number[] {
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

const dateMatches = (stated: string, date: string) => (stated.length === 5 ? date.endsWith(stated) : stated === date)

/** Does the text state this expected fact? */
export function states(text: string, e: Expected): boolean {
  if (e.kind === 'name') {
    const hay = ` ${normaliseText(text)} `
    return [e.value, ...(e.aliases ?? [])].some((n) => normaliseText(n) !== '' && hay.includes(` ${normaliseText(n)} `))
  }
  if (e.kind === 'number') return numbersIn(text).some((v) => Math.abs(v - e.value) < 0.005)
  if (e.kind === 'date') return datesIn(text).some((d) => dateMatches(d, e.date))
  const { date, minutes } = localParts(e.iso, e.zone)
  const local = localiseIso(text, e.zone)
  const dates = datesIn(local)
  if (dates.length > 0 && !dates.some((d) => dateMatches(d, date))) return false
  return timesIn(local).includes(minutes)
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
  const named = wrong.filter((w) => states(answer, w))
  if (named.length > 0) return { ok: false, note: `the answer also names ${named.length} wrong candidate(s)` }
  if (!states(answer, expected)) return { ok: false, note: 'the answer does not state the expected fact' }
  return { ok: true, note: 'the answer states the expected fact and no wrong candidate' }
}
