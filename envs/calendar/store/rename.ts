import { stmt, type Db } from '../../core/db.ts'
import { maxRole, nextChange, putRule } from './access.ts'
import type { AclRow } from '../schema.ts'

type Attendee = { email?: unknown }

/**
 * A Directory rename reaches Calendar (docs/decisions/0469): the account's primary calendar takes the new address as
 * its id, with its events, list entries (the owner's and every subscriber's), rules and guests' copies; rules that
 * name the old address (`user:` or `group:`) are replaced by rules naming the new one (the old rule is deleted, so a
 * sync of the rules shows both); organizer, creator and guest addresses on stored events become the new address.
 * Addresses are lower case. Channels keep the resource URI they were made with.
 * Deviation: Google's help says events created before a rename still show the old address; here they show the new
 * one, because guests' copies, `self` and responses are keyed by the stored (primary) address.
 */
export function renameCalendarAddress(db: Db, kind: 'user' | 'group', oldEmail: string, newEmail: string): void {
  const from = oldEmail.toLowerCase()
  const to = newEmail.toLowerCase()
  if (from === to) return
  if (kind === 'user') moveCalendarId(db, from, to)
  moveRules(db, kind, from, to)
  if (kind === 'user') moveEventAddresses(db, from, to)
}

/** The primary calendar's id (stored as its owner's address then, in any letter case) becomes `to`. */
function moveCalendarId(db: Db, from: string, to: string): void {
  const row = stmt(db, 'SELECT id, summary FROM calendar_calendars WHERE lower(id) = ? AND is_primary = 1').get(
    from,
  ) as { id: string; summary: string } | undefined
  if (!row) return
  const old = row.id
  // A primary calendar is named after its address until renamed by its owner (Deviation, unverified: Google's
  // summary after an account rename is not recorded).
  const summary = row.summary.toLowerCase() === from ? to : row.summary
  stmt(db, 'UPDATE calendar_calendars SET id = ?, summary = ? WHERE id = ?').run(to, summary, old)
  for (const table of ['calendar_acl', 'calendar_list', 'calendar_events'])
    stmt(db, `UPDATE ${table} SET calendar_id = ? WHERE calendar_id = ?`).run(to, old)
  stmt(db, 'UPDATE calendar_events SET organizer_calendar_id = ? WHERE organizer_calendar_id = ?').run(to, old)
}

/** Every live rule naming `from` is deleted and one naming `to` takes its role. */
function moveRules(db: Db, kind: 'user' | 'group', from: string, to: string): void {
  const rules = stmt(
    db,
    'SELECT calendar_id AS calendarId, role FROM calendar_acl WHERE scope_type = ? AND lower(scope_value) = ? ' +
      'AND deleted = 0 ORDER BY change_seq',
  ).all(kind, from) as Pick<AclRow, 'calendarId' | 'role'>[]
  for (const r of rules) {
    stmt(
      db,
      'UPDATE calendar_acl SET deleted = 1, change_seq = ? WHERE calendar_id = ? AND scope_type = ? ' +
        'AND lower(scope_value) = ?',
    ).run(nextChange(db), r.calendarId, kind, from)
    // A rule that already named the new address keeps the better of the two roles.
    const had = stmt(
      db,
      'SELECT role FROM calendar_acl WHERE calendar_id = ? AND scope_type = ? AND scope_value = ? AND deleted = 0',
    ).get(r.calendarId, kind, to) as Pick<AclRow, 'role'> | undefined
    putRule(db, r.calendarId, kind, to, had ? maxRole(had.role, r.role) : r.role)
  }
}

/** Organizer, creator and guest addresses equal to `from` become `to` (the events' versions are unchanged). */
function moveEventAddresses(db: Db, from: string, to: string): void {
  const rows = stmt(
    db,
    'SELECT rowid AS r, organizer_email AS organizer, creator_email AS creator, data FROM calendar_events ' +
      'WHERE lower(organizer_email) = ? OR lower(creator_email) = ? OR instr(lower(data), ?) > 0',
  ).all(from, from, from) as { r: number; organizer: string; creator: string; data: string }[]
  const update = stmt(db, 'UPDATE calendar_events SET organizer_email = ?, creator_email = ?, data = ? WHERE rowid = ?')
  for (const row of rows) {
    const data = JSON.parse(row.data) as { attendees?: Attendee[] }
    for (const a of data.attendees ?? [])
      if (typeof a.email === 'string' && a.email.toLowerCase() === from) a.email = to
    const swap = (v: string) => (v.toLowerCase() === from ? to : v)
    update.run(swap(row.organizer), swap(row.creator), JSON.stringify(data), row.r)
  }
}
