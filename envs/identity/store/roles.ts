import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getMeta } from '../../core/clock.ts'
import { selectRows, stmt, type Db } from '../../core/db.ts'
import { nextCounter } from '../../core/ids.ts'
import { findGroupByEmail, groupsContaining } from '../../core/groups.ts'
import { listUsers } from '../../core/users.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { identityCustomRoles, identityRoleAssignments } from '../schema.ts'

// Admin roles (Directory `roles`, `roleAssignments`, `privileges`): the privileges a delegated admin holds decide
// which Directory methods they may call (routes/directory-tokens.ts requireAdmin). Super admins are the users whose
// `isAdmin` is set; their assignments to the super admin role are derived from it, not stored.

/**
 * The privilege catalog: the Directory's own objects (users, groups, organizational units), each a tree whose root
 * (`*_ALL`) grants its children. Deviation (unverified): Google's catalog covers every service of the Admin console
 * under obfuscated service ids; this is the part the mock's Directory methods check, under one id of ours.
 */
export const ADMIN_SERVICE = { id: '00haapch16h1ysv', name: 'Admin Directory' } as const
type Tree = { name: string; ouScopable: boolean; children: readonly string[] }
/** The privilege that opens the Directory's Calendar resources (`resources.*`). */
export const CALENDAR_RESOURCES = 'CALENDAR_RESOURCES_ALL'
const TREES: readonly Tree[] = [
  {
    name: 'ORGANIZATION_UNITS_ALL',
    ouScopable: true,
    children: ['ORGANIZATION_UNITS_RETRIEVE', 'ORGANIZATION_UNITS_CREATE', 'ORGANIZATION_UNITS_UPDATE'].concat(
      'ORGANIZATION_UNITS_DELETE',
    ),
  },
  {
    name: 'USERS_ALL',
    ouScopable: true,
    children: ['USERS_RETRIEVE', 'USERS_CREATE', 'USERS_UPDATE', 'USERS_DELETE', 'USERS_ALIAS', 'USERS_MOVE'],
  },
  {
    name: 'GROUPS_ALL',
    ouScopable: false,
    children: ['GROUPS_RETRIEVE', 'GROUPS_CREATE', 'GROUPS_UPDATE', 'GROUPS_DELETE'],
  },
  // Calendar resources (buildings, features, rooms: routes/directory-resources.ts), docs/decisions/0476.
  { name: CALENDAR_RESOURCES, ouScopable: false, children: [] },
]
const KNOWN = new Set(TREES.flatMap((t) => [t.name, ...t.children]))

/** Whether the catalog names this privilege of this service. */
export const knownPrivilege = (serviceId: string, name: string) => serviceId === ADMIN_SERVICE.id && KNOWN.has(name)

/** The Privilege resources (privileges.list), roots with their children. */
export function privilegeResources() {
  const one = (name: string, ouScopable: boolean) => ({
    kind: 'admin#directory#privilege',
    serviceId: ADMIN_SERVICE.id,
    serviceName: ADMIN_SERVICE.name,
    privilegeName: name,
    isOuScopable: ouScopable,
  })
  return TREES.map((t) => ({
    ...one(t.name, t.ouScopable),
    childPrivileges: t.children.map((c) => one(c, t.ouScopable)),
  }))
}

export type RolePrivilege = { serviceId: string; privilegeName: string }
export type Role = {
  id: string
  name: string
  description: string
  privileges: RolePrivilege[]
  system: boolean
  superAdmin: boolean
}

/** The pre-built role of the seeded Calendar resources admins (`identity_roles`, docs/decisions/0250, 0476). */
export const CALENDAR_RESOURCES_ROLE = '_CALENDAR_RESOURCES_ADMIN_ROLE'

const grant = (...names: string[]): RolePrivilege[] =>
  names.map((privilegeName) => ({ serviceId: ADMIN_SERVICE.id, privilegeName }))

/**
 * The pre-built roles, by the names the Directory API gives them. Deviation (unverified): their privileges here are
 * the catalog's part of what the Admin console grants them.
 */
