import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { getMeta, nowMs } from '../../core/clock.ts'
import { pageOf } from '../../core/paging.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import type { Db } from '../../core/db.ts'
import {
  deleteUser,
  directoryUsers,
  undeleteUser,
  factsOf,
  insertUser,
  saveFacts,
  updateUserRow,
  userResource,
  type UserFacts,
  isDelegatedAdmin,
} from '../store/users.ts'
import { matches, parseQuery } from '../store/query.ts'
import { unitByPath } from '../store/org-units.ts'
import { customerId } from '../ids.ts'
import { addressTaken, insertAlias, takenParkedAliases } from '../store/aliases.ts'
import { followRename } from '../store/renames.ts'
import { aliasesOf } from '../../core/aliases.ts'
import { etag, requireAdmin, userByKey } from './directory-tokens.ts'
import {
  customSchemasOf,
  customValuesIn,
  indexedFieldNames,
  listSchemas,
  saveUserValues,
  searchableValues,
  type UserSchema,
} from '../store/user-schemas.ts'
import { inDomain } from '../store/users.ts'
import { json, Any, Body } from './openapi-shapes.ts'

const UserParam = z.object({ userKey: z.string() })
const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)

const QUERY_FIELDS = [
  'email',
  'name',
  'givenName',
  'familyName',
  'isAdmin',
  'isSuspended',
  'orgUnitPath',
  'orgTitle',
  'isDelegatedAdmin',
]

function searchRecord(db: Db, u: WorldUserRow, f: UserFacts): Record<string, string[]> {
  return {
    // "The user's email addresses, including aliases" (Google's search guide).
    email: [u.email, ...aliasesOf(db, 'user', u.id)],
    name: [u.name],
    givenName: [u.givenName],
    familyName: [u.familyName],
    isAdmin: [String(u.isAdmin)],
    isSuspended: [String(f.suspended)],
    // Google's `orgUnitPath=` "matches all org unit chains under the target": a user matches each unit above theirs.
    orgUnitPath: f.orgUnitPath.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/') || '/'),
    orgTitle: [u.title],
    isDelegatedAdmin: [String(isDelegatedAdmin(db, u.id))],
    // Custom schemas' indexed fields, as `schemaName.fieldName` (Google's search guide: custom user attributes).
    ...searchableValues(db, u.id),
  }
}

type Projection = { projection?: string | undefined; customFieldMask?: string | undefined }

/**
 * Which schemas a read shows in `customSchemas`: none for `basic` (the default), all for `full`, those
 * `customFieldMask` names for `custom` (required there; an unknown schema name is 400).
 * Deviation (unverified): Google's answers to a missing mask or an unknown name in it are not recorded.
 */
function schemasShown(db: Db, q: Projection): ((s: UserSchema) => boolean) | undefined {
  if (q.projection === 'full') return () => true
  if (q.projection !== 'custom') return undefined
  const names = (q.customFieldMask ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean)
  if (names.length === 0) throw invalid('customFieldMask')
  const known = new Set(listSchemas(db).map((s) => s.schemaName.toLowerCase()))
  if (names.some((n) => !known.has(n))) throw invalid('customFieldMask')
  return (s) => names.includes(s.schemaName.toLowerCase())
}

/** The user as the projection shows them (an administrator's view: every field of the shown schemas). */
function projected(db: Db, user: WorldUserRow, facts: UserFacts, shown: ((s: UserSchema) => boolean) | undefined) {
  return userResource(db, user, facts, shown ? customSchemasOf(db, user.id, shown) : undefined)
}

/**
 * users.get with `viewType=domain_public`: what any user of the domain may see of a colleague (Google's "Retrieve a
 * user as a non-administrator"): the public profile, and custom fields whose `readAccessType` is ALL_DOMAIN_USERS;
 * ADMINS_AND_SELF fields only to an administrator or the user themself.
 * Deviation (unverified): the exact set of standard fields in Google's public view.
 */
