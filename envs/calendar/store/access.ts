import { and, eq } from 'drizzle-orm'
import { createHash } from 'node:crypto'
import { insertRow, selectRows, stmt, type Db } from '../../core/db.ts'
import { keptWhileUnwritten } from '../../core/write-epoch.ts'
import { nextCounter } from '../../core/ids.ts'
import { getMeta, nowMs } from '../../core/clock.ts'
import { findUserByAlias, findUserById, isServiceAccount, listUsers } from '../../core/users.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { aclRules, calendarList, calendars, type AclRow, type CalendarRow } from '../schema.ts'
import { COLORS } from '../colors.ts'
import { isRoomCalendar, roomCalendar } from './rooms.ts'
import { groupsContaining } from '../../core/groups.ts'

export type Role = 'none' | 'freeBusyReader' | 'reader' | 'writer' | 'owner'
const RANK: Record<Role, number> = { none: 0, freeBusyReader: 1, reader: 2, writer: 3, owner: 4 }
export const atLeast = (have: Role, need: Role) => RANK[have] >= RANK[need]
export const maxRole = (a: Role, b: Role): Role => (RANK[a] >= RANK[b] ? a : b)

/** Next position in the change feed shared by events, rules and list entries. */
export const nextChange = (db: Db) => nextCounter(db, 'calendar.change')

/** The current position of the change feed, without advancing it. */
export function currentChange(db: Db): number {
  const row = db.$client.prepare("SELECT value FROM world_counters WHERE name = 'calendar.change'").get() as
    { value: number } | undefined
  return row?.value ?? 0
}

// Every Calendar call reads its calendar: one statement with the row's columns in the table's order, read as an
// array (selectRows would build its query key, map each value through its column and name each column per call).
const CALENDAR_BY_ID =
  'SELECT id, owner_id, summary, description, location, time_zone, is_primary, updated_ms ' +
  'FROM calendar_calendars WHERE id = ?'

/**
 * The stored calendar row with this id, keyed and typed as drizzle reads it (`isPrimary` as a boolean). Kept per
 * connection, frozen, while `calendar_calendars` is unwritten (envs/core/write-epoch.ts): every Calendar call reads
 * its calendar, and calendars change far less often than events.
 */
export function storedCalendar(db: Db, id: string): CalendarRow | undefined {
  // `null` stands for no row (a kept value is never undefined); the key is the id itself.
  const kept = keptWhileUnwritten(db.$client, 'calendar_calendars', id, () => calendarRow(db, id) ?? null, seal)
  return kept ?? undefined
}

const seal = (row: CalendarRow | null) => void (row && Object.freeze(row))

function calendarRow(db: Db, id: string): CalendarRow | undefined {
  const v = stmt(db, CALENDAR_BY_ID).raw().get(id) as unknown[] | undefined
  if (!v) return undefined
  return {
    id: v[0] as string,
    ownerId: v[1] as string,
    summary: v[2] as string,
    description: v[3] as string | null,
    location: v[4] as string | null,
    timeZone: v[5] as string,
    isPrimary: Number(v[6]) === 1,
    updatedMs: v[7] as number,
  }
}

/** A stored calendar, or a room's calendar (which exists while the room does: ./rooms.ts). */
export const findCalendar = (db: Db, id: string): CalendarRow | undefined =>
  storedCalendar(db, id) ?? roomCalendar(db, id)

/**
 * The primary calendar of the user whose Directory alias `address` is (a renamed user's old address is one), else
 * undefined. Deviation (unverified): Google's answer for an alias given as a calendar id is not recorded; a renamed
 * user's old address reaching their calendar is assumed, as mail to it does.
 */
export function aliasCalendar(db: Db, address: string): CalendarRow | undefined {
  const owner = address.includes('@') ? findUserByAlias(db, address) : undefined
  return owner && findCalendar(db, owner.email)
}

export const liveRules = (db: Db, calendarId: string): AclRow[] =>
  selectRows(db, aclRules, { calendarId, deleted: false }, { orderBy: ['changeSeq'] })

/** The access a user has to a calendar: ownership, then the best matching ACL rule. */
export function roleOf(db: Db, cal: CalendarRow, user: WorldUserRow): Role {
  if (cal.ownerId === user.id) return 'owner'
  const email = user.email.toLowerCase()
  const domain = email.split('@')[1] ?? ''
  // Workspace shares a room's calendar with the whole organisation ("See all event details") by default.
  // Deviation: a room calendar's sharing cannot be changed (its ACL has no owner here to change it).
  if (isRoomCalendar(cal)) return domain === (getMeta(db, 'domain') ?? '').toLowerCase() ? 'reader' : 'none'
  let role: Role = 'none'
  let memberOf: string[] | undefined
  // A group rule reaches the Directory group's members, nested groups included (as Drive's grants do).
  const inGroup = (v: string) => v === email || (memberOf ??= groupsContaining(db, email)).includes(v)
  for (const r of liveRules(db, cal.id)) {
    const v = (r.scopeValue ?? '').toLowerCase()
    const match =
      r.scopeType === 'default' ||
      (r.scopeType === 'user' && v === email) ||
      (r.scopeType === 'group' && inGroup(v)) ||
      (r.scopeType === 'domain' && v === domain)
    if (match) role = maxRole(role, r.role)
  }
  return role
}

