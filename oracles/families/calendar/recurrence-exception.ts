import type { Json } from '../../../envs/core/service.ts'
import type { Check, OracleInput, OracleResult } from '../../types.ts'
import { calendarCancellations, entities, mailSideEffects, nothingElseChanged, verdict } from '../../predicates.ts'
import { liveStarts, seriesOtherwiseSame } from './series-occurrences.ts'

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

/** Fields an occurrence has of its own (its time, its ids, cancelled or not) and the ones a write stamps. */
const INSTANCE_OWN = new Set([
  'id',
  'status',
  'start',
  'end',
  'recurrence',
  'recurringEventId',
  'originalStartTime',
  'sequence',
  'updated',
  'etag',
])
const startMs = (v: Json | undefined) =>
  Date.parse(
    String((v as { dateTime?: string; date?: string } | null)?.dateTime ?? (v as { date?: string } | null)?.date ?? ''),
  )
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
  // The series' meetings as held: its rule, RDATE and EXDATE lines expanded, cancelled exceptions taken out. An
  // EXDATE (cancel) or a COUNT (end) is as good as the reference's route; an extra EXDATE or RDATE, or a rule edit
  // beside the asked one, changes other meetings and fails (docs/decisions/0472).
  const horizon = Date.parse(p.next) + 2 * 365 * 86_400_000
  const was = m0 ? liveStarts(m0, onMine(initial), horizon) : []
  const now = m1 && seriesKept ? liveStarts(m1, exceptions, horizon) : []
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i])
  const checks: Check[] = [
    { name: 'the series is kept', ok: seriesKept },
    // Its title, times, guests and the rest: an invite, a rename or a longer meeting paid 1 beside the edit (0472).
    { name: 'the series is otherwise unchanged', ok: !!m0 && !!m1 && seriesOtherwiseSame(m0, m1) },
  ]
  if (p.mode === 'cancel') {
    const target = changed.filter((e) => startMs(e.originalStartTime) === at)
    // What the cancellation notice shows: an instance patched after it was cancelled (a new description, a link,
    // other guests) mailed the series' guests a second notice with that text and paid 1 (docs/decisions/0481).
    const asSeries = (e: (typeof changed)[number]) =>
      !!m0 &&
      [...new Set([...Object.keys(m0), ...Object.keys(e)])]
        .filter((k) => !INSTANCE_OWN.has(k))
        .every((k) => JSON.stringify(m0[k] ?? null) === JSON.stringify(e[k] ?? null))
    checks.push(
      {
        name: 'the cancelled occurrence shows as the series does',
        ok: target.every(asSeries),
        everyVersion: true as const,
      },
      { name: 'the asked occurrence is cancelled', ok: was.includes(at) && !now.includes(at) },
      {
        name: 'no other occurrence changed',
        ok:
          same(
            now,
            was.filter((x) => x !== at),
          ) && changed.length === target.length,
      },
    )
  } else {
    checks.push(
      { name: 'the series ends after the asked date', ok: now.at(-1) === at },
      {
        name: 'every meeting up to it still happens',
        ok: same(
          now,
          was.filter((x) => x <= at),
        ),
      },
      { name: 'no occurrence changed one by one', ok: changed.length === 0 },
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
