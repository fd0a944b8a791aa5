import { stmt, type Db } from './db.ts'

// The virtual clock of a world lives in world_meta, so snapshots and restores carry it.
// It moves only (1) by `tick_ms` on each agent API request, and (2) when the control plane sets or
// advances it. Every timestamp a service emits comes from `now()`.

const GET = "SELECT value FROM world_meta WHERE key = ?"
const PUT = 'INSERT INTO world_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'

export function getMeta(db: Db, key: string): string | undefined {
  const row = stmt(db, GET).get(key) as { value: string } | undefined
  return row?.value
}

export function setMeta(db: Db, key: string, value: string): void {
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
