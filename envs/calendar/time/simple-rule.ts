/**
 * A direct expander for the rules calendars mostly hold: FREQ=DAILY/WEEKLY/MONTHLY/YEARLY with INTERVAL, COUNT,
 * UNTIL, WKST, BYDAY, BYMONTHDAY, BYMONTH, BYYEARDAY (YEARLY), BYSETPOS and BYHOUR/BYMINUTE/BYSECOND. It yields
 * the same floating times as rrule, in the same order (rrule's period-by-period walk and its filters, read from
 * rrule 2.8's `iter`/`isFiltered`/`buildPoslist`), without rrule's per-call setup and per-period year masks, and
 * it can start near a window instead of at DTSTART. Times of day are visited one by one from a table built once
 * per rule, where rrule builds a `Date` for each of them on every day it steps into (86,400 for a
 * `BYHOUR×BYMINUTE×BYSECOND` rule), so a walk costs the occurrences it passes, not the days; a rule that
 * matches nothing stops after one 400-year cycle. Anything else (BYWEEKNO, sub-daily frequencies) stays with
 * rrule. tests/calendar/time/simple-rule.test.ts compares the two over many random rules.
 */

import { BoundedMap } from '../../core/bounded-map.ts'

const DAY = 86_400_000
/** rrule stops once its period counter passes this year. */
const MAX_YEAR = 9999
const FIRST_DAY_PAST_MAX = Date.UTC(MAX_YEAR + 1, 0, 1) / DAY
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']
const FREQS = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] as const
const HANDLED = new Set([
  'FREQ',
  'INTERVAL',
  'COUNT',
  'BYDAY',
  'BYMONTHDAY',
  'BYMONTH',
  'BYYEARDAY',
  'WKST',
  'BYHOUR',
  'BYMINUTE',
  'BYSECOND',
  'BYSETPOS',
])
/**
 * Periods of each frequency in one 400-year Gregorian cycle (146,097 days, a whole number of weeks): the walk's
 * periods repeat modulo the cycle, so a rule whose days match in none of that many periods in a row never will.
 */
const CYCLE = { DAILY: 146_097, WEEKLY: 20_871, MONTHLY: 4_800, YEARLY: 400 }

type Freq = (typeof FREQS)[number]

/** rrule's weekday number (0 = Monday) of a day number (days since 1970-01-01, a Thursday). */
const weekdayOfDay = (dn: number) => (((dn + 3) % 7) + 7) % 7

/** Floor division that also works for days before 1970. */
const floorDiv = (a: number, b: number) => Math.floor(a / b)

/** A BY list's values once each, in the order written (the RFC's lists are sets; rrule would repeat a value). */
const once = (values: number[]) => [...new Set(values)]

/**
 * Times of day (ms after midnight) in rrule's order: BYHOUR, then BYMINUTE, then BYSECOND as written (rrule does
 * not sort them), each defaulting to DTSTART's. BYSECOND=60 is the next minute's :00, as rrule computes it.
 */
function timesOfDay(dtstart: Date, byhour?: number[], byminute?: number[], bysecond?: number[]): TimesOfDay {
  const hours = once(byhour ?? [dtstart.getUTCHours()])
  const minutes = once(byminute ?? [dtstart.getUTCMinutes()])
  const seconds = once(bysecond ?? [dtstart.getUTCSeconds()])
  const key = `${hours}/${minutes}/${seconds}`
  const known = timeTables.get(key)
  if (known) return known
  const out = new Array<number>(hours.length * minutes.length * seconds.length)
  let i = 0
  for (const h of hours) for (const m of minutes) for (const s of seconds) out[i++] = ((h * 60 + m) * 60 + s) * 1000
  const table = { times: out, sorted: out.every((t, k) => k === 0 || out[k - 1]! < t) }
  timeTables.set(key, table)
  return table
}

/** A rule's times of day, in emission order, and whether they ascend. Shared by every rule of the same BY lists. */
type TimesOfDay = { readonly times: readonly number[]; readonly sorted: boolean }

/**
 * Tables by their hours/minutes/seconds lists, the oldest dropped past the limit: a listing prepares each of its
 * series again, and a BYHOUR×BYMINUTE×BYSECOND table is 86,400 entries.
 */
const timeTables = new BoundedMap<string, TimesOfDay>(64)

/**
 * BYSETPOS over one period, as rrule 2.8's `buildPoslist` computes it: position p names day ⌊p/|times|⌋ of the
 * matching days and time p mod |times| (counted from the end for p < 0; rrule then takes the first day when p
 * reaches before it), ascending; positions past the last day name nothing.
 */
