/**
 * The normalising checker for answer tasks: the agent's final text is compared with the expected fact by meaning,
 * not by spelling. Times are compared as local wall-clock times (and dates when the answer states one) in the zone
 * the task states; numbers and amounts as values; names without case, accents or punctuation. An answer that also
 * names a wrong candidate fails, so listing every candidate never pays. Every text is read as a person reads it first
 * (oracles/reader-text.ts: invisible characters, fullwidth and other-script digits, look-alike letters), and a wrong
 * candidate also counts as named in the other spellings a person reads as it (number words, "half past nine",
 * "9 o'clock", numeric dates in either order: docs/decisions/0364; days and hours coordinated with a date or a clock
 * time, "eleven thirty", "1130 hrs", grouped or decimal-comma amounts: 0381). A time labelled with another zone
 * ("18:30 UTC", "9am ET") is read in the task's zone. A value the answer denies ("not 3pm", "3pm? No") is not
 * stated; a weekday is read as a day, and one a stated date does not explain names every candidate on that weekday;
 * ordinal words next to a month ("April twenty-ninth") are days; a currency sign makes space groups one amount (0388).
 * A hedge without an "or" ("3pm, maybe 5pm", "3pm / 5pm") offers an alternative too, and the strict reading of a
 * date takes a month's own spellings only ("maybe 30" is not 30 May: 0441). A city's clock time is read at its
 * instant, and a bare list of the expected value and another ("12:30, 15:30") is a hedge (0444). A date or time
 * moved or blurred after a hedge word ("4 June, or a week later", "4 June or so") is a hedge too (0460).
 */
import { readerText } from './reader-text.ts'
import { offersOtherName } from './name-hedge.ts'
import { pushAll } from '../envs/core/arrays.ts'
import { cityPattern, cityZones } from './city-zones.ts'
import { listedPairs, tokensOf, type Token } from './answer-lists.ts'
import { relativeAlternative } from './answer-relative.ts'

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

/**
 * Formatters by locale and zone: an `Intl.DateTimeFormat` never changes once made, and making one costs far more
 * than formatting with it (answers are judged on every verify, each naming the same few zones). Bounded.
 */
