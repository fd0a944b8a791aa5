import { stmt, type Db } from '../../core/db.ts'
import type { EventRow } from '../schema.ts'
import {
  calendarEvents,
  EVENT_COLUMNS,
  eventRowOf,
  instanceRow,
  occurrences,
  recurrenceOf,
  seriesTimes,
} from './events.ts'
import { iterateRecurrenceSlices, MAX_INSTANCES } from '../time/recurrence.ts'
import { turnTaker } from '../../core/turns.ts'
import { freezeRows, keptWhileUnwritten } from '../../core/write-epoch.ts'

export type Window = { min?: number; max?: number }

const overlaps = (r: Pick<EventRow, 'startMs' | 'endMs'>, w: Window) =>
  (w.max === undefined || r.startMs < w.max) &&
  (w.min === undefined || r.endMs > w.min || (r.endMs === r.startMs && r.startMs >= w.min))

// EVENT_COLUMNS and eventRowOf are read when a listing runs, never at load: events.ts and this module import each
// other (through rooms.ts), so this module may be evaluated first.
// Served by calendar_events_by_length (the expression must read exactly as the index's).
const LONGEST = 'SELECT max(end_ms - start_ms) FROM calendar_events WHERE calendar_id = ?'

/**
 * The rows single-event listings need, in no set order (both callers order what they return by start, then id;
 * sorting whole rows in SQL cost more than sorting the few kept ones in JS): every series, the one-off rows
 * (exceptions included) overlapping the window, and — with `includeCancelled` — every cancelled row. Read through
 * indexes, so a week of a calendar costs what the week holds. `exceptionIds` are all the calendar's exception
 * ids (an exception moved out of the window still replaces its original occurrence).
 */
function windowRows(db: Db, calendarId: string, w: Window, includeCancelled: boolean): WindowRows {
  // Kept while calendar_events is unwritten (docs/decisions/0319): a listing asked again reads no rows.
  // The calendar id last: the other parts hold no NUL, so no two inputs make one key.
  const key = `rows\u0000${w.min}\u0000${w.max}\u0000${includeCancelled}\u0000${calendarId}`
  const read = () => readWindowRows(db, calendarId, w, includeCancelled)
  // Kept rows are handed to many listings: frozen, so that none can change what the next one reads.
  return keptWhileUnwritten(db.$client, 'calendar_events', key, read, ({ rows }) => freezeRows(rows))
}

/** What windowRows reads. */
type WindowRows = { rows: readonly EventRow[]; exceptionIds: ReadonlySet<string> }

function readWindowRows(db: Db, calendarId: string, w: Window, includeCancelled: boolean): WindowRows {
  const overlap: string[] = []
  const params: unknown[] = [calendarId]
  // overlaps(): start < max, and end > min or a zero-length event starting at or after min (so end = start = min).
  if (w.max !== undefined) {
    overlap.push('start_ms < ?')
    params.push(w.max)
    // A row starting before max ends before max plus the calendar's longest event: with this bound the end_ms
    // index scans what the window holds, not every later event (decision 0294).
    const longest = stmt(db, LONGEST).pluck().get(calendarId) as number | null
    if (longest !== null) {
      overlap.push('end_ms <= ?')
      params.push(w.max + Math.max(0, longest))
    }
  }
  if (w.min !== undefined) {
    overlap.push('end_ms >= ?', '(end_ms > ? OR end_ms = start_ms)')
    params.push(w.min, w.min)
  }
  const from = `SELECT ${EVENT_COLUMNS} FROM calendar_events WHERE calendar_id = ?`
  const oneOff = `${from} AND recurrence IS NULL AND status != 'cancelled'`
  const series = `${from} AND recurrence IS NOT NULL`
  const cancelled = `${from} AND recurrence IS NULL AND status = 'cancelled'`
  const parts = [[oneOff, ...overlap].join(' AND '), series, ...(includeCancelled ? [cancelled] : [])]
  const all = params.concat([calendarId], includeCancelled ? [calendarId] : [])
  const read = stmt(db, `/* window rows */ ${parts.join(' UNION ALL ')}`)
    .raw()
    .all(...all) as unknown[][]
  const rows = read.map(eventRowOf)
  const exceptions = stmt(db, 'SELECT id FROM calendar_events WHERE calendar_id = ? AND recurring_event_id IS NOT NULL')
  const exceptionIds: ReadonlySet<string> = new Set(exceptions.pluck().all(calendarId) as string[])
  return { rows, exceptionIds }
}