function publicView(c: WorldContext, user: WorldUserRow, shown: ((s: UserSchema) => boolean) | undefined) {
  const db = c.var.world.db
  const full = userResource(db, user, factsOf(db, user.id)) as Record<string, unknown>
  const privileged = c.var.user.isAdmin || c.var.user.id === user.id
  const custom = shown
    ? customSchemasOf(db, user.id, shown, (f) => privileged || f.readAccessType === 'ALL_DOMAIN_USERS')
    : {}
  const keep = ['kind', 'id', 'primaryEmail', 'name', 'emails', 'organizations', 'thumbnailPhotoUrl']
  const body: Record<string, unknown> = Object.fromEntries(keep.filter((k) => k in full).map((k) => [k, full[k]]))
  if (Object.keys(custom).length > 0) body.customSchemas = custom
  return { ...body, etag: etag(body) }
}

/** `customer` (`my_customer` or the id) or `domain` names this workspace; Google needs one of them. */
export function checkCustomer(
  c: WorldContext,
  q: { customer?: string | undefined; domain?: string | undefined },
): boolean {
  const db = c.var.world.db
  if (!q.customer && !q.domain) throw new GoogleApiError('INVALID_ARGUMENT', 'badRequest', 'Bad Request')
  if (q.customer && q.customer !== 'my_customer' && q.customer !== customerId(db)) {
    throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: customer')
  }
  if (q.domain && q.domain.toLowerCase() !== (getMeta(db, 'domain') ?? '').toLowerCase()) {
    throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Not Authorized to access this resource/api')
  }
  return true
}

const list = createRoute({
  operationId: 'directory.users.list',
  method: 'get',
  path: '/admin/directory/v1/users',
  request: {
    query: z.object({
      customer: z.string().optional(),
      domain: z.string().optional(),
      query: z.string().optional(),
      orderBy: z.enum(['email', 'familyName', 'givenName']).optional(),
      sortOrder: z.enum(['ASCENDING', 'DESCENDING']).optional(),
      maxResults: z.coerce.number().int().min(1).max(500).optional(),
      pageToken: z.string().optional(),
      showDeleted: z.enum(['true', 'false']).optional(),
      projection: z.enum(['basic', 'custom', 'full']).optional(),
      viewType: z.enum(['admin_view', 'domain_public']).optional(),
      customFieldMask: z.string().optional(),
    }),
  },
  responses: { 200: Any },
})
const get = createRoute({
  operationId: 'directory.users.get',
  method: 'get',
  path: '/admin/directory/v1/users/{userKey}',
  request: {
    params: UserParam,
    query: z.object({
      projection: z.enum(['basic', 'custom', 'full']).optional(),
      viewType: z.enum(['admin_view', 'domain_public']).optional(),
      customFieldMask: z.string().optional(),
    }),
  },
  responses: { 200: Any },
})
const insert = createRoute({
  operationId: 'directory.users.insert',
  method: 'post',
  path: '/admin/directory/v1/users',
  request: { body: Body },
  responses: { 200: Any },
})
const update = createRoute({
  operationId: 'directory.users.update',
  method: 'put',
  path: '/admin/directory/v1/users/{userKey}',
  request: { params: UserParam, body: Body },
  responses: { 200: Any },
})
const patch = createRoute({
  operationId: 'directory.users.patch',
  method: 'patch',
  path: '/admin/directory/v1/users/{userKey}',
  request: { params: UserParam, body: Body },
  responses: { 200: Any },
})
const del = createRoute({
  operationId: 'directory.users.delete',
  method: 'delete',
  path: '/admin/directory/v1/users/{userKey}',
  request: { params: UserParam },
  responses: { 204: { description: 'Deleted' } },
})
const makeAdmin = createRoute({
  operationId: 'directory.users.makeAdmin',
  method: 'post',
  path: '/admin/directory/v1/users/{userKey}/makeAdmin',
  request: { params: UserParam, body: Body },
  responses: { 204: { description: 'Done' } },
})

const undelete = createRoute({
  operationId: 'directory.users.undelete',
  method: 'post',
  path: '/admin/directory/v1/users/{userKey}/undelete',
  request: { params: UserParam, body: Body },
  responses: { 204: { description: 'Done' } },
})

const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
const obj = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