/** Secondary calendar id: 64 hex characters at group.calendar.google.com, derived from the change counter. */
export function secondaryCalendarId(db: Db): string {
  const n = nextCounter(db, 'calendar.calendar')
  const salt = getMeta(db, 'id_salt') ?? ''
  return `${createHash('sha256').update(`${salt}\u0000calendar\u0000${n}`).digest('hex')}@group.calendar.google.com`
}

const DEFAULT_NOTIFICATIONS = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse'].map((type) => ({
  method: 'email',
  type,
}))

/** Adds (or revives) a calendar list entry with the palette colour `colorId`. */
export function subscribe(
  db: Db,
  userId: string,
  calendarId: string,
  opts: { colorId?: string; primary?: boolean } = {},
): void {
  const colorId = opts.colorId ?? String(1 + (nextCounter(db, `calendar.color.${userId}`) % 24))
  const color = COLORS.calendar[colorId as keyof typeof COLORS.calendar] ?? COLORS.calendar['14']
  const values = {
    userId,
    calendarId,
    colorId,
    backgroundColor: color.background,
    foregroundColor: '#000000',
    hidden: false,
    selected: true,
    summaryOverride: null,
    defaultReminders: opts.primary ? JSON.stringify([{ method: 'popup', minutes: 30 }]) : '[]',
    notifications: opts.primary ? JSON.stringify(DEFAULT_NOTIFICATIONS) : '[]',
    deleted: false,
    changeSeq: nextChange(db),
  }
  const existing = selectRows(db, calendarList, { userId, calendarId })[0]
  if (existing && !existing.deleted) return
  if (existing)
    db.update(calendarList)
      .set(values)
      .where(and(eq(calendarList.userId, userId), eq(calendarList.calendarId, calendarId)))
      .run()
  else insertRow(db, calendarList, values)
}

const PUT_RULE_SQL = `INSERT INTO calendar_acl (calendar_id, id, scope_type, scope_value, role, deleted, change_seq)
  VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (calendar_id, id) DO UPDATE SET role = excluded.role, deleted = 0,
  scope_value = excluded.scope_value, change_seq = excluded.change_seq`

/** Writes an ACL rule (insert or replace), reviving a deleted one. */
export function putRule(
  db: Db,
  calendarId: string,
  scopeType: AclRow['scopeType'],
  scopeValue: string | null,
  role: AclRow['role'],
): AclRow {
  const id = scopeType === 'default' ? 'default' : `${scopeType}:${scopeValue}`
  const values = { calendarId, id, scopeType, scopeValue, role, deleted: false, changeSeq: nextChange(db) }
  // What drizzle's insert … onConflictDoUpdate({ set: { role, deleted: false, scopeValue, changeSeq } }) ran, compiled
  // once per connection (seeding writes a few rules per calendar).
  stmt(db, PUT_RULE_SQL).run(calendarId, id, scopeType, scopeValue, role, values.changeSeq)
  return values
}

/** Creates a calendar owned by `owner` with its owner rule and list entry. */
export function createCalendar(
  db: Db,
  owner: WorldUserRow,
  c: {
    id?: string
    summary: string
    description?: string | null
    location?: string | null
    timeZone: string
    primary?: boolean
    colorId?: string
  },
): CalendarRow {
  const id = c.id ?? secondaryCalendarId(db)
  const row: CalendarRow = {
    id,
    ownerId: owner.id,
    summary: c.summary,
    description: c.description ?? null,
    location: c.location ?? null,
    timeZone: c.timeZone,
    isPrimary: !!c.primary,
    updatedMs: nowMs(db),
  }
  insertRow(db, calendars, row)
  putRule(db, id, 'user', owner.email.toLowerCase(), 'owner')
  // Deviation (unverified): like a Workspace default, colleagues in the domain see a primary calendar's free/busy.
  // A service account is in no Workspace domain: its calendar is shared with nobody.
  const domain = owner.email.split('@')[1]?.toLowerCase()
  if (c.primary && domain && !isServiceAccount(owner)) putRule(db, id, 'domain', domain, 'freeBusyReader')
  subscribe(db, owner.id, id, { colorId: c.colorId ?? (c.primary ? '14' : undefined), primary: c.primary })
  return row
}

/** Every world user's primary calendar exists (created at seed time for the users of the seed). */
export function ensurePrimaries(db: Db): void {
  for (const u of listUsers(db)) {
    if (!findCalendar(db, u.email))
      createCalendar(db, u, { id: u.email, summary: u.email, timeZone: u.timeZone, primary: true })
  }
}

/**
 * A service account's primary calendar (id its email, zone UTC), made with the account (envs/calendar/service-
 * accounts.ts): Google gives every service account one, listed alone in its calendar list until it adds calendars
 * shared with it.
 */
export function ensureOwnPrimary(db: Db, user: WorldUserRow): void {
  if (storedCalendar(db, user.email)) return
  createCalendar(db, user, { id: user.email, summary: user.email, timeZone: user.timeZone, primary: true })
}

export const ownerOf = (db: Db, cal: CalendarRow) => findUserById(db, cal.ownerId)
