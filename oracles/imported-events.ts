import type { Json } from '../envs/core/service.ts'
import { wroteWorld, type ActionRow, type Entity } from './types.ts'

/**
 * Events the episode added with `events.import`: their iCalUIDs (with the sequence number of the last import), whether
 * an import's body could not be read, and the last update or patch of each event id (its sequence number).
 */
export type Imported = { uids: ReadonlyMap<string, number>; unread: boolean; rewritten: ReadonlyMap<string, number> }

const WRITES = new Set(['calendar.events.update', 'calendar.events.patch'])

/**
 * The events the episode added with `events.import` (docs/decisions/0451). An import is "a private copy of an
 * existing event" on the one calendar named: no guest's calendar gets a copy and nobody is mailed
 * (envs/calendar/COVERAGE.md), so its attendee list invites nobody, though it names the guests the task asks for.
 * A body the log cut short (over 64 KiB) gives its iCalUID where the kept part has it; else `unread`.
 */
export function importedEvents(actions: readonly ActionRow[]): Imported {
  const uids = new Map<string, number>()
  const rewritten = new Map<string, number>()
  let unread = false
  for (const a of actions) {
    if (!wroteWorld(a)) continue
    if (a.operationId && WRITES.has(a.operationId)) {
      const id = /\/events\/([^/?]+)$/.exec(a.path)?.[1]
      if (id) rewritten.set(decodeURIComponent(id), a.seq)
    }
    if (a.operationId !== 'calendar.events.import') continue
    const uid = /"iCalUID"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(a.body ?? '')?.[1]
    if (uid === undefined) unread = true
    else uids.set(JSON.parse(`"${uid}"`) as string, a.seq)
  }
  return { uids, unread, rewritten }
}

/**
 * An event's guests as invited: none for an imported private copy. Where an import's body was not read, any event
 * whose iCalUID is not the one Calendar gives an inserted event (`<id>@google.com`) counts as imported. An import
 * its organizer later updated or patched on their own calendar invites its guests, as an inserted event does (the
 * write makes their copies and mails them: 0455).
 */
export function invitedBy(e: Entity | undefined, imported: Imported): Json | undefined {
  if (!e) return undefined
  const uid = String(e.iCalUID ?? '')
  const copy = imported.uids.has(uid) || (imported.unread && uid !== `${String(e.id)}@google.com`)
  const own = String(e.organizer ?? '').toLowerCase()
  const since = imported.rewritten.get(String(e.id)) ?? -1
  const organized = own === String(e.calendarId).toLowerCase() && since > (imported.uids.get(uid) ?? -1)
  return copy && !organized ? [] : e.attendees
}