/** The changes a User body asks for (patch semantics, as Google's update has too). */
function changesOf(c: WorldContext, body: Record<string, unknown>, user?: WorldUserRow) {
  const db = c.var.world.db
  const set: Parameters<typeof updateUserRow>[2] = {}
  const facts: Partial<UserFacts> = {}
  const email = str(body.primaryEmail)
  if (body.primaryEmail !== undefined) {
    const domain = (getMeta(db, 'domain') ?? '').toLowerCase()
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw invalid('primary_user_email')
    if (email.split('@')[1]!.toLowerCase() !== domain)
      throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Domain not found.')
    // Another user's, a group's or an alias (the user's own too: Google keeps each address on one account).
    if (user?.email.toLowerCase() !== email.toLowerCase() && addressTaken(db, email))
      throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')
    set.email = email.toLowerCase()
  }
  const name = obj(body.name)
  if (body.name !== undefined && !name) throw invalid('name')
  const given = name ? str(name.givenName) : undefined
  const family = name ? str(name.familyName) : undefined
  if (given !== undefined) set.givenName = given
  if (family !== undefined) set.familyName = family
  if (given !== undefined || family !== undefined) {
    set.name = `${given ?? user?.givenName ?? ''} ${family ?? user?.familyName ?? ''}`.trim()
  }
  if (body.suspended !== undefined) {
    if (typeof body.suspended !== 'boolean') throw invalid('suspended')
    facts.suspended = body.suspended
    facts.suspensionReason = body.suspended ? 'ADMIN' : null
  }
  if (body.orgUnitPath !== undefined) facts.orgUnitPath = existingUnitPath(db, body.orgUnitPath)
  if (body.password !== undefined) {
    // Google takes 8 to 100 characters (a hash, with `hashFunction`, as given). The mock keeps no password, only
    // when one was set: an admin's reset locks the person out of their sign-in (docs/decisions/0470).
    const pw = body.password
    if (typeof pw !== 'string' || (body.hashFunction === undefined && (pw.length < 8 || pw.length > 100)))
      throw invalid('password')
    facts.passwordSetMs = nowMs(db)
  }
  if (typeof body.changePasswordAtNextLogin === 'boolean')
    facts.changePasswordAtNextLogin = body.changePasswordAtNextLogin
  const orgs = Array.isArray(body.organizations) ? body.organizations : undefined
  if (orgs) set.title = str(obj(orgs[0])?.title) ?? ''
  return { set, facts }
}

