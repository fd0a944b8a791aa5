import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import type { Db } from '../../core/db.ts'
import { pageOf } from '../../core/paging.ts'
import { listUsers } from '../../core/users.ts'
import { customerId, googleUserId } from '../ids.ts'
import { directoryUsers, updateUserRow } from '../store/users.ts'
import { groupByKey, listGroups } from '../store/groups.ts'
import { groupsContaining } from '../../core/groups.ts'
import { unitById } from '../store/org-units.ts'
import {
  CALENDAR_RESOURCES_ROLE,
  deleteAssignment,
  deleteRole,
  insertAssignment,
  insertRole,
  knownPrivilege,
  listAssignments,
  listRoles,
  privilegeResources,
  roleById,
  saveRole,
  setCalendarResourcesAdmin,
  type Assignment,
  type Role,
  type RolePrivilege,
} from '../store/roles.ts'
import { etag, requireAdmin, userByKey } from './directory-tokens.ts'
import { json, Any, Body } from './openapi-shapes.ts'

// Directory `roles` (list/get/insert/update/patch/delete), `roleAssignments` (list/get/insert/delete) and
// `privileges.list`: super admins only. Assigning the super admin role makes a user a super admin (as makeAdmin
// does) and deleting that assignment ends it; other assignments make delegated admins (delegated-admin.ts).

const Customer = z.object({ customer: z.string() })
const BASE = '/admin/directory/v1/customer/{customer}'

const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)
const notFound = (what: string) => new GoogleApiError('NOT_FOUND', 'notFound', `Resource Not Found: ${what}`)
const duplicate = () => new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')

/** A super admin, and a customer naming this workspace (`my_customer` or its id). */
function admit(c: WorldContext, customer: string) {
  requireAdmin(c)
  // Deviation (unverified): Google's answer to another customer's id is not recorded.
  if (customer !== 'my_customer' && customer !== customerId(c.var.world.db)) throw notFound('customer')
}

function roleResource(r: Role) {
  const body = {
    kind: 'admin#directory#role',
    roleId: r.id,
    roleName: r.name,
    ...(r.description ? { roleDescription: r.description } : {}),
    rolePrivileges: r.privileges,
    ...(r.system ? { isSystemRole: true } : {}),
    ...(r.superAdmin ? { isSuperAdminRole: true } : {}),
  }
  return { ...body, etag: etag(body) }
}

function assignmentResource(db: Db, a: Assignment) {
  const body = {
    kind: 'admin#directory#roleAssignment',
    roleAssignmentId: a.id,
    roleId: a.roleId,
    assignedTo: a.assigneeType === 'user' ? googleUserId(db, a.assigneeId) : a.assigneeId,
    // "Output only. The type of the assignee (`USER` or `GROUP`)" (the RoleAssignment reference).
    assigneeType: a.assigneeType === 'user' ? 'USER' : 'GROUP',
    scopeType: a.scopeType,
    ...(a.orgUnitId ? { orgUnitId: a.orgUnitId } : {}),
  }
  return { ...body, etag: etag(body) }
}

/** Assignments whose user or group still exists (a deleted account's assignments are not listed or used). */
function liveAssignments(db: Db): Assignment[] {
  const users = new Set(directoryUsers(db).map((u) => u.user.id))
  const groups = new Set(listGroups(db).map((g) => g.id))
  return listAssignments(db, listUsers(db)).filter((a) =>
    a.assigneeType === 'user' ? users.has(a.assigneeId) : groups.has(a.assigneeId),
  )
}

function roleOf(db: Db, id: string): Role {
  const role = roleById(db, id)
  if (!role) throw notFound('roleId')
  return role
}

/** The privileges a Role body names: a non-empty array of catalog privileges (no repeats kept). */
function privilegesOf(v: unknown): RolePrivilege[] {
  if (!Array.isArray(v) || v.length === 0) throw invalid('rolePrivileges')
  const out: RolePrivilege[] = []
  for (const p of v) {
    const { serviceId, privilegeName } = (p ?? {}) as Record<string, unknown>
    if (typeof serviceId !== 'string' || typeof privilegeName !== 'string' || !knownPrivilege(serviceId, privilegeName))
      throw invalid('privilege')
    if (!out.some((o) => o.privilegeName === privilegeName)) out.push({ serviceId, privilegeName })
  }
  return out
}