const formats = new Map<string, Intl.DateTimeFormat>()
const PARTS = 'en-CA'
const OFFSET = 'en-US'
function formatIn(locale: string, zone: string, options: () => Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\n${zone}`
  let f = formats.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options())
    if (formats.size >= 256) formats.clear()
    formats.set(key, f)
  }
  return f
}

/** Local date (YYYY-MM-DD) and minutes after midnight of an instant in a zone. */
export function localParts(iso: string, zone: string): { date: string; minutes: number } {
  const f = formatIn(PARTS, zone, () => ({
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }))
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
  if (loose) for (const x of [spokenTimes(wordsAsDigits(t)), coordinatedHours(t), wordClockTimes(t)]) pushAll(out, x)
  if (loose) {
    for (const m of t.matchAll(/\b([01]\d|2[0-3])([0-5]\d)\s*(?:hrs?|hours|h)\b/g))
      out.push(Number(m[1]) * 60 + Number(m[2]))
  }
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
  for (const m of t.matchAll(/\b(\d{1,2})\s*o['\u2019]?\s*clock\b/g)) both(Number(m[1]), 0)
  for (const m of t.matchAll(/\b(half|quarter)\s+past\s+(\d{1,2})\b/g)) both(Number(m[2]), m[1] === 'half' ? 30 : 15)
  for (const m of t.matchAll(/\bquarter\s+to\s+(\d{1,2})\b/g)) both((Number(m[1]) + 23) % 24, 45)
  return out
}

/** Both readings of an hour said without am/pm (9 → 9:00 and 21:00), and 12 as noon and midnight. */
function bothHalves(h: number, min: number): number[] {
  if (h < 0 || h > 23) return []
  return h <= 12 ? [h * 60 + min, ((h + 12) % 24) * 60 + min, (h % 12) * 60 + min] : [h * 60 + min]
}

const CLOCK = String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\b\.?)?`
const JOINERS = String.raw`-|\u2013|\u2014|/|&|\bor\b|\band\b|\bto\b|\btill\b|\buntil\b|\bthrough\b|\bthru\b`
const LINK_DAYS = String.raw`\s*(?:,|${JOINERS})\s*`
const LINK = String.raw`\s*(?:${JOINERS})\s*`
/** A bare number followed by a unit ("3 days late") counts something: it is neither a day nor an hour. */
const NOT_UNIT =
  String.raw`(?!\s*(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|secs?|people|` +
  String.raw`persons?|percent|times|%))`

/**
 * A bare hour coordinated with a clock time ("11 or 12:30", "9-11am", "between 11 and 12:30", "12:30 or 3"): a
 * person reads it as a time too, so the wrong-candidate check does.
 */
function coordinatedHours(t: string): number[] {
  const out: number[] = []
  const isClock = (x: string) => /[:.]\d{2}|[ap]\.?m/.test(x)
  for (const m of t.matchAll(new RegExp(`(?<![\\d:./-])(${CLOCK})${LINK}(${CLOCK})(?![\\d/-])${NOT_UNIT}`, 'g'))) {
    const [a, b] = [m[1]!.trim(), m[2]!.trim()]
    if (isClock(a) === isClock(b)) continue
    const bare = isClock(a) ? b : a
    pushAll(out, bothHalves(Number(bare), 0))
  }
  return out
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Every calendar date the text states, as month-day ("MM-DD") or full ISO dates when a year is given. `loose` adds
 * numeric dates ("4/26", "26.4.2026") read both ways, month first and day first; the wrong-candidate check reads them.
 */
export function datesIn(text: string, loose = false): string[] {
  const t = spelledDays(text.toLowerCase())
  const out: string[] = []
  if (loose) for (const x of [numericDates(t), coordinatedDays(t)]) pushAll(out, x)
  for (const m of t.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.push(`${m[1]}-${m[2]}-${m[3]}`)
  // Strict: a month's own spellings only ("maybe 30", "decided 2" are not dates); loose: any word starting like one.
  const mon = loose ? MON : MON_EXACT
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

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']
const ORDINAL_TEENS = ['eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth']
const ORDINAL_WORDS = [...ORDINALS, ...ORDINAL_TEENS, 'eighteenth', 'nineteenth', 'twentieth']
const CARDINAL_DIGITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
/** A day of the month in words: an ordinal ("twenty-ninth", "thirtieth") or a two-word number ("twenty nine"). */
const DAY_WORD =
  String.raw`(?:(?:twenty|thirty)[\s-]+(?:${[...ORDINALS.slice(0, 9), ...CARDINAL_DIGITS].join('|')})|` +
  String.raw`thirtieth|${ORDINAL_WORDS.join('|')})`

/** A day word chained to a day in digits ("29th or twenty-sixth", "twenty-sixth or 29th April"). */
const CHAINED_DAY_WORD = new RegExp(
  String.raw`(\b\d{1,2}(?:st|nd|rd|th)?\s*(?:,|-|\u2013|\u2014|/|&|\bor\b|\band\b|\bto\b)\s*(?:the\s+)?)(${DAY_WORD})\b`,
  'g',
)
const DAY_WORD_CHAINED = new RegExp(
  String.raw`\b(${DAY_WORD})(?=\s*(?:,|-|\u2013|\u2014|/|&|\bor\b|\band\b|\bto\b)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b)`,
  'g',
)

/** The value of a day word ("twenty-ninth" → 29, "thirtieth" → 30, "twenty nine" → 29). */
function dayWordValue(w: string): number {
  const [a, b] = w.split(/[\s-]+/) as [string, string?]
  if (b) return (a === 'twenty' ? 20 : 30) + Math.max(ORDINALS.indexOf(b), CARDINAL_DIGITS.indexOf(b)) + 1
  return a === 'thirtieth' ? 30 : ORDINAL_WORDS.indexOf(a) + 1
}

/**
 * Day words next to a month as digits ("april twenty-ninth" → "april 29th", "the twenty-sixth of may"), and "the
 * <ordinal>" from the fourth on ("the twenty-sixth" → "the 26th"; "the first slot" stays words).
 */
function spelledDays(t: string): string {
  const num = (w: string) => `${dayWordValue(w)}th`
  return t
    .replace(new RegExp(`\\b(${MON}\\s+(?:the\\s+)?)(${DAY_WORD})\\b`, 'g'), (all, pre: string, _m, w: string) =>
      dayWordValue(w) <= 31 ? `${pre}${num(w)}` : all,
    )
    .replace(new RegExp(`\\b(${DAY_WORD})(?=\\s+(?:of\\s+)?${MON})`, 'g'), (all, w: string) =>
      dayWordValue(w) <= 31 ? num(w) : all,
    )
    .replace(new RegExp(`\\b(the\\s+)(${DAY_WORD})\\b`, 'g'), (all, pre: string, w: string) =>
      dayWordValue(w) >= 4 && dayWordValue(w) <= 31 ? `${pre}${num(w)}` : all,
    )
    .replace(CHAINED_DAY_WORD, (all, pre: string, w: string) => (dayWordValue(w) <= 31 ? `${pre}${num(w)}` : all))
    .replace(DAY_WORD_CHAINED, (all, w: string) => (dayWordValue(w) <= 31 ? num(w) : all))
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

const HOUR_WORDS = [...UNITS.slice(1), 'twelve']
const DIGIT_WORDS = UNITS.slice(1, 10).join('|')
const MINUTE_WORDS =
  String.raw`(?:oh[\s-]+(?:${DIGIT_WORDS})|ten|${TEENS.slice(1).join('|')}|` +
  String.raw`(?:twenty|thirty|forty|fifty)(?:[\s-]+(?:${DIGIT_WORDS}))?)`

/** "eleven thirty", "nine forty-five", "two oh five": an hour and minutes in words, morning and evening. */
function wordClockTimes(t: string): number[] {
  const out: number[] = []
  const re = new RegExp(`\\b(${HOUR_WORDS.join('|')})[\\s-]+(${MINUTE_WORDS})\\b`, 'g')
  for (const m of t.matchAll(re)) {
    const min = Number(
      wordsAsDigits(m[2]!.replace(/^oh[\s-]+/, ''))
        .replace(/\D+/g, ' ')
        .trim()
        .split(' ')[0],
    )
    if (min >= 1 && min <= 59) pushAll(out, bothHalves(HOUR_WORDS.indexOf(m[1]!) + 1, min))
  }
  return out
}

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
export function numbersIn(text: string, loose = false): number[] {
  const t = currencyGroups(wordsAsDigits(text))
  const out = digitsIn(t)
  // "3.614,55" and "3 614,55": the decimal comma is unambiguous after groups of three.
  for (const m of t.matchAll(/(?<![\w.,])(\d{1,3}(?:([. \u00a0\u202f'\u2019])\d{3})+),(\d{1,2})(?![\d,])/g)) {
    out.push(Number(`${m[1]!.replace(/\D/g, '')}.${m[3]}`))
  }
  if (loose) pushAll(out, looseNumbers(t))
  return out
}

const GROUPS = String.raw`(\d{1,3}(?:[ \u00a0\u202f]\d{3})+)(?:([.,])(\d{1,2}))?(?!\d)`
const CURRENCY = String.raw`[$\u20ac\u00a3]|\b(?:usd|eur|gbp|chf)\b`

/**
 * Space-grouped amounts next to a currency sign or code ("$3 614.55", "EUR 3 541,95", "3 614.55 USD") as one plain
 * amount ("$3614.55"): the sign says the groups are one number, not a list.
 */
function currencyGroups(t: string): string {
  const plain = (g: string, dec?: string) => `${g.replace(/\D/g, '')}${dec ? `.${dec}` : ''}`
  return t
    .replace(
      new RegExp(`(${CURRENCY})(\\s?)${GROUPS}`, 'gi'),
      (all, sign: string, sp: string, g: string, _sep, dec?: string) => `${sign}${sp}${plain(g, dec)}`,
    )
    .replace(new RegExp(`(?<![\\w.,])${GROUPS}(?=\\s?(?:${CURRENCY}))`, 'gi'), (all, g: string, _sep, dec?: string) =>
      plain(g, dec),
    )
}

/** Readings a person may give a number: space or apostrophe groups ("3 541.95", "3'541"), a decimal comma ("95,5"). */
function looseNumbers(t: string): number[] {
  const out: number[] = []
  for (const m of t.matchAll(/(?<![\w.,])(\d{1,3}(?:[ \u00a0\u202f'\u2019]\d{3})+)(?:[.,](\d{1,2}))?(?![\d])/g)) {
    out.push(Number(`${m[1]!.replace(/\D/g, '')}.${m[2] ?? '0'}`))
  }
  for (const m of t.matchAll(/(?<![\w.,])(\d+),(\d{1,2})(?![\d,])/g)) out.push(Number(`${m[1]}.${m[2]}`))
  return out
}

function digitsIn(text: string): number[] {
  const out: number[] = []
  const re = /(?<![\w.])[$\u20ac\u00a3]?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(k|m|thousand|million)?\b/gi
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

/** Fixed offsets (minutes east of UTC) and zones of the labels people put after a time. */
const ZONE_LABELS: Record<string, number | string> = {
  utc: 0,
  gmt: 0,
  z: 0,
  pst: -480,
  pdt: -420,
  mst: -420,
  mdt: -360,
  cst: -360,
  cdt: -300,
  est: -300,
  edt: -240,
  bst: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  jst: 540,
  aest: 600,
  aedt: 660,
  pt: 'America/Los_Angeles',
  mt: 'America/Denver',
  ct: 'America/Chicago',
  et: 'America/New_York',
}

/** The offset (minutes east of UTC) of a zone at an instant. */
function offsetAt(zone: string, ms: number): number {
  const name = formatIn(OFFSET, zone, () => ({ timeZone: zone, timeZoneName: 'longOffset' }))
    .formatToParts(new Date(ms))
    .find((x) => x.type === 'timeZoneName')!.value
  const m = /([+-])(\d{2}):?(\d{2})?/.exec(name)
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0
}

/**
 * Rewrites clock times labelled with another zone ("18:30 UTC", "13:30Z", "9am ET", "10:00 GMT+1") as the local
 * `HH:MM` in `zone`, on the day `near` falls on there: "12:30 (or 18:30 UTC)" names two instants, and "00:00 your
 * time (04:00 UTC)" one.
 */
export function localiseZoned(text: string, zone: string, near: string): string {
  const labels = Object.keys(ZONE_LABELS)
    .filter((k) => k !== 'z')
    .join('|')
  const re = new RegExp(
    String.raw`\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?` +
      String.raw`(?:(z)|\s*\b(${labels})(?:\s*([+-])(\d{1,2})(?::?(\d{2}))?)?)\b`,
    'gi',
  )
  const zoned = text.replace(
    re,
    (all, h: string, mm?: string, ap?: string, z?: string, label?: string, sign?: string, oh?: string, om?: string) => {
      const hour = Number(h)
      const ampm = ap?.[0]?.toLowerCase()
      if (hour > 23 || (ampm && (hour < 1 || hour > 12)) || Number(mm ?? 0) > 59) return all
      if (z && !mm) return all
      const key = (z ?? label!).toLowerCase()
      const fixed = ZONE_LABELS[key]!
      const ms0 = new Date(near).getTime()
      let offset = typeof fixed === 'number' ? fixed : offsetAt(fixed, ms0)
      if (sign) offset += (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om ?? 0))
      const h24 = ampm === 'p' ? (hour % 12) + 12 : ampm === 'a' ? hour % 12 : hour
      return clockIn(h24 * 60 + Number(mm ?? 0), offset, ms0, zone)
    },
  )
  return localiseCities(zoned, zone, near)
}

/** `HH:MM` in `zone` of the wall-clock `minutes` at `offset` on the day `ms0` falls on there. */
function clockIn(minutes: number, offset: number, ms0: number, zone: string): string {
  const day = new Date(ms0 + offset * 60_000).toISOString().slice(0, 10)
  const at = Date.parse(`${day}T00:00:00Z`) + (minutes - offset) * 60_000
  const p = localParts(new Date(at).toISOString(), zone)
  return `${pad(Math.floor(p.minutes / 60))}:${pad(p.minutes % 60)}`
}

let cityTimes: RegExp | undefined
/**
 * Clock times given as a place's ("13:30 Paris", "1:30pm in Paris", "13:30 Paris time", "8:30am New York time";
 * city-zones.ts) as the local `HH:MM` in `zone`, as `localiseZoned` reads zone labels (docs/decisions/0444): "12:30
 * London time / 13:30 Paris" is one instant, "12:30 / 15:30 Paris" two. A time needs its minutes or am/pm here;
 * the place may follow a comma or stand alone in brackets ("15:30, New York", "15:30 (New York)": 0447).
 */
function localiseCities(text: string, zone: string, near: string): string {
  cityTimes ??= new RegExp(
    String.raw`\b(\d{1,2})(?:(?:[:.](\d{2}))\s*(a\.?m\.?|p\.?m\.?)?|\s*(a\.?m\.?|p\.?m\.?))` +
      String.raw`(?:\s*,?\s+|\s*(\()\s*)(?:in\s+)?(${cityPattern()})(?:\s+time)?(?![\w-])(\s*\))?`,
    'gi',
  )
  type Parts = [h: string, mm?: string, ap1?: string, ap2?: string, open?: string, city?: string, close?: string]
  return text.replace(cityTimes, (all, ...[h, mm, ap1, ap2, open, city, close]: Parts) => {
    // A place in brackets is the whole bracket ("15:30 (New York)", 0447); "15:30 (New York, Boston)" is not.
    if (open && !close) return all
    const kept = close && !open ? close : ''
    const hour = Number(h)
    const ampm = (ap1 ?? ap2)?.[0]?.toLowerCase()
    if (hour > 23 || (ampm && (hour < 1 || hour > 12)) || Number(mm ?? 0) > 59) return all
    const place = cityZones().get(city!.toLowerCase().replace(/\s+/g, ' '))
    if (!place) return all
    const ms0 = new Date(near).getTime()
    const h24 = ampm === 'p' ? (hour % 12) + 12 : ampm === 'a' ? hour % 12 : hour
    return `${clockIn(h24 * 60 + Number(mm ?? 0), offsetAt(place, ms0), ms0, zone)}${kept}`
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

const MON = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?'
/** A month's name or abbreviation with its own endings only (docs/decisions/0441), its three-letter key captured. */
const MON_EXACT =
  '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|t|tember|ober|ember)?\\b\\.?'
const DAY = String.raw`(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?`
const RANGE = /^\s*(?:-|\u2013|\u2014|to|till|until|through|thru)\s*$/

/** The days of a chain ("26, 27 or 29", "26–29", "the 26th and the 29th"), a range read as every day in it. */
function chainDays(chain: string): number[] {
  const parts = chain.split(/(\d{1,2})(?:st|nd|rd|th)?/)
  const days: number[] = []
  for (let i = 1; i < parts.length; i += 2) {
    const d = Number(parts[i])
    const prev = days[days.length - 1]
    if (prev !== undefined && prev < d && RANGE.test(parts[i - 1]!.replace(/\bthe\b/g, ''))) {
      for (let x = prev + 1; x < d; x++) days.push(x)
    }
    days.push(d)
  }
  return days.filter((d) => d >= 1 && d <= 31)
}

/**
 * Days coordinated with a month ("26 and 29 April", "26–29 April", "April 29 or 26", "April 29th or the 26th") and
 * ordinals standing alone ("the 26th") in each month the text names: a person reads each as a date of that month.
 */
function coordinatedDays(t: string): string[] {
  const out: string[] = []
  const md = (mon: string, d: number) => `${pad(MONTHS.indexOf(mon.slice(0, 3)) + 1)}-${pad(d)}`
  const dayFirst = new RegExp(`((?:${DAY}${LINK_DAYS})+${DAY})(?:\\s+of)?\\s+${MON}`, 'g')
  for (const m of t.matchAll(dayFirst)) for (const d of chainDays(m[1]!)) out.push(md(m[2]!, d))
  const monthFirst = new RegExp(
    `\\b${MON}\\s+(${DAY}(?:${LINK_DAYS}${DAY}(?![:.]\\d|\\d|\\s*[ap]\\.?m\\b)${NOT_UNIT})+)`,
    'g',
  )
  for (const m of t.matchAll(monthFirst)) for (const d of chainDays(m[2]!)) out.push(md(m[1]!, d))
  const months = [...t.matchAll(new RegExp(`\\b${MON}`, 'g'))].map((m) => m[1]!)
  for (const m of t.matchAll(/\b(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?[a-z]{3})/g)) {
    for (const mon of months) if (Number(m[1]) >= 1 && Number(m[1]) <= 31) out.push(md(mon, Number(m[1])))
  }
  return out
}

/** A month name or its usual abbreviation, as a whole word. */
const MONTH =
  String.raw`\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|` +
  String.raw`sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?`
const NEGATION = String.raw`\b(?:not|isn['\u2019]?t|wasn['\u2019]?t|aren['\u2019]?t|weren['\u2019]?t|never)\b`
/** What may stand between a negation and the value it denies ("not on the 29th", "isn't at 3pm"). */
const NEGATED_VALUE = new RegExp(
  String.raw`^(?:\s+(?:at|on|the|in|a|an|is|was))*\s*[$\u20ac\u00a3]?\s*` +
    String.raw`(?:\d|${MONTH}|noon\b|midday\b|midnight\b|half\b|quarter\b|` +
    String.raw`(?:sun|mon|tues|wednes|thurs|fri|satur)day\b|${[...UNITS, ...TEENS, ...TENS].join('\\b|')}\b)`,
  'i',
)
/** Where a negation's reach ends: a clause mark, a bracket, a dash between spaces, or "but", "it", "instead". */
const CLAUSE_END = /[;!?()[\]]|[,.:](?=\s|$)|\s[-\u2013\u2014]\s|\b(?:but|it|instead|actually|rather)\b/i

/**
 * The text without the values it denies: "not 3pm, it's 4pm" reads "it's 4pm"; "not on the 29th" states no day;
 * "3pm? No - 4pm" and "3pm - no, 4pm" read 4pm. A negation reaches to the end of its clause ("not 3pm or 4pm"
 * denies both); a negation of a negation ("not not 3pm"), "if not" and "or not" ("4pm, if not 3pm": a hedge) deny
 * nothing, and neither does a negation of anything but a value ("not impossible 3pm", "not until 3pm").
 */
export function undenied(text: string): string {
  let out = text
  // "3pm? No - 4pm", "3pm - no, 4pm": the clause before the "no" is withdrawn.
  out = out.replace(
    /(^|[.!;:](?=\s)\s*|\n)((?:[^!;:\n?.]|[.:](?!\s))*?)(?:\?|\s[-\u2013\u2014]|,)\s*(?:no|nope)\b(?=\s*[-\u2013\u2014,:.!]\s*[\w$\u20ac\u00a3])/gi,
    (all, pre: string) => `${pre} `,
  )
  const cue = new RegExp(NEGATION, 'gi')
  let m: RegExpExecArray | null
  while ((m = cue.exec(out))) {
    const before = out.slice(0, m.index)
    const after = out.slice(m.index + m[0].length)
    if (new RegExp(`(?:${NEGATION}|\\bif|\\bor)(?:\\s+(?:at|on|the|in|a|an|is|was))*\\s*$`, 'i').test(before)) continue
    if (!NEGATED_VALUE.test(after)) continue
    const end = after.search(CLAUSE_END)
    const scope = end < 0 ? after : after.slice(0, end)
    if (new RegExp(NEGATION, 'i').test(scope)) continue
    out = `${before} ${end < 0 ? '' : after.slice(end)}`
    cue.lastIndex = before.length + 1
  }
  return out
}

const WEEKDAY_RE =
  /\b(?:(sun|mon|tues|wednes|thurs|fri|satur)day|(tue|tues|wed|thu|thur|thurs|fri)|(mon|sat|sun))\b\.?/gi
const WEEKDAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']
/** Joiners that coordinate two weekdays, or a weekday with a date, as alternatives. */
const ALTERNATIVE =
  /^\s*(?:,|-|\u2013|\u2014|\/|&|\bor\b|\bnor\b|\band\b|\bto\b|\bthrough\b|\bthru\b)\s*(?:either\s+)?$/i
const OR_JOIN = /^\s*(?:\/|\bor\b|\bnor\b)\s*(?:either\s+)?$/i
/** A date or time, then "or", right before a weekday ("29 April or Sunday"); "or" and a day number right after. */
const OR_DATE_BEFORE = new RegExp(`(?:\\d|${MONTH})\\s*[.,]?\\s*(?:/|\\bor\\b|\\bnor\\b)\\s*(?:either\\s+)?$`, 'i')
const OR_DATE_AFTER = /^\s*[.,]?\s*(?:\/|\bor\b|\bnor\b)\s*(?:the\s+)?\d/i

/** The weekday (0 = Sunday) of a YYYY-MM-DD date. */
const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay()

/**
 * The weekdays a text names as days, for a candidate in `year`: `loose`, those no date the text states explains
 * ("29 April or Sunday": Sunday; "Wednesday 29 April": none), and `hedged`, those offered as alternatives ("Tue or
 * Thu", "Wednesday/Sunday 29 April", "29 April or Sunday"). "mon", "sat", "sun" count only next to another weekday.
 */
function weekdaysIn(t: string, year: string, dates: string[]): { loose: number[]; hedged: number[] } {
  const found = [...t.matchAll(WEEKDAY_RE)].map((m) => {
    const key = (m[1] ?? m[2] ?? m[3]!).toLowerCase().slice(0, 3)
    return { day: WEEKDAY_KEYS.indexOf(key), at: m.index, end: m.index + m[0].length, weak: !!m[3] }
  })
  const between = (i: number, j: number) => (found[i] && found[j] ? t.slice(found[i]!.end, found[j]!.at) : '')
  const said = found.filter(
    (w, i) => !w.weak || ALTERNATIVE.test(between(i - 1, i)) || ALTERNATIVE.test(between(i, i + 1)),
  )
  const explained = new Set(dates.map((d) => weekdayOf(d.length === 5 ? `${year}-${d}` : d)))
  const hedged: number[] = []
  for (const w of said) {
    const i = found.indexOf(w)
    const other = (j: number, gap: string) => !!found[j] && found[j]!.day !== w.day && OR_JOIN.test(gap)
    const orDate = OR_DATE_BEFORE.test(t.slice(0, w.at)) || OR_DATE_AFTER.test(t.slice(w.end))
    if (other(i - 1, between(i - 1, i)) || other(i + 1, between(i, i + 1)) || orDate) hedged.push(w.day)
  }
  return { loose: said.filter((w) => !explained.has(w.day) || hedged.includes(w.day)).map((w) => w.day), hedged }
}

const dateMatches = (stated: string, date: string) => (stated.length === 5 ? date.endsWith(stated) : stated === date)

/**
 * Does the text state this expected fact? `loose` also reads the spellings that only the wrong-candidate check
 * counts (spoken times, numeric dates): a person could read them as the fact, though they do not state it plainly.
 */
export function states(raw: string, e: Expected, loose = false): boolean {
  if (e.kind === 'name') {
    const hay = ` ${normaliseText(readerText(raw))} `
    return [e.value, ...(e.aliases ?? [])].some((n) => normaliseText(n) !== '' && hay.includes(` ${normaliseText(n)} `))
  }
  const text = undenied(readerText(raw))
  if (e.kind === 'number') return numbersIn(text, loose).some((v) => Math.abs(v - e.value) < 0.005)
  const date = e.kind === 'date' ? e.date : localParts(e.iso, e.zone).date
  const local = e.kind === 'date' ? text : localiseZoned(localiseIso(text, e.zone), e.zone, e.iso)
  const dates = datesIn(local, loose)
  // Weekdays: one no stated date explains names this candidate's day (read loosely); alternatives are a hedge.
  const days = weekdaysIn(local, date.slice(0, 4), datesIn(local))
  const day = weekdayOf(date)
  if (!loose && days.hedged.some((d) => d !== day)) return false
  const onDay = dates.some((d) => dateMatches(d, date)) || (loose && days.loose.includes(day))
  if (e.kind === 'date') return onDay
  if ((dates.length > 0 || days.loose.length > 0) && !onDay && !days.loose.includes(day)) return false
  return timesIn(local, loose).includes(localParts(e.iso, e.zone).minutes)
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
  if (offersAlternative(answer, expected))
    return { ok: false, note: 'the answer offers another value as an alternative to the expected one' }
  if (listsOther(answer, expected))
    return { ok: false, note: 'the answer lists another value of its kind beside the expected one' }
  return { ok: true, note: 'the answer states the expected fact and no wrong candidate' }
}

/**
 * Whether a text of any length commits to the expected fact as checkAnswer reads it (stated, not denied, no other
 * value offered or listed beside it), wrong candidates left to the caller: a mail's answer (docs/decisions/0460).
 */
export const commitsTo = (raw: string, e: Expected) =>
  states(raw, e) && !offersAlternative(raw, e) && !listsOther(raw, e)

/**
 * The words that offer the value after them as an alternative to the one before: "or", "nor", "or maybe/perhaps/…";
 * a hedge without an "or" ("maybe", "possibly", "alternatively", "otherwise", "if not", "could/might also be",
 * docs/decisions/0441); and a slash between two values ("14:00 / 15:00"), but not between numbers (a ratio "4/11").
 */
const OR_ALTERNATIVE = new RegExp(
  String.raw`\b(?:or|nor)\b(?:\s+(?:maybe|perhaps|possibly|else|rather|even))?|` +
    String.raw`\b(?:maybe|perhaps|possibly|probably|alternatively|otherwise|else|unless|if\s+not)\b|` +
    // A second choice offered by name ("12:30 (alt: 15:30)", "backup 2 May", "Hugo, fallback Liam": 0447).
    String.raw`\b(?:alt|alternatives?|backup|back-up|fallback|fall-back|plan\s+b|second\s+choice|failing\s+that)\b|` +
    String.raw`\b(?:could|might|may)\s+(?:also\s+|even\s+|well\s+)?be\b|\/`,
  'gi',
)
/**
 * A number offered as more of something ("4 confirmed, maybe 2 more"): an addition, not an alternative. "Later" alone
 * adds nothing: "4 or maybe 11 later" offers 11 (0451).
 */
const MORE = /^\s*(?:more|others?|additional|extra|further)\b/i
/** Where a clause ends, for the text either side of an "or". */
const CLAUSE = /[.;!?\n](?=\s|$)/g
/** A side that gives the time elsewhere ("or 8:30 UTC", "London time", "8:30 in Lisbon"): a conversion. */
const CONVERSION = /\b(?:utc|gmt|zone|time|local)\b|\bin\s+(?!the\b)[a-z]{3,}/
/** The units a side states ("%", a currency): an alternative in another unit is a conversion. */
const unitsOf = (side: string) =>
  [...new Set([...side.matchAll(UNIT)].map((m) => (/^p/.test(m[0]) ? '%' : m[0].replace(/^(usd)$/, '$'))))]
    .sort()
    .join(' ')
const UNIT = /%|\bper\s?cent\b|\bpercent\b|[$\u20ac\u00a3]|\b(?:usd|eur|gbp|chf)\b/g
/** How far either side of an "or" its values are looked for. */
const ALTERNATIVE_REACH = 40

/**
 * A value put after another as a question ("12:30 (15:30?)", "12:30, 15:30?", "4 (11?)"; docs/decisions/0443): read
 * as "or" that value, a hedge. Only a bare value questioned right after a comma, semicolon or bracket counts: digits,
 * time and money signs, am/pm, month and weekday words, "the" and ordinals; a question with other words ("(is 13:00
 * ok too?)", "(11 invited?)", "(19:30 UTC?)") is left as written, and so are plain lists without a question mark.
 */
function questioned(text: string): string {
  return text.replace(/([,;(]\s*)((?:[^,;()?\n]|,(?=\d)){1,24}?)\s*\?\s*\)?/g, (whole, lead: string, v: string) =>
    /\d/.test(v) && v.replace(BARE_VALUE, '').trim() === '' ? `${lead.replace(/[,;(]/, '')} or ${v}.` : whole,
  )
}
const BARE_VALUE = new RegExp(
  String.raw`\d+(?:st|nd|rd|th)?|[$\u20ac\u00a3%:.,\s/-]|\b(?:a\.?m|p\.?m|the|on|at)\b\.?|` +
    String.raw`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?`,
  'gi',
)

/**
 * Whether the answer offers the expected value and another value of the same kind as alternatives ("42 or 43", "18
 * June or 20 June", "3pm, or maybe 5pm"; docs/decisions/0415): the value nearest an "or" on one side is the expected
 * one and the nearest on the other side is not. Only values the answer does not deny count; for times, a side that
 * names a zone or a place's time ("or 8:30 UTC", "London time", "13:30 Paris") is a conversion, not an alternative,
 * when it is the same instant (zone labels and cities are read by `localiseZoned`, so "12:30 (or 18:30 UTC)" offers
 * two instants only when they differ: 0444; a side whose place is not read, "your time", is a conversion); for
 * numbers, a side in another unit ("or 12% of the budget", "or €44,000") is a conversion. A name with another name
 * across an "or" is read by name-hedge.ts (0418). Lists without an "or" ("41, 42, 43") are read by `listsOther`
 * (0444); a list of names ("Hugo, Liam") is judged by the wrong candidates alone.
 */
export function offersAlternative(raw: string, e: Expected): boolean {
  if (e.kind === 'name') return offersOtherName(raw, [e.value, ...(e.aliases ?? [])])
  if (e.kind !== 'number' && e.kind !== 'date' && e.kind !== 'instant') return false
  const text = questioned(undenied(readerText(raw)))
  if (text.search(OR_ALTERNATIVE) < 0) return false
  // The values of a side, one list per kind (an instant's dates and its times apart), and the expected ones.
  const valuesOf = (side: string): string[][] => {
    if (e.kind === 'number') return [numbersIn(side).map(String)]
    if (e.kind === 'date') return [datesIn(side)]
    const local = localiseZoned(localiseIso(side, e.zone), e.zone, e.iso)
    return [datesIn(local), timesIn(local).map(String)]
  }
  const at = e.kind === 'instant' ? localParts(e.iso, e.zone) : undefined
  const day = e.kind === 'date' ? e.date : at?.date
  const want: string[][] =
    e.kind === 'number' ? [[String(e.value)]] : [[day!, day!.slice(5)], ...(at ? [[String(at.minutes)]] : [])]
  for (const m of text.matchAll(OR_ALTERNATIVE)) {
    if (m[0] === '/' && e.kind === 'number') continue
    // "42. Or 43": a sentence that starts with "or" continues the one before it.
    const before = text.slice(Math.max(0, m.index - ALTERNATIVE_REACH), m.index).replace(/[.;!?\s]+$/, '')
    const left = before.slice(Math.max(...[...before.matchAll(CLAUSE)].map((c) => c.index + 1), 0))
    let right = text.slice(m.index + m[0].length, m.index + m[0].length + ALTERNATIVE_REACH)
    const end = right.search(/[.;!?\n](?=\s|$)/)
    if (end >= 0) right = right.slice(0, end)
    // "4 June, or a week later", "4 June or so": the expected value before, moved or blurred after, in one sentence
    // ("4 June. Maybe a week later we'll know more" is a second thought, not a hedge: 0460).
    const sameSentence = !/[.;!?]\s*$/.test(text.slice(0, m.index))
    if (
      sameSentence &&
      relativeAlternative(right, e.kind) &&
      valuesOf(left).some((v, k) => want[k]!.includes(v.at(-1) ?? ''))
    )
      return true
    // A side in another zone or place's time is a conversion; one that names a zone or city this reads is judged
    // by its instant ("12:30 / 13:30 Paris" is one, "12:30 (or 19:30 UTC)" two: docs/decisions/0444).
    if (e.kind === 'instant' && CONVERSION.test(right) && localiseZoned(right, e.zone, e.iso) === right) continue
    // "$48,000, or 12% of the budget", "$48,000 or €44,000": the same amount in another unit, not an alternative.
    if (e.kind === 'number' && unitsOf(left.slice(-ALTERNATIVE_REACH / 2)) !== unitsOf(right) && unitsOf(right))
      continue
    if (e.kind === 'number' && MORE.test(right.replace(/^\D*?[\d.,]+\s*[km]?\b/i, ''))) continue
    const [ls, rs] = [valuesOf(left), valuesOf(right)]
    for (let k = 0; k < want.length; k++) {
      const l = ls[k]!.at(-1)
      const r = rs[k]![0]
      if (l && r && l !== r && (want[k]!.includes(l) || want[k]!.includes(r))) return true
    }
  }
  return false
}

const WEEKDAY_WORD = String.raw`(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?`
const YEAR = String.raw`(?:,?\s+\d{4}(?![\d:-]))?`
/** One value as a token, per kind (answer-lists.ts): a clock time, a date, an amount. */
const TOKENS = {
  // Also the spoken and military forms the wrong-candidate check reads loosely ("half past three", "three thirty",
  // "3 o'clock", "1530 hrs": 0447).
  time: new RegExp(
    String.raw`(?<![\w:.])(?:\d{1,2}[:.h]\d{2}(?:\s*[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?|` +
      String.raw`noon|midday|midnight|(?:[01]\d|2[0-3])[0-5]\d\s*(?:hrs?|hours|h)|\d{1,2}\s*o['\u2019]?\s*clock|` +
      String.raw`(?:half|quarter)\s+(?:past|to)\s+(?:\d{1,2}|${HOUR_WORDS.join('|')})|` +
      String.raw`(?:${HOUR_WORDS.join('|')})[\s-]+${MINUTE_WORDS})(?![\w:]|\.\d)`,
    'g',
  ),
  date: new RegExp(
    String.raw`\b${WEEKDAY_WORD}(?:\d{4}-\d{2}-\d{2}|` +
      String.raw`(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+${MON_EXACT}${YEAR}|` +
      String.raw`${MON_EXACT}\s+\d{1,2}(?:st|nd|rd|th)?\b${YEAR}|` +
      // Numeric dates, read both ways ("5/2", "2.5.2026": 0447).
      String.raw`(?<![\d./-])\d{1,2}[/.]\d{1,2}(?:[/.](?:\d{4}|\d{2}))?(?![\d/-]|\.\d))`,
    'g',
  ),
  number: new RegExp(
    String.raw`(?<![\w.,])[$\u20ac\u00a3]?\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?` +
      String.raw`(?:\s?(?:k|m|thousand|million)\b)?(?:\s?%)?(?:\s?(?:usd|eur|gbp|chf)\b)?`,
    'g',
  ),
}

/**
 * Whether the answer lists the expected value and another of its kind as a bare list ("12:30, 15:30", "4; 11",
 * "29 April and 2 May"; answer-lists.ts, docs/decisions/0444): a shotgun that names no planted candidate. Values
 * are read as `states` reads them (an instant's zone labels and cities at their instant, so "12:30, 20:30 UTC" lists
 * one instant); an amount in another unit ("$48,000, 12%") is a conversion, one without a unit is in the same. The
 * answer commits to the expected value, and lists nothing, when it also states it outside every list ("12:30 and
 * 15:30 are free; 12:30 is first").
 */
function listsOther(raw: string, e: Expected): boolean {
  if (e.kind === 'name') return false
  let all = undenied(readerText(raw))
  if (e.kind === 'instant') all = localiseZoned(localiseIso(all, e.zone), e.zone, e.iso)
  // Number words are values too ("four, six": 0447).
  if (e.kind === 'number') all = wordsAsDigits(all)
  const at = e.kind === 'instant' ? localParts(e.iso, e.zone) : undefined
  const day = e.kind === 'date' ? e.date : at?.date
  // Each value with every reading a person may give it ("5/2": 2 May or 5 February; "half past three": 3:30 or 15:30).
  type Kind = [RegExp, (t: Token) => string[]]
  const time: Kind = [TOKENS.time, (t) => timesIn(t.text, true).map(String)]
  const kinds: Kind[] =
    e.kind === 'number'
      ? [[TOKENS.number, (t) => numbersIn(t.text).map(String).slice(0, 1)]]
      : [[TOKENS.date, (t) => datesIn(t.text, /^\d+[/.]/.test(t.text))], ...(at ? [time] : [])]
  const want = (k: number, v: string) =>
    e.kind === 'number'
      ? Math.abs(Number(v) - e.value) < 0.005
      : k === 0
        ? dateMatches(v, day!)
        : v === String(at!.minutes)
  for (const [k, [re, valueOf]] of kinds.entries()) {
    // An instant's date and time are one value: each list is read with the other part left out ("12 March at 12:30,
    // 13 March at 15:30" lists two days; "Thursday 12 March at 12:30, 15:30" two times).
    const other = e.kind === 'instant' ? (k === 0 ? TOKENS.time : TOKENS.date) : undefined
    const text = other ? all.replace(new RegExp(String.raw`(?:\s+(?:at|on))?\s*(?:${other.source})`, 'g'), '') : all
    const tokens = tokensOf(text, re).filter((t) => valueOf(t).length > 0)
    // A value is the expected one when any reading of it is.
    const right = (t: Token) => valueOf(t).some((v) => want(k, v))
    // An amount beside a bare count ("$3,614.55, 2 reminders sent") counts two things.
    const apart = (a: Token, b: Token) => e.kind === 'number' && !unitsOf(a.text) !== !unitsOf(b.text)
    // Times and dates side by side are a list ("12:30 15:30"); numbers may be digit groups ("3 614.55").
    const spaced = e.kind !== 'number'
    const lists = listedPairs(text, tokens, apart, spaced).filter(([a, b]) => {
      // A slash between numbers is a ratio ("4/11") unless both are amounts ("$3,614.55 / $3,621.55").
      const slash = /\//.test(text.slice(a.at + a.text.length, b.at))
      return !(e.kind === 'number' && slash && !(unitsOf(a.text) && unitsOf(b.text)))
    })
    const pairs = lists.filter(([a, b]) => {
      const [ua, ub] = [unitsOf(a.text), unitsOf(b.text)]
      if (e.kind === 'number' && ua && ub && ua !== ub) return false
      return right(a) !== right(b)
    })
    if (pairs.length === 0) continue
    const listed = new Set(lists.flatMap(([a, b]) => [a.at, b.at]))
    if (tokens.some((t) => right(t) && !listed.has(t.at))) continue
    return true
  }
  return false
}