/** Directory `users`: list (with `query`), get, insert, update, patch, delete, makeAdmin. */
export const directoryUsersRouter = createGoogleRouter()
  .openapi(list, (c) => {
    requireAdmin(c)
    const q = c.req.valid('query')
    checkCustomer(c, q)
    const db = c.var.world.db
    const clauses = parseQuery(q.query, [...QUERY_FIELDS, ...indexedFieldNames(db)])
    const shown = schemasShown(db, q)
    const key = q.orderBy ?? 'email'
    const sortKey = (u: WorldUserRow) =>
      (key === 'email' ? u.email : key === 'givenName' ? u.givenName : u.familyName).toLowerCase()
    const all = directoryUsers(db, q.showDeleted === 'true')
      .filter(({ user, facts }) =>
        matches(searchRecord(db, user, facts), clauses, ['email', 'name', 'givenName', 'familyName']),
      )
      .sort((a, b) => sortKey(a.user).localeCompare(sortKey(b.user)) || a.user.email.localeCompare(b.user.email))
    if (q.sortOrder === 'DESCENDING') all.reverse()
    const { page, nextPageToken } = pageOf(all, q.maxResults ?? 100, q.pageToken)
    const users = page.map(({ user, facts }) => projected(db, user, facts, shown))
    return c.json(
      {
        kind: 'admin#directory#users',
        etag: '"users"',
        ...(users.length > 0 ? { users } : {}),
        ...(nextPageToken ? { nextPageToken } : {}),
      },
      200,
    )
  })
  .openapi(get, (c) => {
    const q = c.req.valid('query')
    const db = c.var.world.db
    // Any user of the domain may read a colleague's public view; the admin view is for administrators.
    if (q.viewType === 'domain_public' && inDomain(db, c.var.user)) {
      const shown = schemasShown(db, q)
      return c.json(publicView(c, liveUser(c, c.req.valid('param').userKey), shown), 200)
    }
    requireAdmin(c)
    const shown = schemasShown(db, q)
    const user = liveUser(c, c.req.valid('param').userKey)
    return c.json(projected(db, user, factsOf(db, user.id), shown), 200)
  })
  .openapi(insert, (c) => {
    requireAdmin(c)
    const body = c.req.valid('json')
    if (!str(body.primaryEmail)) throw invalid('primary_user_email')
    const name = obj(body.name)
    if (!name || !str(name.givenName)) throw invalid('given_name')
    if (!str(name.familyName)) throw invalid('family_name')
    if (!str(body.password)) throw invalid('password')
    const created = c.var.world.tx((db) => {
      const { set, facts } = changesOf(c, body)
      const custom = customValuesIn(db, undefined, body.customSchemas)
      const user = insertUser(db, {
        email: set.email!,
        givenName: set.givenName ?? '',
        familyName: set.familyName ?? '',
        title: set.title ?? '',
        facts,
      })
      for (const [schemaId, values] of custom) saveUserValues(db, user.id, schemaId, values)
      return userResource(db, user, factsOf(db, user.id), customSchemasOf(db, user.id))
    })
    return c.json(created, 200)
  })
  .openapi(update, (c) => c.json(applyChanges(c, c.req.valid('param').userKey, c.req.valid('json')), 200))
  .openapi(patch, (c) => c.json(applyChanges(c, c.req.valid('param').userKey, c.req.valid('json')), 200))
  .openapi(del, (c) => {
    requireAdmin(c)
    const user = liveUser(c, c.req.valid('param').userKey)
    if (user.id === c.var.user.id) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Cannot delete yourself.')
    c.var.world.tx((db) => deleteUser(db, user.id))
    return c.body(null, 204)
  })
  .openapi(makeAdmin, (c) => {
    requireAdmin(c)
    const user = liveUser(c, c.req.valid('param').userKey)
    const status = c.req.valid('json').status
    if (typeof status !== 'boolean') throw invalid('status')
    c.var.world.tx((db) => updateUserRow(db, user.id, { isAdmin: status }))
    return c.body(null, 204)
  })

  .openapi(undelete, (c) => {
    requireAdmin(c)
    const user = userByKey(c, c.req.valid('param').userKey)
    if (factsOf(c.var.world.db, user.id).deletedMs === null) {
      throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: userKey')
    }
    const given = c.req.valid('json').orgUnitPath
    const ou = given === undefined ? undefined : existingUnitPath(c.var.world.db, given)
    c.var.world.tx((db) => {
      // Google's Admin help: a user cannot be restored once their username or an email alias has been given to
      // someone else. Deviation (unverified): the API's answer to that is not recorded; `409 duplicate` as for a
      // taken address elsewhere.
      if (takenParkedAliases(db, user.id).length > 0)
        throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')
      undeleteUser(db, user.id, ou)
    })
    return c.body(null, 204)
  })

/**
 * The stored path of the unit a User body names (`orgUnitPath`, letter case as given or not): a unit that does not
 * exist is Google's 400 `Invalid Input: INVALID_OU_ID`.
 */
function existingUnitPath(db: Db, given: unknown): string {
  const path = str(given)
  const unit = path?.startsWith('/') ? unitByPath(db, path) : undefined
  if (!unit) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: INVALID_OU_ID')
  return unit.path
}

/** A user the directory shows (deleted users are not found). */
export function liveUser(c: WorldContext, key: string): WorldUserRow {
  const user = userByKey(c, key)
  if (factsOf(c.var.world.db, user.id).deletedMs !== null)
    throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: userKey')
  return user
}

function applyChanges(c: WorldContext, key: string, body: Record<string, unknown>) {
  requireAdmin(c)
  const user = liveUser(c, key)
  return c.var.world.tx((db) => {
    const { set, facts } = changesOf(c, body, user)
    const custom = customValuesIn(db, user.id, body.customSchemas)
    updateUserRow(db, user.id, set)
    for (const [schemaId, values] of custom) saveUserValues(db, user.id, schemaId, values)
    // A renamed user keeps the old address as an alias, so mail to it still arrives (Google's Admin help: "Google
    // Workspace retains the old address as an email alias for the user, to ensure continuous mail delivery").
    if (set.email && set.email !== user.email.toLowerCase()) {
      insertAlias(db, 'user', user.id, user.email)
      followRename(db, 'user', user.email, set.email)
    }
    saveFacts(db, { ...factsOf(db, user.id), ...facts })
    const after = userByKey(c, set.email ?? user.email)
    // Deviation (unverified): whether Google's answer to a change shows the user's custom fields is not recorded;
    // they are shown (as `projection=full`).
    return userResource(db, after, factsOf(db, after.id), customSchemasOf(db, after.id))
  })
}