const nameOf = (v: unknown) => {
  if (typeof v !== 'string' || v.trim() === '' || v.length > 100) throw invalid('roleName')
  return v.trim()
}

/** A role's new contents; `replace` (update) needs the name and privileges, patch keeps what it leaves out. */
function changeRole(c: WorldContext, replace: boolean) {
  const { customer, roleId } = c.req.valid('param' as never) as { customer: string; roleId: string }
  admit(c, customer)
  const body = c.req.valid('json' as never) as Record<string, unknown>
  return c.var.world.tx((db) => {
    const role = roleOf(db, roleId)
    // Deviation (unverified): the pre-built roles cannot be changed; Google's wording is not recorded.
    if (role.system) throw invalid('system roles cannot be changed')
    const name = replace || body.roleName !== undefined ? nameOf(body.roleName) : role.name
    const privileges =
      replace || body.rolePrivileges !== undefined ? privilegesOf(body.rolePrivileges) : role.privileges
    if (body.roleDescription !== undefined && typeof body.roleDescription !== 'string') throw invalid('roleDescription')
    const description =
      typeof body.roleDescription === 'string' ? body.roleDescription : replace ? '' : role.description
    if (listRoles(db).some((r) => r.id !== role.id && r.name.toLowerCase() === name.toLowerCase())) throw duplicate()
    saveRole(db, role.id, name, description, privileges)
    return roleResource(roleOf(db, role.id))
  })
}

const op = <M extends 'get' | 'post' | 'put' | 'patch' | 'delete', P extends string>(
  id: string,
  method: M,
  path: P,
) => ({
  operationId: id,
  method,
  path,
})
const Role1 = z.object({ customer: z.string(), roleId: z.string() })
const Assignment1 = z.object({ customer: z.string(), roleAssignmentId: z.string() })
const Paging = (max: number) => ({
  maxResults: z.coerce.number().int().min(1).max(max).optional(),
  pageToken: z.string().optional(),
})