const SYSTEM: readonly Omit<Role, 'id' | 'system'>[] = [
  {
    name: '_SEED_ADMIN_ROLE',
    description: 'Super Admin',
    privileges: grant('ORGANIZATION_UNITS_ALL', 'USERS_ALL', 'GROUPS_ALL'),
    superAdmin: true,
  },
  {
    name: '_GROUPS_ADMIN_ROLE',
    description: 'Groups Administrator',
    privileges: grant('GROUPS_ALL', 'USERS_RETRIEVE', 'ORGANIZATION_UNITS_RETRIEVE'),
    superAdmin: false,
  },
  {
    name: '_USER_MANAGEMENT_ADMIN_ROLE',
    description: 'User Management Administrator',
    privileges: grant('USERS_ALL', 'ORGANIZATION_UNITS_RETRIEVE'),
    superAdmin: false,
  },
  {
    name: '_HELP_DESK_ADMIN_ROLE',
    description: 'Help Desk Administrator',
    privileges: grant('USERS_RETRIEVE', 'ORGANIZATION_UNITS_RETRIEVE'),
    superAdmin: false,
  },
  {
    name: '_SERVICES_ADMIN_ROLE',
    description: 'Services Administrator',
    privileges: grant('ORGANIZATION_UNITS_RETRIEVE'),
    superAdmin: false,
  },
  {
    name: '_MOBILE_ADMIN_ROLE',
    description: 'Mobile Administrator',
    privileges: grant('USERS_RETRIEVE', 'ORGANIZATION_UNITS_RETRIEVE'),
    superAdmin: false,
  },
  {
    name: '_GROUPS_READER_ROLE',
    description: 'Groups Reader',
    privileges: grant('GROUPS_RETRIEVE'),
    superAdmin: false,
  },
  {
    name: '_GROUPS_EDITOR_ROLE',
    description: 'Groups Editor',
    privileges: grant('GROUPS_RETRIEVE', 'GROUPS_UPDATE'),
    superAdmin: false,
  },
  // Deviation (unverified): Google has no pre-built role of this name; the mock's delegated Calendar resources admin
  // (docs/decisions/0250, seeds' `identity.resourceAdmins`) is shown as holding it (0476).
  {
    name: CALENDAR_RESOURCES_ROLE,
    description: 'Calendar Resources Administrator',
    privileges: grant(CALENDAR_RESOURCES),
    superAdmin: false,
  },
]

