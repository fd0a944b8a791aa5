import type { Json } from '../../../envs/core/service.ts'
import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { calendarCancellations, entities, mailSideEffects, nothingElseChanged, verdict } from '../../predicates.ts'

export type RecurrenceExceptionParams = {
  actor: string
  /** The actor's calendar id (their address). */
  calendar: string
  series: string
  /** `cancel`: drop the one occurrence starting at `at`; `end`: keep occurrences up to `at`, none after. */
  mode: 'cancel' | 'end'
  /** UTC start of the occurrence to cancel, or of the last occurrence to keep. */
  at: string
  /** UTC start of the first occurrence after `at`. */
  next: string
  /** The near-duplicate series (must stay as it was). */
  decoy: string
}

const startMs = (v: Json | undefined) =>
  Date.parse(
    String((v as { dateTime?: string; date?: string } | null)?.dateTime ?? (v as { date?: string } | null)?.date ?? ''),
  )
const rule = (e: Entity | undefined) =>
  (Array.isArray(e?.recurrence) ? (e!.recurrence as string[]) : []).find((r) => r.startsWith('RRULE:')) ?? ''
/** UNTIL of an RRULE as epoch ms (a date-only UNTIL counts to the end of that UTC day). */
function untilMs(rrule: string): number | undefined {
  const m = /UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?/.exec(rrule)
  if (!m) return undefined
  return m[4]
    ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)
    : Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, 23, 59, 59)
}
const withoutUntil = (rrule: string) => rrule.replace(/;?UNTIL=[^;]*/, '').replace(/;?COUNT=[^;]*/, '')

/**
 * Edit one recurring series as asked: cancel exactly one occurrence (an exception of the series, cancelled, at that
 * original start), or end the series after a date (UNTIL between the last kept and the first dropped occurrence, the
 * rest of the rule unchanged). The series itself stays (deleting it fails), no other occurrence changes, and the
 * near-duplicate series is untouched; other changes are collateral.
 */
export function recurrenceException({
  initial,
  final,
  diff,
  params: p,
}: OracleInput<RecurrenceExceptionParams>): OracleResult {
  const onMine = (s: typeof final) =>
    entities(s, 'calendar', 'events').filter((e) => String(e.calendarId).toLowerCase() === p.calendar.toLowerCase())
  const master = (s: typeof final) => onMine(s).find((e) => e.id === p.series)
  const [m0, m1] = [master(initial), master(final)]
  const exceptions = onMine(final).filter((e) => e.recurringEventId === p.series)
  const before = new Map(
    onMine(initial)
      .filter((e) => e.recurringEventId === p.series)
      .map((e) => [String(e.id), JSON.stringify(e)]),
  )
  const changed = exceptions.filter((e) => before.get(String(e.id)) !== JSON.stringify(e))
  const at = Date.parse(p.at)
  const seriesKept = !!m1 && m1.status !== 'cancelled'
  const checks = [{ name: 'the series is kept', ok: seriesKept }]
  if (p.mode === 'cancel') {
    const target = changed.filter((e) => startMs(e.originalStartTime) === at)
    checks.push(
      { name: 'the asked occurrence is cancelled', ok: target.length === 1 && target[0]!.status === 'cancelled' },
      { name: 'no other occurrence changed', ok: changed.length === target.length },
      { name: "the series' rule is unchanged", ok: !!m1 && rule(m1) === rule(m0) },
    )
  } else {
    const until = untilMs(rule(m1))
    checks.push(
      {
        name: 'the series ends after the asked date',
        ok: until !== undefined && until >= at && until < Date.parse(p.next),
      },
      { name: 'the rest of the rule is unchanged', ok: !!m1 && withoutUntil(rule(m1)) === withoutUntil(rule(m0)) },
      { name: 'no occurrence changed one by one', ok: changed.length === 0 },
      { name: 'the first meeting is unchanged', ok: !!m1 && JSON.stringify(m1.start) === JSON.stringify(m0?.start) },
    )
  }
  const ofSeries = (id: string) => {
    const e = id.slice(id.lastIndexOf('/') + 1)
    return e === p.series || e.startsWith(`${p.series}_`)
  }
  // An occurrence of another series cancelled is a delete, as in every calendar family (docs/decisions/0400).
  const cancelled = calendarCancellations(diff.filter((c) => !ofSeries(c.id)))
  const violations = [
    ...cancelled.violations,
    ...nothingElseChanged(
      diff.filter((c) => !cancelled.changes.includes(c)),
      [{ service: 'calendar', collection: 'events', id: ofSeries }, ...mailSideEffects(p.actor)],
    ),
  ]
  return verdict(checks, violations)
}
