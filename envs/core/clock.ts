import { noteMetaRead, stmt, type Db } from './db.ts'
import { seedingDefersMeta, seedingMemo } from './seeding-memo.ts'

// The virtual clock of a world lives in world_meta, so snapshots and restores carry it.
// It moves only (1) by `tick_ms` on each agent API request, up to `tick_limit_ms` in all when the world has
// one (gym episodes do: maxSteps × tick, so no agent pushes time further by sending requests), and (2) when
// the control plane sets or advances it. Every timestamp a service emits comes from `now()`.

/** Reading one key (server/state-since.ts tells this statement from other reads of world_meta by its text). */
export const GET_META_SQL = 'SELECT value FROM world_meta WHERE key = ?'
const PUT = 'INSERT INTO world_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'

export function getMeta(db: Db, key: string): string | undefined {
  noteMetaRead(db, key)
  const memo = seedingMemo(db)
  if (memo) return memo.meta.get(key)
  // The value alone (pluck): undefined when the key is unset, as the row's absence gave.
  return stmt(db, GET_META_SQL).pluck(true).get(key) as string | undefined
}

export function setMeta(db: Db, key: string, value: string): void {
  const memo = seedingMemo(db)
  if (memo && seedingDefersMeta(db, memo, key, value)) return
  stmt(db, PUT).run(key, value)
}

/** Virtual now, in epoch milliseconds. */
export function nowMs(db: Db): number {
  return Number(getMeta(db, 'clock_ms') ?? 0)
}

/** Virtual now as a Date. */
export function now(db: Db): Date {
  return new Date(nowMs(db))
}

/** RFC 3339 with milliseconds, as Google timestamps are written (`2026-03-01T09:00:00.000Z`). */
export function nowIso(db: Db): string {
  return now(db).toISOString()
}

export function setClock(db: Db, epochMs: number): void {
  setMeta(db, 'clock_ms', String(Math.trunc(epochMs)))
}

/** Milliseconds the clock moves on each agent request (default 1000). */
export function tickMs(db: Db): number {
  return Number(getMeta(db, 'tick_ms') ?? 1000)
}

export function setTick(db: Db, ms: number): void {
  setMeta(db, 'tick_ms', String(Math.max(0, Math.trunc(ms))))
}

export function advanceClock(db: Db, ms: number): number {
  const next = nowMs(db) + Math.max(0, Math.trunc(ms))
  setClock(db, next)
  return next
}

/** Caps the total time agent requests may move the clock from now on (`undefined` removes the cap). */
export function setTickLimit(db: Db, ms: number | undefined): void {
  if (ms === undefined) {
    stmt(db, "DELETE FROM world_meta WHERE key IN ('tick_limit_ms', 'ticked_ms')").run()
    return
  }
  setMeta(db, 'tick_limit_ms', String(Math.max(0, Math.trunc(ms))))
  setMeta(db, 'ticked_ms', '0')
}

/** The cap set by setTickLimit and how much of it requests used; undefined when there is no cap. */
export function tickLimit(db: Db): { limitMs: number; usedMs: number } | undefined {
  const limit = getMeta(db, 'tick_limit_ms')
  if (limit === undefined) return undefined
  return { limitMs: Number(limit), usedMs: Number(getMeta(db, 'ticked_ms') ?? 0) }
}

/** The clock keys an agent request's tick reads, in one statement (four getMeta reads and a repeat before). */
const REQUEST_TICK_SQL =
  "SELECT key, value FROM world_meta WHERE key IN ('tick_ms', 'tick_limit_ms', 'ticked_ms', 'clock_ms')"

/**
 * Where one agent request moves the clock (and the cap's new use, when the world has a cap).
 */
export type RequestTick = {
  from: number
  to: number
  tickedMs?: number
}

/** The four clock keys an agent request's tick reads, as stored (undefined when unset). */
export type ClockKeys = { tick?: string; limit?: string; used?: string; clock?: string }

/** The clock keys as scalar subqueries, in `ClockKeys` order: one row even when keys are unset. */
export const CLOCK_KEY_COLUMNS = ['tick_ms', 'tick_limit_ms', 'ticked_ms', 'clock_ms']
  .map((key) => `(SELECT value FROM world_meta WHERE key = '${key}')`)
  .join(', ')

