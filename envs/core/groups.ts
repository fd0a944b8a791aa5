import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { stmt, type Db } from './db.ts'

// Groups are workspace-wide like users: the Directory API manages them, and Gmail, Calendar and Drive expand a group
// address into its members, so they live in the kernel beside world_users.

/** Google Groups of the workspace. */
export const worldGroups = sqliteTable(
  'world_groups',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    adminCreated: integer('admin_created', { mode: 'boolean' }).notNull().default(true),
    createdMs: integer('created_ms').notNull(),
  },
  (t) => [index('world_groups_by_email').on(t.email)],
)

/** Members of a group: a user, another group, or an outside address (`email` is lower-case). */
export const worldGroupMembers = sqliteTable(
  'world_group_members',
  {
    groupId: text('group_id').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['OWNER', 'MANAGER', 'MEMBER'] }).notNull(),
    type: text('type', { enum: ['USER', 'GROUP', 'EXTERNAL'] }).notNull(),
    deliverySettings: text('delivery_settings').notNull().default('ALL_MAIL'),
    addedSeq: integer('added_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.email] }), index('world_group_members_by_email').on(t.email)],
)

export type GroupRow = typeof worldGroups.$inferSelect

/** The group with this address or alias (case-insensitive), if any. */
export function findGroupByEmail(db: Db, email: string): GroupRow | undefined {
  // One statement whether or not the address is an alias (group expansion runs it for every recipient).
  const r = stmt(
    db,
    `SELECT * FROM world_groups WHERE lower(email) = lower(?)
    OR id = (SELECT target_id FROM world_aliases WHERE alias = lower(?) AND kind = 'group')`,
  ).get(email.trim(), email.trim()) as
    | { id: string; email: string; name: string; description: string; admin_created: number; created_ms: number }
    | undefined
  return (
    r && {
      id: r.id,
      email: r.email,
      name: r.name,
      description: r.description,
      adminCreated: r.admin_created === 1,
      createdMs: r.created_ms,
    }
  )
}

/**
 * The addresses a group address stands for: its members, with nested groups expanded (each group once, so cycles
 * end), in the order they were added; members that turn off mail (`NONE`) are left out unless `allMembers` (a
 * delivery setting is about mail only: Calendar's free/busy expansion keeps them). Undefined when `email` is not a
 * group.
 */
export function expandGroup(db: Db, email: string, allMembers = false): string[] | undefined {
  const top = findGroupByEmail(db, email)
  if (!top) return undefined
  const seen = new Set<string>([top.id])
  const out: string[] = []
  const walk = (groupId: string) => {
    const rows = stmt(
      db,
      `SELECT email, type, delivery_settings FROM world_group_members WHERE group_id = ?
      ORDER BY added_seq`,
    ).all(groupId) as { email: string; type: string; delivery_settings: string }[]
    for (const m of rows) {
      if (m.delivery_settings === 'NONE' && !allMembers) continue
      const nested = m.type === 'GROUP' ? findGroupByEmail(db, m.email) : undefined
      if (nested) {
        if (!seen.has(nested.id)) {
          seen.add(nested.id)
          walk(nested.id)
        }
      } else if (!out.includes(m.email)) out.push(m.email)
    }
  }
  walk(top.id)
  return out
}

/** Recipients with every group address replaced by its members (other addresses kept as they are). */
export function expandGroupAddresses(db: Db, addresses: readonly string[]): string[] {
  const out: string[] = []
  // Keyed by lower case so that a long list costs linear time (an agent may send thousands of guests).
  const seen = new Set<string>()
  for (const a of addresses) {
    for (const e of expandGroup(db, a) ?? [a]) {
      const key = e.toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      out.push(e)
    }
  }
  return out
}

/** The addresses (lower-case) of every group an address belongs to, directly or through nested groups. */
export function groupsContaining(db: Db, email: string): string[] {
  const out: string[] = []
  let frontier = [email.toLowerCase()]
  while (frontier.length > 0) {
    const next: string[] = []
    for (const member of frontier) {
      const rows = stmt(
        db,
        `SELECT lower(g.email) AS email FROM world_group_members m JOIN world_groups g ON g.id = m.group_id
        WHERE m.email = ?`,
      ).all(member) as { email: string }[]
      for (const r of rows) {
        if (out.includes(r.email)) continue
        out.push(r.email)
        next.push(r.email)
      }
    }
    frontier = next
  }
  return out.sort()
}
