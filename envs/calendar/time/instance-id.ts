/**
 * Ids of recurring-event instances, as the API forms them: `<baseId>_20260309T150000Z` (UTC) or
 * `<baseId>_20260309` for all-day series.
 */
import { DateTime } from 'luxon'

// Module level: a closure made per call costs its creation (and, under tsx's keepNames, a defineProperty) per instance.
const p2 = (n: number) => (n < 10 ? `0${n}` : `${n}`)

/** `20260309T150000Z` */
export function basicUtc(ms: number): string {
  const d = new Date(ms)
  const year = d.getUTCFullYear()
  // Years outside 0–9999 take toISOString's extended form.
  if (!(year >= 0 && year <= 9999))
    return d
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '')
  return `${String(year).padStart(4, '0')}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}T${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}${p2(d.getUTCSeconds())}Z`
}

/** `<baseId>_20260309T150000Z` for a timed instance, `<baseId>_20260309` for an all-day one. */
export function instanceId(baseId: string, originalStart: { ms: number; allDay: boolean; date?: string }): string {
  if (originalStart.allDay)
    return `${baseId}_${(originalStart.date ?? new Date(originalStart.ms).toISOString().slice(0, 10)).replace(/-/g, '')}`
  return `${baseId}_${basicUtc(originalStart.ms)}`
}

/** Inverse of `instanceId`; undefined for an id without an instance suffix. */
export function parseInstanceId(id: string): { baseId: string; originalStartMs?: number; date?: string } | undefined {
  const m = /^(.+)_(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(id)
  if (!m) return undefined
  const [, baseId, y, mo, d, h, mi, s] = m
  if (h === undefined) {
    const date = `${y}-${mo}-${d}`
    return DateTime.fromISO(date, { zone: 'UTC' }).isValid ? { baseId: baseId!, date } : undefined
  }
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +s!)
  return basicUtc(ms) === `${y}${mo}${d}T${h}${mi}${s}Z` ? { baseId: baseId!, originalStartMs: ms } : undefined
}