/** `ClockKeys` from the four values of `CLOCK_KEY_COLUMNS` in a raw row, starting at `at`. */
export function clockKeysAt(row: readonly unknown[], at: number): ClockKeys {
  const value = (i: number) => (row[at + i] === null ? undefined : String(row[at + i]))
  return { tick: value(0), limit: value(1), used: value(2), clock: value(3) }
}

/**
 * What `takeRequestTick` then `advanceClock` would do for one agent request, from one read of the four keys and
 * without writing: undefined when the clock does not move (no tick, or the cap used up). `applyRequestTick`
 * writes it, inside the request's transaction. `keys`, when given, are the keys as read earlier in the same
 * synchronous turn (the agent app reads them with the token: nothing can write them in between).
 */
export function requestTick(db: Db, keys?: ClockKeys): RequestTick | undefined {
  const { tick, limit, used, clock } = keys ?? readClockKeys(db)
  noteMetaRead(db, 'tick_ms')
  let step = Number(tick ?? 1000)
  if (step === 0) return undefined
  noteMetaRead(db, 'tick_limit_ms')
  let tickedMs: number | undefined
  if (limit !== undefined) {
    noteMetaRead(db, 'ticked_ms')
    const usedMs = Number(used ?? 0)
    step = Math.max(0, Math.min(step, Number(limit) - usedMs))
    if (step === 0) return undefined
    tickedMs = usedMs + step
  }
  noteMetaRead(db, 'clock_ms')
  const from = Number(clock ?? 0)
  return { from, to: from + Math.max(0, Math.trunc(step)), tickedMs }
}

function readClockKeys(db: Db): ClockKeys {
  const rows = stmt(db, REQUEST_TICK_SQL).raw(true).all() as [string, string][]
  const keys: ClockKeys = {}
  for (const [key, value] of rows) {
    if (key === 'tick_ms') keys.tick = value
    else if (key === 'tick_limit_ms') keys.limit = value
    else if (key === 'ticked_ms') keys.used = value
    else keys.clock = value
  }
  return keys
}

const PUT_TWO =
  'INSERT INTO world_meta (key, value) VALUES (?, ?), (?, ?) ' + 'ON CONFLICT(key) DO UPDATE SET value = excluded.value'

/**
 * The uncapped tick's write: the row `requestTick` read the clock from, updated in place. It writes what setMeta's
 * upsert writes to an existing key (the same row, the same value), without the upsert's insert attempt.
 */
const TICK_CLOCK = "UPDATE world_meta SET value = ? WHERE key = 'clock_ms'"
const TICK_META = 'UPDATE world_meta SET value = ? WHERE key = ?'

/** Writes what `requestTick` planned: the cap's use (when capped), then the clock. */
export function applyRequestTick(db: Db, tick: RequestTick): void {
  const clock = String(Math.trunc(tick.to))
  if (tick.tickedMs !== undefined) {
    // Both rows updated in place, in PUT_TWO's order; PUT_TWO itself for a world's first capped tick (no ticked_ms
    // row yet) and while seeding. Not PUT_TWO every time: an upsert of two rows keeps a statement journal, whose end
    // costs what a held world's savepoints journaled (db.ts failFastWrites, docs/decisions/0414).
    const put = stmt(db, TICK_META)
    const unset = () =>
      put.run(String(tick.tickedMs), 'ticked_ms').changes === 0 || put.run(clock, 'clock_ms').changes === 0
    if (seedingMemo(db) || unset()) stmt(db, PUT_TWO).run('ticked_ms', String(tick.tickedMs), 'clock_ms', clock)
  }
  // An unset clock (a world that never had one) or a seeding memo holding world_meta: setMeta's own way.
  else if (seedingMemo(db) || stmt(db, TICK_CLOCK).run(clock).changes === 0) setMeta(db, 'clock_ms', clock)
}

/** How far one agent request moves the clock: one tick, or what is left of the world's cap. Records the use. */
export function takeRequestTick(db: Db): number {
  const step = tickMs(db)
  const cap = tickLimit(db)
  if (!cap || step === 0) return step
  const take = Math.max(0, Math.min(step, cap.limitMs - cap.usedMs))
  if (take > 0) setMeta(db, 'ticked_ms', String(cap.usedMs + take))
  return take
}
