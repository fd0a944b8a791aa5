import type { WorldContext } from '../../core/http.ts'
import { matchSpecMethod } from '../../core/spec-method.ts'
import { specMethods } from '../api/methods.gen.ts'
import { findUserByKey } from '../store/users.ts'
import { heldPrivileges, holdsRole } from '../store/roles.ts'
import { groupByKey } from '../store/groups.ts'
import { findGroupByEmail, groupsContaining } from '../../core/groups.ts'

// What a delegated admin (a user who is not a super admin, with admin roles: store/roles.ts) may call: each
// Directory method the catalog's privileges cover, by the privilege Google's Admin console names for it. Methods not
// listed (roles and their assignments, makeAdmin, undelete, tokens, customers, domains, data transfers, ...) stay
// with super admins. Deviation (unverified): the method-to-privilege table is ours, from the privileges' names.
const PRIVILEGE_OF: Readonly<Record<string, string>> = {
  'directory.users.list': 'USERS_RETRIEVE',
  'directory.users.get': 'USERS_RETRIEVE',
  'directory.users.insert': 'USERS_CREATE',
  'directory.users.update': 'USERS_UPDATE',
  'directory.users.patch': 'USERS_UPDATE',
  'directory.users.delete': 'USERS_DELETE',
  'directory.users.aliases.list': 'USERS_RETRIEVE',
  'directory.users.aliases.insert': 'USERS_ALIAS',
  'directory.users.aliases.delete': 'USERS_ALIAS',
  'directory.users.photos.get': 'USERS_RETRIEVE',
  'directory.users.photos.update': 'USERS_UPDATE',
  'directory.users.photos.patch': 'USERS_UPDATE',
  'directory.users.photos.delete': 'USERS_UPDATE',
  'directory.groups.list': 'GROUPS_RETRIEVE',
  'directory.groups.get': 'GROUPS_RETRIEVE',
  'directory.groups.insert': 'GROUPS_CREATE',
  'directory.groups.update': 'GROUPS_UPDATE',
  'directory.groups.patch': 'GROUPS_UPDATE',
  'directory.groups.delete': 'GROUPS_DELETE',
  'directory.groups.aliases.list': 'GROUPS_RETRIEVE',
  'directory.groups.aliases.insert': 'GROUPS_UPDATE',
  'directory.groups.aliases.delete': 'GROUPS_UPDATE',
  'directory.members.list': 'GROUPS_RETRIEVE',
  'directory.members.get': 'GROUPS_RETRIEVE',
  'directory.members.hasMember': 'GROUPS_RETRIEVE',
  'directory.members.insert': 'GROUPS_UPDATE',
  'directory.members.update': 'GROUPS_UPDATE',
  'directory.members.patch': 'GROUPS_UPDATE',
  'directory.members.delete': 'GROUPS_DELETE',
  'directory.orgunits.list': 'ORGANIZATION_UNITS_RETRIEVE',
  'directory.orgunits.get': 'ORGANIZATION_UNITS_RETRIEVE',
  'directory.orgunits.insert': 'ORGANIZATION_UNITS_CREATE',
  'directory.orgunits.update': 'ORGANIZATION_UNITS_UPDATE',
  'directory.orgunits.patch': 'ORGANIZATION_UNITS_UPDATE',
  'directory.orgunits.delete': 'ORGANIZATION_UNITS_DELETE',
}

/** Methods that change a user: a delegated admin may not use them on a super admin (only super admins may). */
const CHANGES_USER = /^directory\.users\.(update|patch|delete|aliases\.(insert|delete)|photos\.(update|patch|delete))$/

/**
 * Methods that change a group: a delegated admin may not use them on a group that holds an admin role, or sits in
 * one (joining it would grant its role; Google lets role-holding security groups be managed by super admins only).
 */
const CHANGES_GROUP =
  /^directory\.(groups\.(update|patch|delete|aliases\.(insert|delete))|members\.(insert|update|patch|delete))$/

/** The method the request addresses needs a privilege the (non-super-admin) caller holds through their roles. */
export function delegatedMayCall(c: WorldContext): boolean {
  const op = matchSpecMethod(specMethods(), c.req.method, c.req.path)
  const needed = op && Object.hasOwn(PRIVILEGE_OF, op) ? PRIVILEGE_OF[op] : undefined
  if (!needed) return false
  const db = c.var.world.db
  if (!heldPrivileges(db, c.var.user).has(needed)) return false
  if (CHANGES_USER.test(op!)) {
    const key = decodeURIComponent(c.req.path.split('/')[5] ?? '')
    if (findUserByKey(db, key)?.isAdmin) return false
  }
  if (CHANGES_GROUP.test(op!)) {
    const group = groupByKey(db, decodeURIComponent(c.req.path.split('/')[5] ?? ''))
    // A group nested (at any depth) in a role-holding group passes that role on to its members too.
    const above = group ? groupsContaining(db, group.email).map((email) => findGroupByEmail(db, email)?.id ?? '') : []
    if (group && [group.id, ...above].some((id) => holdsRole(db, id))) return false
  }
  return true
}
