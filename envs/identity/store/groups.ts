import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { selectRows, type Db } from '../../core/db.ts'
import { nextCounter, opaqueId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { findGroupByEmail, worldGroupMembers, worldGroups, type GroupRow } from '../../core/groups.ts'
import { findUserByEmail } from '../../core/users.ts'
import { googleUserId } from '../ids.ts'
import { aliasesOf } from '../../core/aliases.ts'
import { deleteAliasesOf } from './aliases.ts'

export type MemberRow = typeof worldGroupMembers.$inferSelect
const etag = (v: unknown) => `"${createHash('sha256').update(JSON.stringify(v)).digest('base64url').slice(0, 27)}"`

export const findGroupById = (db: Db, id: string) => db.select().from(worldGroups).where(eq(worldGroups.id, id)).get()
export const listGroups = (db: Db) => selectRows(db, worldGroups, {}).sort((a, b) => a.email.localeCompare(b.email))
export const membersOf = (db: Db, groupId: string) =>
  selectRows(db, worldGroupMembers, { groupId }).sort((a, b) => a.addedSeq - b.addedSeq)
export function findMember(db: Db, groupId: string, email: string): MemberRow | undefined {
  return db
    .select()
    .from(worldGroupMembers)
    .where(and(eq(worldGroupMembers.groupId, groupId), eq(worldGroupMembers.email, email.toLowerCase())))
    .get()
}

/** A group by address or id. */
export function groupByKey(db: Db, key: string): GroupRow | undefined {
  return key.includes('@') ? findGroupByEmail(db, key) : findGroupById(db, key)
}

export function groupResource(db: Db, g: GroupRow) {
  const body = {
    kind: 'admin#directory#group',
    id: g.id,
    email: g.email,
    name: g.name,
    description: g.description,
    directMembersCount: String(membersOf(db, g.id).length),
    adminCreated: g.adminCreated,
    ...withAliases(aliasesOf(db, 'group', g.id)),
  }
  return { ...body, etag: etag(body) }
}

/** A member's id: the user's or group's id; outside addresses get a stable numeric one. */
function memberId(db: Db, m: MemberRow): string {
  if (m.type === 'GROUP') return findGroupByEmail(db, m.email)?.id ?? ''
  const user = findUserByEmail(db, m.email)
  if (user) return googleUserId(db, user.id)
  const h = createHash('sha256').update(`external\u0000${m.email}`).digest()
  return `1${(h.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, '0')}`
}

export function memberResource(db: Db, m: MemberRow) {
  const body = {
    kind: 'admin#directory#member',
    id: memberId(db, m),
    email: m.email,
    role: m.role,
    type: m.type,
    status: 'ACTIVE',
    delivery_settings: m.deliverySettings,
  }
  return { ...body, etag: etag(body) }
}

export function insertGroup(db: Db, input: { email: string; name: string; description: string }): GroupRow {
  const id = `0${opaqueId(db, 'identity.group', 14, '0123456789abcdefghijklmnopqrstuvwxyz')}`
  db.insert(worldGroups)
    .values({ id, ...input, email: input.email.toLowerCase(), adminCreated: true, createdMs: nowMs(db) })
    .run()
  return findGroupById(db, id)!
}

export function deleteGroup(db: Db, g: GroupRow): void {
  db.delete(worldGroupMembers).where(eq(worldGroupMembers.groupId, g.id)).run()
  db.delete(worldGroupMembers).where(eq(worldGroupMembers.email, g.email.toLowerCase())).run()
  db.delete(worldGroups).where(eq(worldGroups.id, g.id)).run()
  deleteAliasesOf(db, 'group', g.id)
}

/** What kind of member an address is: a world user, a group, or someone outside. */
export function memberType(db: Db, email: string): MemberRow['type'] {
  if (findGroupByEmail(db, email)) return 'GROUP'
  return findUserByEmail(db, email) ? 'USER' : 'EXTERNAL'
}

export function addMember(
  db: Db,
  groupId: string,
  email: string,
  role: MemberRow['role'],
  delivery = 'ALL_MAIL',
): MemberRow {
  const lower = email.toLowerCase()
  db.insert(worldGroupMembers)
    .values({
      groupId,
      email: lower,
      role,
      type: memberType(db, lower),
      deliverySettings: delivery,
      addedSeq: nextCounter(db, 'identity.member'),
    })
    .run()
  return findMember(db, groupId, lower)!
}

/** Whether an address is a member of a group, directly or through nested groups (each group visited once). */
export function hasMember(db: Db, groupId: string, email: string): boolean {
  const seen = new Set<string>()
  const walk = (id: string): boolean => {
    if (seen.has(id)) return false
    seen.add(id)
    return membersOf(db, id).some((m) => {
      if (m.email === email.toLowerCase()) return true
      const nested = m.type === 'GROUP' ? findGroupByEmail(db, m.email) : undefined
      return nested ? walk(nested.id) : false
    })
  }
  return walk(groupId)
}

/** A User's or Group's `aliases` (left out when there are none, as Google leaves it out). */
export const withAliases = (aliases: string[]) => (aliases.length > 0 ? { aliases } : {})
