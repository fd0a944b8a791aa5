/**
 * Lets rrule start near a window instead of at the series start. rrule walks every occurrence from DTSTART,
 * so an old daily series costs years of steps before the window. For a rule without COUNT, the occurrence set
 * after the start of any in-phase period (a whole number of INTERVALs from DTSTART's period) is the same as
 * the original's, provided the parts rrule derives from DTSTART (weekday, month day, time) are written out.
 */
import type { Options } from 'rrule'

const DAY = 86_400_000
// rrule's Frequency values.
const YEARLY = 0
const MONTHLY = 1
const WEEKLY = 2
const DAILY = 3

/** rrule weekday number (0 = Monday) of a floating time. */
const weekdayOf = (d: Date) => (d.getUTCDay() + 6) % 7

const weekdayNumber = (w: unknown): number => (typeof w === 'number' ? w : (w as { weekday: number }).weekday)

/**
 * Rewrites `o` (options whose `dtstart` is a floating Date) so iteration begins at least one period before
 * `lo`. Returns `o` untouched when the rule has COUNT, a sub-daily frequency, or starts close enough already.
 */
export function jumpTowards(o: Partial<Options>, lo: number): Partial<Options> {
  const start = o.dtstart
  const freq = o.freq
  if (!start || o.count != null || freq == null || freq > DAILY || lo - start.getTime() < 60 * DAY) return o
  const n = o.interval ?? 1
  const out: Partial<Options> = { ...o }
  // The defaults rrule would take from DTSTART, made explicit.
  const hasBy = o.byweekno != null || o.byyearday != null || o.bymonthday != null || o.byweekday != null
  if (!hasBy) {
    if (freq === YEARLY) {
      out.bymonth = o.bymonth ?? start.getUTCMonth() + 1
      out.bymonthday = start.getUTCDate()
    } else if (freq === MONTHLY) out.bymonthday = start.getUTCDate()
    else if (freq === WEEKLY) out.byweekday = [weekdayOf(start)]
  }
  out.byhour = o.byhour ?? start.getUTCHours()
  out.byminute = o.byminute ?? start.getUTCMinutes()
  out.bysecond = o.bysecond ?? start.getUTCSeconds()

  const target = new Date(lo)
  let periodStart: number
  switch (freq) {
    case DAILY: {
      const day0 = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate())
      const k = Math.floor((lo - day0) / DAY / n) - 1
      periodStart = day0 + k * n * DAY
      break
    }
    case WEEKLY: {
      const wkst = o.wkst == null ? 0 : weekdayNumber(o.wkst)
      const day0 =
        Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()) -
        ((weekdayOf(start) - wkst + 7) % 7) * DAY
      const k = Math.floor((lo - day0) / (7 * DAY) / n) - 1
      periodStart = day0 + k * n * 7 * DAY
      break
    }
    case MONTHLY: {
      const months =
        (target.getUTCFullYear() - start.getUTCFullYear()) * 12 + target.getUTCMonth() - start.getUTCMonth()
      const k = Math.floor(months / n) - 1
      periodStart = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k * n, 1)
      break
    }
    default: {
      const k = Math.floor((target.getUTCFullYear() - start.getUTCFullYear()) / n) - 1
      periodStart = Date.UTC(start.getUTCFullYear() + k * n, 0, 1)
    }
  }
  if (periodStart <= start.getTime()) return o
  out.dtstart = new Date(periodStart)
  return out
}
