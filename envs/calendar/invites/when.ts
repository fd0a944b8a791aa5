/**
 * The human "when" line of invitation mails, in the recipient's zone:
 * "Mon Mar 9, 2026 10am - 11am (EDT)", "Weekly on Monday from 10am to 11am (EDT)", "Mon Mar 9, 2026".
 */
import { DateTime } from 'luxon'
import { parseRecurrence } from '../time/recurrence-parse.ts'
import type { ResolvedTime } from '../time/zoned.ts'

const DAY_NAMES: Record<string, string> = { MO: 'Monday', TU: 'Tuesday', WE: 'Wednesday', TH: 'Thursday', FR: 'Friday', SA: 'Saturday', SU: 'Sunday' }
const NTH: Record<string, string> = { '1': 'first', '2': 'second', '3': 'third', '4': 'fourth', '5': 'fifth', '-1': 'last', '-2': 'second to last' }

const inZone = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).setLocale('en-US')

/** `10am`, `10:30am`, `12pm`. */
export function clockText(d: DateTime): string {
  const hour = d.hour % 12 === 0 ? 12 : d.hour % 12
  return `${hour}${d.minute ? `:${String(d.minute).padStart(2, '0')}` : ''}${d.hour < 12 ? 'am' : 'pm'}`
}

/** Short zone name in the recipient's zone at that instant (`EDT`, `GMT+5:30`). */
export const zoneAbbrev = (ms: number, zone: string) => inZone(ms, zone).offsetNameShort ?? zone

const dayText = (d: DateTime) => d.toFormat('ccc LLL d, yyyy')

/** `Weekly on Monday`, `Daily`, `Monthly on the last Friday`, `Annually on March 9`, with COUNT/UNTIL. */
export function ruleText(recurrence: string[], start: ResolvedTime, zone: string): string | undefined {
  const rule = parseRecurrence(recurrence).rules.find((r) => r.kind === 'RRULE')
  if (!rule) return undefined
  const part = (k: string) => rule.parts.find(([key]) => key === k)?.[1]
  const interval = Number(part('INTERVAL') ?? '1')
  const local = start.allDay ? DateTime.fromISO(start.date!, { zone: 'UTC' }).setLocale('en-US') : inZone(start.ms, zone)
  const byday = part('BYDAY')?.split(',')
  const every = (unit: string, plain: string) => (interval > 1 ? `Every ${interval} ${unit}` : plain)
  let text: string
  switch (part('FREQ')) {
    case 'DAILY':
      text = every('days', 'Daily')
      break
    case 'WEEKLY': {
      const days = byday ?? [local.toFormat('cccc').slice(0, 2).toUpperCase()]
      const names = days.join(',') === 'MO,TU,WE,TH,FR' ? 'weekdays' : days.map((d) => DAY_NAMES[d.slice(-2)]).join(', ')
      text = `${every('weeks', 'Weekly')} on ${names}`
      break
    }
    case 'MONTHLY': {
      const m = byday?.length === 1 ? /^([+-]?\d)(\w\w)$/.exec(byday[0]!) : null
      const on = m ? `the ${NTH[m[1]!.replace('+', '')] ?? m[1]} ${DAY_NAMES[m[2]!]}` : `day ${part('BYMONTHDAY') ?? local.day}`
      text = `${every('months', 'Monthly')} on ${on}`
      break
    }
    case 'YEARLY':
      text = `${every('years', 'Annually')} on ${local.toFormat('LLLL d')}`
      break
    default:
      text = 'Repeats'
  }
  const count = part('COUNT')
  const until = part('UNTIL')
  if (count) text += `, ${count} times`
  if (until) text += `, until ${DateTime.fromISO(`${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`).setLocale('en-US').toFormat('LLL d, yyyy')}`
  return text
}

/** The "when" of an event as the invitation shows it, in `zone`. */
export function whenText(start: ResolvedTime, end: ResolvedTime, zone: string, recurrence?: string[]): string {
  const rule = recurrence?.length ? ruleText(recurrence, start, zone) : undefined
  if (start.allDay) {
    const first = DateTime.fromISO(start.date!, { zone: 'UTC' }).setLocale('en-US')
    const last = DateTime.fromISO(end.date ?? start.date!, { zone: 'UTC' }).setLocale('en-US').minus({ days: 1 })
    if (rule) return rule
    return last > first ? `${dayText(first)} - ${dayText(last)}` : dayText(first)
  }
  const s = inZone(start.ms, zone)
  const e = inZone(end.ms, zone)
  const abbrev = `(${zoneAbbrev(start.ms, zone)})`
  if (rule) return `${rule} from ${clockText(s)} to ${clockText(e)} ${abbrev}`
  if (s.hasSame(e, 'day')) return `${dayText(s)} ${clockText(s)} - ${clockText(e)} ${abbrev}`
  return `${dayText(s)} ${clockText(s)} - ${dayText(e)} ${clockText(e)} ${abbrev}`
}
