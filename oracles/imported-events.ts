import type { Json } from '../envs/core/service.ts'
import { wroteWorld, type ActionRow, type Entity } from './types.ts'

/** Events the episode added with `events.import`: their iCalUIDs, and whether an import's body could not be read. */
export type Imported = { uids: ReadonlySet<string>; unread: boolean }

/**
 * The events the episode added with `events.import` (docs/decisions/0451). An import is "a private copy of an
 * existing event" on the one calendar named: no guest's calendar gets a copy and nobody is mailed
 * (envs/calendar/COVERAGE.md), so its attendee list invites nobody, though it names the guests the task asks for.
 * A body the log cut short (over 64 KiB) gives its iCalUID where the kept part has it; else `unread`.
 */
export function importedEvents(actions: readonly ActionRow[]): Imported {
  const uids = new Set<string>()
  let unread = false
  for (const a of actions) {
    if (a.operationId !== 'calendar.events.import' || !wroteWorld(a)) continue
    const uid = /"iCalUID"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(a.body ?? '')?.[1]
    if (uid === undefined) unread = true
    else uids.add(JSON.parse(`"${uid}"`) as string)
  }
  return { uids, unread }
}

/**
 * An event's guests as invited: none for an imported private copy. Where an import's body was not read, any event
 * whose iCalUID is not the one Calendar gives an inserted event (`<id>@google.com`) counts as imported.
 */
export function invitedBy(e: Entity | undefined, imported: Imported): Json | undefined {
  if (!e) return undefined
  const uid = String(e.iCalUID ?? '')
  const copy = imported.uids.has(uid) || (imported.unread && uid !== `${String(e.id)}@google.com`)
  return copy ? [] : e.attendees
}