/** A numeric id (17 digits), stable per seed and key. */
function numericId(db: Db, kind: string, key: string): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000${kind}\u0000${key}`).digest()
  return `${1 + (h[0]! % 9)}${(h.readBigUInt64BE(1) % 10n ** 16n).toString().padStart(16, '0')}`
}

export function listRoles(db: Db): Role[] {
  const system = SYSTEM.map((r) => ({ ...r, id: numericId(db, 'role', r.name), system: true }))
  const custom = selectRows(db, identityCustomRoles, {})
    .sort((a, b) => a.seq - b.seq)
    .map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      privileges: JSON.parse(r.privileges) as RolePrivilege[],
      system: false,
      superAdmin: false,
    }))
  return [...system, ...custom]
}

export const roleById = (db: Db, id: string) => listRoles(db).find((r) => r.id === id)
export const superAdminRole = (db: Db) => listRoles(db).find((r) => r.superAdmin)!

export function insertRole(db: Db, name: string, description: string, privileges: RolePrivilege[]): string {
  const seq = nextCounter(db, 'identity.role')
  const id = numericId(db, 'role', `custom:${seq}`)
  db.insert(identityCustomRoles)
    .values({ id, name, description, privileges: JSON.stringify(privileges), seq })
    .run()
  return id
}

export function saveRole(db: Db, id: string, name: string, description: string, privileges: RolePrivilege[]) {
  stmt(db, 'UPDATE identity_custom_roles SET name = ?, description = ?, privileges = ? WHERE id = ?').run(
    name,
    description,
    JSON.stringify(privileges),
    id,
  )
}

export function deleteRole(db: Db, id: string) {
  db.delete(identityCustomRoles).where(eq(identityCustomRoles.id, id)).run()
}

export type Assignment = {
  id: string
  roleId: string
  assigneeType: 'user' | 'group'
  /** A world user id or a group id. */
  assigneeId: string
  scopeType: 'CUSTOMER' | 'ORG_UNIT'
  orgUnitId: string | null
  /** Derived from the user's `isAdmin` (not stored). */
  superAdmin: boolean
  /** Derived from the user's Calendar resources role (`identity_roles`, not stored here). */
  calendarResources?: boolean
}

/** Super admins' assignments (one per admin user, derived), then the stored ones in the order they were made. */
export function listAssignments(db: Db, users: readonly WorldUserRow[] = listUsers(db)): Assignment[] {
  const superRole = numericId(db, 'role', '_SEED_ADMIN_ROLE')
  const supers = users
    .filter((u) => u.isAdmin)
    .map((u) => ({
      id: numericId(db, 'roleassignment', `super:${u.id}`),
      roleId: superRole,
      assigneeType: 'user' as const,
      assigneeId: u.id,
      scopeType: 'CUSTOMER' as const,
      orgUnitId: null,
      superAdmin: true,
    }))
  const stored = selectRows(db, identityRoleAssignments, {})
    .sort((a, b) => a.seq - b.seq)
    .map((a) => ({ ...a, superAdmin: false }))
  return [...supers, ...calendarResourceAssignments(db), ...stored]
}

/**
 * The seeded Calendar resources admins (`identity_roles`, 0250) as assignments of the pre-built Calendar resources
 * role over the customer: listed by roleAssignments, and deleting one ends the role (docs/decisions/0476).
 */
export function calendarResourceAssignments(db: Db): Assignment[] {
  const roleId = numericId(db, 'role', CALENDAR_RESOURCES_ROLE)
  const rows = stmt(db, `SELECT user_id FROM identity_roles WHERE role = 'calendar-resources' ORDER BY rowid`)
    .pluck()
    .all() as string[]
  return rows.map((userId) => ({
    id: numericId(db, 'roleassignment', `calendar-resources:${userId}`),
    roleId,
    assigneeType: 'user' as const,
    assigneeId: userId,
    scopeType: 'CUSTOMER' as const,
    orgUnitId: null,
    superAdmin: false,
    calendarResources: true,
  }))
}

/** Gives or ends a user's Calendar resources role (the table the resources routes and the dump read). */
export function setCalendarResourcesAdmin(db: Db, userId: string, on: boolean) {
  if (on) stmt(db, `INSERT OR IGNORE INTO identity_roles (user_id, role) VALUES (?, 'calendar-resources')`).run(userId)
  else stmt(db, `DELETE FROM identity_roles WHERE user_id = ? AND role = 'calendar-resources'`).run(userId)
}

export function insertAssignment(db: Db, a: Omit<Assignment, 'id' | 'superAdmin'>): string {
  const seq = nextCounter(db, 'identity.roleassignment')
  const id = numericId(db, 'roleassignment', String(seq))
  db.insert(identityRoleAssignments)
    .values({ ...a, id, seq })
    .run()
  return id
}

export function deleteAssignment(db: Db, id: string) {
  db.delete(identityRoleAssignments).where(eq(identityRoleAssignments.id, id)).run()
}

/** Whether a user or group holds any stored role assignment. */
export const holdsRole = (db: Db, assigneeId: string) =>
  !!db.select().from(identityRoleAssignments).where(eq(identityRoleAssignments.assigneeId, assigneeId)).get()

/** Drops the stored assignments of a user or group that no longer exists. */
export function dropAssignmentsOf(db: Db, assigneeId: string) {
  db.delete(identityRoleAssignments).where(eq(identityRoleAssignments.assigneeId, assigneeId)).run()
}

/**
 * The privileges a user holds through assignments over the whole customer, to them or to a group they belong to,
 * with each root's children. Deviation: an assignment scoped to an organizational unit grants nothing through the
 * API here (Google limits it to that unit's users); refusing is the side that cannot over-grant.
 */
export function heldPrivileges(db: Db, user: WorldUserRow): Set<string> {
  const stored = selectRows(db, identityRoleAssignments, {})
  if (stored.length === 0) return new Set()
  const groups = new Set(
    groupsContaining(db, user.email)
      .map((email) => findGroupByEmail(db, email)?.id)
      .filter((id): id is string => !!id),
  )
  const roles = new Map(listRoles(db).map((r) => [r.id, r]))
  const held = new Set<string>()
  for (const a of stored) {
    if (a.scopeType !== 'CUSTOMER') continue
    if (a.assigneeType === 'user' ? a.assigneeId !== user.id : !groups.has(a.assigneeId)) continue
    for (const p of roles.get(a.roleId)?.privileges ?? []) {
      if (p.serviceId !== ADMIN_SERVICE.id) continue
      held.add(p.privilegeName)
      for (const c of TREES.find((t) => t.name === p.privilegeName)?.children ?? []) held.add(c)
    }
  }
  return held
}