const rolesList = createRoute({
  ...op('directory.roles.list', 'get', `${BASE}/roles`),
  request: { params: Customer, query: z.object(Paging(100)) },
  responses: { 200: Any },
})
const rolesGet = createRoute({
  ...op('directory.roles.get', 'get', `${BASE}/roles/{roleId}`),
  request: { params: Role1 },
  responses: { 200: Any },
})
const rolesInsert = createRoute({
  ...op('directory.roles.insert', 'post', `${BASE}/roles`),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const rolesUpdate = createRoute({
  ...op('directory.roles.update', 'put', `${BASE}/roles/{roleId}`),
  request: { params: Role1, body: Body },
  responses: { 200: Any },
})
const rolesPatch = createRoute({
  ...op('directory.roles.patch', 'patch', `${BASE}/roles/{roleId}`),
  request: { params: Role1, body: Body },
  responses: { 200: Any },
})
const rolesDelete = createRoute({
  ...op('directory.roles.delete', 'delete', `${BASE}/roles/{roleId}`),
  request: { params: Role1 },
  responses: { 204: { description: 'Deleted' } },
})
const privilegesList = createRoute({
  ...op('directory.privileges.list', 'get', `${BASE}/roles/ALL/privileges`),
  request: { params: Customer },
  responses: { 200: Any },
})
const assignmentsList = createRoute({
  ...op('directory.roleAssignments.list', 'get', `${BASE}/roleassignments`),
  request: {
    params: Customer,
    query: z.object({
      ...Paging(200),
      roleId: z.string().optional(),
      userKey: z.string().optional(),
      includeIndirectRoleAssignments: z.enum(['true', 'false']).optional(),
    }),
  },
  responses: { 200: Any },
})
const assignmentsGet = createRoute({
  ...op('directory.roleAssignments.get', 'get', `${BASE}/roleassignments/{roleAssignmentId}`),
  request: { params: Assignment1 },
  responses: { 200: Any },
})
const assignmentsInsert = createRoute({
  ...op('directory.roleAssignments.insert', 'post', `${BASE}/roleassignments`),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const assignmentsDelete = createRoute({
  ...op('directory.roleAssignments.delete', 'delete', `${BASE}/roleassignments/{roleAssignmentId}`),
  request: { params: Assignment1 },
  responses: { 204: { description: 'Deleted' } },
})

function assignmentOf(db: Db, id: string): Assignment {
  const found = liveAssignments(db).find((a) => a.id === id)
  if (!found) throw notFound('roleAssignmentId')
  return found
}

/**
 * The user or group a list's `userKey` names: "The primary email address, alias email address, or unique user or
 * group ID" (roleAssignments.list). An unknown key is the users' 404.
 */
function assigneeByKey(c: WorldContext, key: string): { type: 'user' | 'group'; id: string; email: string } {
  const db = c.var.world.db
  const group = groupByKey(db, key)
  if (group) return { type: 'group', id: group.id, email: group.email }
  const user = userByKey(c, key)
  return { type: 'user', id: user.id, email: user.email }
}

/** The user or group an assignment body's `assignedTo` names (a user's unique id or a group's id). */
function assigneeOf(db: Db, v: unknown): { assigneeType: 'user' | 'group'; assigneeId: string; isAdmin: boolean } {
  if (typeof v !== 'string' || v === '') throw invalid('assignedTo')
  const user = directoryUsers(db).find((u) => googleUserId(db, u.user.id) === v)
  if (user) return { assigneeType: 'user', assigneeId: user.user.id, isAdmin: user.user.isAdmin }
  const group = listGroups(db).find((g) => g.id === v)
  if (group) return { assigneeType: 'group', assigneeId: group.id, isAdmin: false }
  throw invalid('assignedTo')
}

/** Directory `roles`, `roleAssignments` and `privileges`. */
export const directoryRolesRouter = createGoogleRouter()
  .openapi(privilegesList, (c) => {
    admit(c, c.req.valid('param').customer)
    const items = privilegeResources().map((p) => ({ ...p, etag: etag(p) }))
    return c.json({ kind: 'admin#directory#privileges', etag: etag(items), items }, 200)
  })
  .openapi(rolesList, (c) => {
    admit(c, c.req.valid('param').customer)
    const q = c.req.valid('query')
    const { page, nextPageToken } = pageOf(listRoles(c.var.world.db), q.maxResults ?? 100, q.pageToken)
    const items = page.map(roleResource)
    return c.json(
      { kind: 'admin#directory#roles', etag: etag(items), items, ...(nextPageToken ? { nextPageToken } : {}) },
      200,
    )
  })
  .openapi(rolesGet, (c) => {
    const { customer, roleId } = c.req.valid('param')
    admit(c, customer)
    return c.json(roleResource(roleOf(c.var.world.db, roleId)), 200)
  })
  .openapi(rolesInsert, (c) => {
    admit(c, c.req.valid('param').customer)
    const body = c.req.valid('json')
    const name = nameOf(body.roleName)
    const privileges = privilegesOf(body.rolePrivileges)
    if (body.roleDescription !== undefined && typeof body.roleDescription !== 'string') throw invalid('roleDescription')
    const made = c.var.world.tx((db) => {
      if (listRoles(db).some((r) => r.name.toLowerCase() === name.toLowerCase())) throw duplicate()
      const id = insertRole(db, name, (body.roleDescription as string | undefined) ?? '', privileges)
      return roleResource(roleOf(db, id))
    })
    return c.json(made, 200)
  })
  .openapi(rolesUpdate, (c) => c.json(changeRole(c, true), 200))
  .openapi(rolesPatch, (c) => c.json(changeRole(c, false), 200))
  .openapi(rolesDelete, (c) => {
    const { customer, roleId } = c.req.valid('param')
    admit(c, customer)
    c.var.world.tx((db) => {
      const role = roleOf(db, roleId)
      // Deviation (unverified): Google's answers to deleting a pre-built or an assigned role are not recorded.
      if (role.system) throw invalid('system roles cannot be deleted')
      if (liveAssignments(db).some((a) => a.roleId === role.id)) {
        throw new GoogleApiError('FAILED_PRECONDITION', 'conditionNotMet', 'The role is assigned.', {}, 400)
      }
      deleteRole(db, role.id)
    })
    return c.body(null, 204)
  })
  .openapi(assignmentsList, (c) => {
    admit(c, c.req.valid('param').customer)
    const q = c.req.valid('query')
    const db = c.var.world.db
    let all = liveAssignments(db)
    if (q.roleId !== undefined) all = all.filter((a) => a.roleId === roleOf(db, q.roleId!).id)
    if (q.userKey !== undefined) {
      const who = assigneeByKey(c, q.userKey)
      // "When set to true, fetches indirect role assignments (i.e. role assignment via a group) as well as direct
      // ones ... You must specify userKey or the indirect role assignments will not be included": the groups the
      // user (or group) belongs to, at any depth, as membership grants roles (heldPrivileges).
      const via = new Set(
        q.includeIndirectRoleAssignments === 'true'
          ? groupsContaining(db, who.email).map((email) => groupByKey(db, email)?.id)
          : [],
      )
      all = all.filter(
        (a) =>
          (a.assigneeType === who.type && a.assigneeId === who.id) ||
          (a.assigneeType === 'group' && via.has(a.assigneeId)),
      )
    }
    const { page, nextPageToken } = pageOf(all, q.maxResults ?? 100, q.pageToken)
    const items = page.map((a) => assignmentResource(db, a))
    return c.json(
      {
        kind: 'admin#directory#roleAssignments',
        etag: etag(items),
        items,
        ...(nextPageToken ? { nextPageToken } : {}),
      },
      200,
    )
  })
  .openapi(assignmentsGet, (c) => {
    const { customer, roleAssignmentId } = c.req.valid('param')
    admit(c, customer)
    return c.json(assignmentResource(c.var.world.db, assignmentOf(c.var.world.db, roleAssignmentId)), 200)
  })
  .openapi(assignmentsInsert, (c) => {
    admit(c, c.req.valid('param').customer)
    const body = c.req.valid('json')
    const made = c.var.world.tx((db) => {
      if (typeof body.roleId !== 'string') throw invalid('roleId')
      const role = roleById(db, body.roleId)
      if (!role) throw invalid('roleId')
      const who = assigneeOf(db, body.assignedTo)
      const scopeType = body.scopeType
      if (scopeType !== 'CUSTOMER' && scopeType !== 'ORG_UNIT') throw invalid('scopeType')
      let orgUnitId: string | null = null
      if (scopeType === 'ORG_UNIT') {
        const unit = typeof body.orgUnitId === 'string' ? unitById(db, body.orgUnitId) : undefined
        if (!unit) throw invalid('orgUnitId')
        orgUnitId = unit.id
      }
      if (role.name === CALENDAR_RESOURCES_ROLE && who.assigneeType === 'user' && scopeType === 'CUSTOMER') {
        // A user's Calendar resources role is the table the resources routes read (0250); a group's is stored.
        if (liveAssignments(db).some((a) => a.calendarResources && a.assigneeId === who.assigneeId)) throw duplicate()
        setCalendarResourcesAdmin(db, who.assigneeId, true)
      } else if (role.superAdmin) {
        // Deviation (unverified): the super admin role goes to a user over the whole customer; its assignment is
        // the user's isAdmin (as users.makeAdmin sets it).
        if (who.assigneeType !== 'user' || scopeType !== 'CUSTOMER') throw invalid('scopeType')
        if (who.isAdmin) throw duplicate()
        updateUserRow(db, who.assigneeId, { isAdmin: true })
      } else {
        const same = (a: Assignment) =>
          a.roleId === role.id &&
          a.assigneeId === who.assigneeId &&
          a.scopeType === scopeType &&
          a.orgUnitId === orgUnitId
        if (liveAssignments(db).some(same)) throw duplicate()
        insertAssignment(db, {
          roleId: role.id,
          assigneeType: who.assigneeType,
          assigneeId: who.assigneeId,
          scopeType,
          orgUnitId,
        })
      }
      const made = liveAssignments(db).filter(
        (a) => a.roleId === role.id && a.assigneeId === who.assigneeId && a.orgUnitId === orgUnitId,
      )
      return assignmentResource(db, made[made.length - 1]!)
    })
    return c.json(made, 200)
  })
  .openapi(assignmentsDelete, (c) => {
    const { customer, roleAssignmentId } = c.req.valid('param')
    admit(c, customer)
    c.var.world.tx((db) => {
      const a = assignmentOf(db, roleAssignmentId)
      if (a.superAdmin) updateUserRow(db, a.assigneeId, { isAdmin: false })
      else if (a.calendarResources) setCalendarResourcesAdmin(db, a.assigneeId, false)
      else deleteAssignment(db, a.id)
    })
    return c.body(null, 204)
  })