/** The latest `updatedMs` of any row of the calendar (the listing's `updated`), kept as windowRows keeps rows. */
function lastUpdated(db: Db, calendarId: string): number {
  return keptWhileUnwritten(db.$client, 'calendar_events', `updated\u0000${calendarId}`, () => {
    const latest = stmt(db, 'SELECT max(updated_ms) FROM calendar_events WHERE calendar_id = ?').pluck().get(calendarId)
    return (latest as number | null) ?? 0
  })
}

/**
 * Events of a calendar as single events (`singleEvents=true`): one-off events, stored exceptions and the
 * virtual instances of each series in the window (an occurrence with a stored exception is replaced by it).
 */
export function singleEvents(db: Db, calendarId: string, w: Window, includeCancelled: boolean): EventRow[] {
  const { rows, exceptionIds } = windowRows(db, calendarId, w, includeCancelled)
  const out: EventRow[] = []
  for (const r of rows) {
    if (r.recurrence) {
      if (r.status === 'cancelled') {
        if (includeCancelled) out.push(r)
        continue
      }
      const times = seriesTimes(r)
      for (const o of occurrences(r, w.min, w.max)) {
        const inst = instanceRow(r, o, times)
        if (!exceptionIds.has(inst.id)) out.push(inst)
      }
      continue
    }
    if (r.status === 'cancelled' && !includeCancelled) continue
    if (r.status === 'cancelled' || overlaps(r, w)) out.push(r)
  }
  return out.sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** Series and one-off events (`singleEvents=false`): a series is listed when any occurrence falls in the window. */
export function seriesEvents(db: Db, calendarId: string, w: Window, includeCancelled: boolean): EventRow[] {
  const rows = calendarEvents(db, calendarId)
  const cancelledSeries = new Set(rows.filter((r) => r.recurrence && r.status === 'cancelled').map((r) => r.id))
  return rows.filter((r) => {
    // Cancelled instances of a live series are listed even without showDeleted when singleEvents is false (documented).
    if (r.status === 'cancelled')
      return includeCancelled || (!!r.recurringEventId && !cancelledSeries.has(r.recurringEventId) && overlaps(r, w))
    if (!r.recurrence) return overlaps(r, w)
    if (w.min === undefined && w.max === undefined) return true
    return occurrences(r, w.min, w.max, 1).length > 0
  })
}

const before = (a: EventRow, b: EventRow) => a.startMs < b.startMs || (a.startMs === b.startMs && a.id < b.id)

/** What singleEventsPage answers: the page, whether more follows, the calendar's `updated` and instance series. */
export type SingleEventsPage = {
  page: EventRow[]
  more: boolean
  updatedMs: number
  seriesOf: Map<EventRow, EventRow>
}

/**
 * One page of `singleEvents` (same order: start, then id) computed lazily: each series is expanded a slice
 * at a time and the streams are merged, so a first page over a year of many series expands only a few weeks.
 * `keep` filters stored rows and series (instances share their series' fields). `more` tells whether a
 * further item exists after the page. Without a series the page is answered at once (no promise): only the merge
 * of series is asynchronous, in its own function, so a calendar of one-off events runs (and V8 optimises) a small
 * synchronous function (docs/decisions/0380).
 */
export function singleEventsPage(
  db: Db,
  calendarId: string,
  w: Window,
  includeCancelled: boolean,
  keep: (r: EventRow) => boolean,
  offset: number,
  count: number,
): SingleEventsPage | Promise<SingleEventsPage> {
  // Expanding thousands of instances (a BYSECOND series is 86,400 a day) gives other requests a turn meanwhile.
  const turns = turnTaker()
  const { rows, exceptionIds } = windowRows(db, calendarId, w, includeCancelled)
  const plain: EventRow[] = []
  // A stream yields null between slices of a series (a turn may be handed over there).
  const streams: Iterator<EventRow | null>[] = []
  // Virtual instances → their series, so the caller can render a series' shared fields once.
  const seriesOf = new Map<EventRow, EventRow>()
  for (const r of rows) {
    if (!keep(r)) continue
    if (r.recurrence && r.status !== 'cancelled') {
      streams.push(seriesStream(r, w, exceptionIds, seriesOf))
      continue
    }
    if (r.status === 'cancelled' ? includeCancelled : overlaps(r, w)) plain.push(r)
  }
  plain.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
  const need = offset + count + 1
  // Without a series there is nothing to merge: the merge below would take the sorted rows in this order, one await
  // (and one turn check) per row; the page is cut from them directly.
  if (!streams.length) {
    const out = plain.length > need ? plain.slice(0, need) : plain
    const page = out.slice(offset, offset + count)
    return { page, more: out.length > offset + count, updatedMs: lastUpdated(db, calendarId), seriesOf }
  }
  streams.push(plain[Symbol.iterator]())
  return mergedPage(db, calendarId, streams, turns, need, offset, count, seriesOf)
}

/** A series' instances in the window, a slice at a time (null between slices), exceptions left out. */
function seriesStream(
  r: EventRow,
  w: Window,
  exceptionIds: ReadonlySet<string>,
  seriesOf: Map<EventRow, EventRow>,
): Iterator<EventRow | null> {
  const times = seriesTimes(r)
  const it = iterateRecurrenceSlices({
    recurrence: recurrenceOf(r) ?? [],
    start: times.resolvedStart,
    durationMs: r.endMs - r.startMs,
    windowStartMs: w.min,
    windowEndMs: w.max,
  })
  return (function* () {
    let n = 0
    for (const o of it) {
      if (o === null) {
        yield null
        continue
      }
      // Deviation: as in the eager expansion, at most MAX_INSTANCES (730) occurrences of one series per listing.
      if (++n > MAX_INSTANCES) return
      const inst = instanceRow(r, o, times)
      if (exceptionIds.has(inst.id)) continue
      seriesOf.set(inst, r)
      yield inst
    }
  })()
}

/** singleEventsPage's merge of the series' streams and the sorted one-off rows (the last stream). */
async function mergedPage(
  db: Db,
  calendarId: string,
  streams: Iterator<EventRow | null>[],
  turns: ReturnType<typeof turnTaker>,
  need: number,
  offset: number,
  count: number,
  seriesOf: Map<EventRow, EventRow>,
): Promise<SingleEventsPage> {
  // The next instance of stream i, handing over turns while the stream works through empty slices.
  const head = async (i: number): Promise<IteratorResult<EventRow>> => {
    for (;;) {
      const r = streams[i]!.next()
      if (r.done || r.value !== null) return r as IteratorResult<EventRow>
      await turns.maybeYield()
    }
  }
  const heads: IteratorResult<EventRow>[] = []
  // Each series' first slice (its table of times built, its walk up to the window): a turn between series.
  for (let i = 0; i < streams.length; i++) {
    heads.push(await head(i))
    await turns.maybeYield()
  }
  const out: EventRow[] = []
  while (out.length < need) {
    let best = -1
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!
      if (!h.done && (best < 0 || before(h.value, (heads[best] as IteratorYieldResult<EventRow>).value))) best = i
    }
    if (best < 0) break
    out.push((heads[best] as IteratorYieldResult<EventRow>).value)
    heads[best] = await head(best)
    await turns.maybeYield()
  }
  return {
    page: out.slice(offset, offset + count),
    more: out.length > offset + count,
    updatedMs: lastUpdated(db, calendarId),
    seriesOf,
  }
}