function pickPositions(setpos: number[], days: number[], times: readonly number[]): number[] {
  const out: number[] = []
  if (!days.length) return out
  const n = times.length
  for (const pos of setpos) {
    const p = pos < 0 ? pos : pos - 1
    const daypos = Math.floor(p / n)
    const timepos = ((p % n) + n) % n
    const dn = daypos < 0 ? days[Math.max(0, days.length + daypos)] : days[daypos]
    if (dn !== undefined) out.push(dn * DAY + times[timepos]!)
  }
  return out.sort((a, b) => a - b)
}

/** First index of the ascending `times` whose time is at or after `t`. */
function firstAtOrAfter(times: readonly number[], t: number): number {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (times[mid]! < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

export class SimpleRule {
  private constructor(
    private readonly freq: Freq,
    private readonly interval: number,
    /** Occurrences left to emit from DTSTART on; undefined when the rule has no COUNT. */
    readonly count: number | undefined,
    private readonly until: number | undefined,
    private readonly wkst: number,
    private readonly byweekday: number[] | undefined,
    private readonly bynweekday: [number, number][] | undefined,
    private readonly bymonthday: number[],
    private readonly bynmonthday: number[],
    private readonly bymonth: number[] | undefined,
    private readonly byyearday: Set<number> | undefined,
    /** Times of day of each matching day, in emission order, and whether they ascend. */
    private readonly table: TimesOfDay,
    private readonly bysetpos: number[] | undefined,
    private readonly dtstart: number,
  ) {}

  /**
   * The rule for `parts` (already without UNTIL, and for all-day events without time parts) starting at the
   * floating `dtstart`, or undefined when rrule must expand it.
   */
  static of(
    parts: readonly (readonly [string, string])[],
    dtstart: number,
    until: number | undefined,
  ): SimpleRule | undefined {
    if (!Number.isFinite(dtstart) || dtstart % 1000 !== 0 || dtstart >= Date.UTC(MAX_YEAR, 0, 1)) return undefined
    const get = (k: string) => parts.find(([key]) => key === k)?.[1]
    if (parts.some(([k]) => !HANDLED.has(k))) return undefined
    const freq = FREQS.find((f) => f === get('FREQ'))
    if (!freq) return undefined
    const ints = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map(Number))
    const start = new Date(dtstart)
    let bymonth = ints(get('BYMONTH'))
    const monthdays = ints(get('BYMONTHDAY'))
    let bymonthday = monthdays?.filter((d) => d > 0) ?? []
    const bynmonthday = monthdays?.filter((d) => d < 0) ?? []
    let byweekday: number[] | undefined
    let bynweekday: [number, number][] | undefined
    const byday = get('BYDAY')
    if (byday !== undefined) {
      const plain: number[] = []
      const nth: [number, number][] = []
      for (const item of byday.split(',')) {
        const m = /^([+-]?\d+)?([A-Z]{2})$/.exec(item)
        if (!m) return undefined
        const wd = WEEKDAYS.indexOf(m[2]!)
        const n = m[1] === undefined ? 0 : Number(m[1])
        if (wd < 0) return undefined
        // rrule ignores the ordinal below MONTHLY.
        if (!n || freq === 'WEEKLY' || freq === 'DAILY') plain.push(wd)
        else nth.push([wd, n])
      }
      byweekday = plain.length ? plain : undefined
      bynweekday = nth.length ? nth : undefined
    }
    const yeardays = ints(get('BYYEARDAY'))
    if (yeardays && freq !== 'YEARLY') return undefined
    // rrule's defaults from DTSTART when no day part is given.
    if (!monthdays && byday === undefined && !yeardays) {
      if (freq === 'YEARLY') {
        bymonth ??= [start.getUTCMonth() + 1]
        bymonthday = [start.getUTCDate()]
      } else if (freq === 'MONTHLY') bymonthday = [start.getUTCDate()]
      else if (freq === 'WEEKLY') byweekday = [weekdayOfDay(floorDiv(dtstart, DAY))]
    }
    const interval = Number(get('INTERVAL') ?? 1)
    const countText = get('COUNT')
    const wkstText = get('WKST')
    const wkst = wkstText === undefined ? 0 : WEEKDAYS.indexOf(wkstText)
    if (!(interval > 0) || wkst < 0) return undefined
    const table = timesOfDay(start, ints(get('BYHOUR')), ints(get('BYMINUTE')), ints(get('BYSECOND')))
    const count = countText === undefined ? undefined : Number(countText)
    const yearSet = yeardays ? new Set(yeardays) : undefined
    const setpos = ints(get('BYSETPOS'))
    return new SimpleRule(
      freq,
      interval,
      count,
      until,
      wkst,
      byweekday,
      bynweekday,
      bymonthday,
      bynmonthday,
      bymonth,
      yearSet,
      table,
      setpos,
      dtstart,
    )
  }

  /** The same rule with another COUNT (for "DTSTART is the first of COUNT"). */
  withCount(count: number): SimpleRule {
    const r = this
    return new SimpleRule(
      r.freq,
      r.interval,
      count,
      r.until,
      r.wkst,
      r.byweekday,
      r.bynweekday,
      r.bymonthday,
      r.bynmonthday,
      r.bymonth,
      r.byyearday,
      r.table,
      r.bysetpos,
      r.dtstart,
    )
  }

  /** The first occurrence from DTSTART, as rrule's `all()` with COUNT=1 finds it (searching up to year 9999). */
  first(): number | undefined {
    let found: number | undefined
    this.scan(-Infinity, Infinity, (f) => {
      found = f
      return false
    })
    return found
  }

  /**
   * Visits occurrences in ascending order until `visit` returns false, the rule ends (UNTIL, COUNT, year 9999)
   * or the next period starts after `stopAfter`. Without COUNT the walk begins one period before the one
   * holding `from`, so earlier occurrences may be skipped: only those at or after `from` are meant.
   */
  scan(from: number, stopAfter: number, visit: (f: number) => boolean): void {
    const startDay = floorDiv(this.dtstart, DAY)
    const { until, dtstart } = this
    const { times, sorted } = this.table
    let left = this.count ?? Infinity
    const skipTo = this.count === undefined && from > this.dtstart ? from : undefined
    // Times before DTSTART are never occurrences, and without COUNT neither are those before `from`: with ascending
    // times and no BYSETPOS (which picks among all of a period's days × times first), a day starts at its first
    // time at or after that floor (a dense day before it costs one search, not 86,400 visits).
    const setpos = this.bysetpos
    const floor = sorted && !setpos ? Math.max(dtstart, skipTo ?? -Infinity) : undefined
    // One occurrence; false once the walk must stop.
    const occurrence = (f: number): boolean => {
      if (until !== undefined && f > until) return false
      if (f >= dtstart) {
        if (!visit(f)) return false
        if (--left === 0) return false
      }
      return true
    }
    // The matching days of the current period (with BYSETPOS), and how many periods in a row matched nothing.
    const periodDays: number[] = []
    let matched = false
    let idle = 0
    // One matching day: each of its times (with BYSETPOS, kept for the end of the period); false once the walk
    // must stop.
    const emit = (dn: number): boolean => {
      matched = true
      if (setpos) {
        periodDays.push(dn)
        return true
      }
      const day = dn * DAY
      const first = floor !== undefined && day < floor ? firstAtOrAfter(times, floor - day) : 0
      for (let k = first; k < times.length; k++) if (!occurrence(day + times[k]!)) return false
      return true
    }
    // After each period: BYSETPOS picks among its days × times; false once the walk must stop (also when no
    // period of a whole 400-year cycle matched: a rule such as BYMONTH=2;BYMONTHDAY=30 never will).
    const endPeriod = (): boolean => {
      if (setpos) {
        const picked = pickPositions(setpos, periodDays, times)
        periodDays.length = 0
        matched = picked.length > 0
        for (const f of picked) if (!occurrence(f)) return false
      }
      idle = matched ? 0 : idle + 1
      matched = false
      return idle < CYCLE[this.freq]
    }
    const i = this.interval
    switch (this.freq) {
      case 'DAILY': {
        let dn = startDay
        if (skipTo !== undefined) dn += Math.max(0, floorDiv(floorDiv(skipTo, DAY) - startDay, i) - 1) * i
        for (;;) {
          if (this.dayMatches(dn) && !emit(dn)) return
          if (!endPeriod()) return
          dn += i
          if (dn >= FIRST_DAY_PAST_MAX || dn * DAY > stopAfter) return
        }
      }
      case 'WEEKLY': {
        const week0 = startDay - ((weekdayOfDay(startDay) - this.wkst + 7) % 7)
        let week = week0
        if (skipTo !== undefined) week += Math.max(0, floorDiv(floorDiv(skipTo, DAY) - week0, 7 * i) - 1) * 7 * i
        for (;;) {
          for (let dn = Math.max(week, startDay); dn < week + 7; dn++) if (this.dayMatches(dn) && !emit(dn)) return
          if (!endPeriod()) return
          week += 7 * i
          if (week >= FIRST_DAY_PAST_MAX || week * DAY > stopAfter) return
        }
      }
      case 'MONTHLY': {
        const start = new Date(this.dtstart)
        const month0 = start.getUTCFullYear() * 12 + start.getUTCMonth()
        let month = month0
        if (skipTo !== undefined) {
          const target = new Date(skipTo)
          month += Math.max(0, floorDiv(target.getUTCFullYear() * 12 + target.getUTCMonth() - month0, i) - 1) * i
        }
        for (;;) {
          const year = floorDiv(month, 12)
          if (!this.monthDays(year, month - year * 12, emit) || !endPeriod()) return
          month += i
          const next = floorDiv(month, 12)
          if (next > MAX_YEAR || Date.UTC(next, month - next * 12, 1) > stopAfter) return
        }
      }
      case 'YEARLY': {
        const year0 = new Date(this.dtstart).getUTCFullYear()
        let year = year0
        if (skipTo !== undefined) year += Math.max(0, floorDiv(new Date(skipTo).getUTCFullYear() - year0, i) - 1) * i
        for (;;) {
          for (let m = 0; m < 12; m++) if (!this.monthDays(year, m, emit)) return
          if (!endPeriod()) return
          year += i
          if (year > MAX_YEAR || Date.UTC(year, 0, 1) > stopAfter) return
        }
      }
    }
  }

  /** Emits the matching days of one month (month 0–11); false once the walk must stop. */
  private monthDays(year: number, month: number, emit: (dn: number) => boolean): boolean {
    if (this.bymonth && !this.bymonth.includes(month + 1)) return true
    const first = Date.UTC(year, month, 1) / DAY
    const len = Date.UTC(year, month + 1, 1) / DAY - first
    const yearFirst = Date.UTC(year, 0, 1) / DAY
    const yearLen = Date.UTC(year + 1, 0, 1) / DAY - yearFirst
    let wd = weekdayOfDay(first)
    for (let d = 1; d <= len; d++, wd = wd === 6 ? 0 : wd + 1) {
      if (this.byweekday && !this.byweekday.includes(wd)) continue
      if (this.bynweekday && !this.nthMatches(wd, d, len, first + d - 1 - yearFirst, yearLen)) continue
      if (
        (this.bymonthday.length || this.bynmonthday.length) &&
        !this.bymonthday.includes(d) &&
        !this.bynmonthday.includes(d - len - 1)
      )
        continue
      if (this.byyearday) {
        const yday = first + d - 1 - yearFirst
        if (!this.byyearday.has(yday + 1) && !this.byyearday.has(yday - yearLen)) continue
      }
      if (!emit(first + d - 1)) return false
    }
    return true
  }

  /**
   * Ordinal weekdays: within the month for MONTHLY, and for YEARLY within each BYMONTH month or else within
   * the year (rrule's `nwdaymask` ranges).
   */
  private nthMatches(wd: number, mday: number, monthLen: number, yday: number, yearLen: number): boolean {
    const inYear = this.freq === 'YEARLY' && !this.bymonth
    const pos = inYear ? yday : mday - 1
    const len = inYear ? yearLen : monthLen
    for (const [w, n] of this.bynweekday!) {
      if (w !== wd) continue
      if (n > 0 ? floorDiv(pos, 7) + 1 === n : floorDiv(len - 1 - pos, 7) + 1 === -n) return true
    }
    return false
  }

  /** DAILY and WEEKLY candidates: the filters of rrule's `isFiltered` that apply to them. */
  private dayMatches(dn: number): boolean {
    if (this.byweekday && !this.byweekday.includes(weekdayOfDay(dn))) return false
    if (!this.bymonth && !this.bymonthday.length && !this.bynmonthday.length) return true
    const d = new Date(dn * DAY)
    if (this.bymonth && !this.bymonth.includes(d.getUTCMonth() + 1)) return false
    if (this.bymonthday.length || this.bynmonthday.length) {
      const mday = d.getUTCDate()
      const len = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()
      if (!this.bymonthday.includes(mday) && !this.bynmonthday.includes(mday - len - 1)) return false
    }
    return true
  }
}
