import type { Json } from '../envs/core/service.ts'

/**
 * Whether an event is a series: its `recurrence` has an RRULE or RDATE line (an EXDATE alone repeats nothing). A task
 * asks for one meeting; a series books the guests again every day, week or month (docs/decisions/0453).
 */
export function isSeries(e: { recurrence?: Json } | undefined): boolean {
  const lines = Array.isArray(e?.recurrence) ? e.recurrence : []
  return lines.some((r) => /^\s*(RRULE|RDATE)\b/i.test(String(r)))
}

/** The check every meeting family makes of the one event it asks for. */
export const notASeries = (e: { recurrence?: Json } | undefined) => ({
  name: 'a single meeting, not a series',
  ok: !!e && !isSeries(e),
})

/**
 * The check every meeting family makes that the event is booked, not pencilled in: `status: tentative` tells each
 * guest the meeting may not happen, which is not the meeting the task asks to set up (docs/decisions/0455).
 */
export const confirmed = (e: { status?: Json } | undefined) => ({
  name: 'a confirmed meeting, not a tentative hold',
  ok: !!e && e.status !== 'tentative',
})
