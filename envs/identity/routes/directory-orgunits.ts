import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import type { Db } from '../../core/db.ts'
import { customerId } from '../ids.ts'
import {
  deleteUnit,
  insertUnit,
  listUnits,
  normalPath,
  parentPath,
  saveUnit,
  unitById,
  unitByPath,
  unitName,
  unitResource,
  usersIn,
  within,
  type OrgUnit,
} from '../store/org-units.ts'
import { etag, requireAdmin } from './directory-tokens.ts'
import { json, Any, Body } from './openapi-shapes.ts'

const Customer = z.object({ customerId: z.string() })
// `{+orgUnitPath}` in the client libraries: the path keeps its slashes (`Sales/EMEA`), or it is an `id:` id. Hono's
// `{.+}` lets the parameter span segments (@hono/zod-openapi turns `/{orgUnitPath{.+}}` into `/:orgUnitPath{.+}`).
const Unit = z.object({ customerId: z.string(), orgUnitPath: z.string() })
const BASE = '/admin/directory/v1/customer/{customerId}/orgunits'
const ONE = `${BASE}/{orgUnitPath{.+}}` as const

const invalid = (message: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', message)
const notFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Org unit not found')
const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/** An administrator, and a customer that names this workspace (`my_customer` or its id). */
function admit(c: WorldContext, customer: string) {
  requireAdmin(c)
  // Deviation (unverified): another customer's id answers 400 Invalid Customer Id; Google's wording is not recorded.
  if (customer !== 'my_customer' && customer !== customerId(c.var.world.db)) {
    throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Customer Id')
  }
}

/** The unit a path parameter names: `id:…`, or its path with or without the leading slash. */
function unitOf(db: Db, key: string): OrgUnit {
  const unit = key.startsWith('id:') ? unitById(db, key) : unitByPath(db, key)
  if (!unit) throw notFound()
  return unit
}

/** The parent a body names by `parentOrgUnitId` and/or `parentOrgUnitPath` (both must agree); undefined if neither. */
function parentOf(db: Db, body: Record<string, unknown>): OrgUnit | undefined {
  const byId = str(body.parentOrgUnitId)
  const byPath = str(body.parentOrgUnitPath)
  if (byId === undefined && byPath === undefined) return undefined
  const fromId = byId !== undefined ? unitById(db, byId) : undefined
  const fromPath = byPath !== undefined && byPath.startsWith('/') ? unitByPath(db, byPath) : undefined
  if ((byId !== undefined && !fromId) || (byPath !== undefined && !fromPath)) throw invalid('Invalid Parent Orgunit Id')
  if (fromId && fromPath && fromId.id !== fromPath.id) {
    throw invalid(`Invalid Input: Inconsistent Orgunit id and path in request - ${byId}, ${byPath}`)
  }
  return fromId ?? fromPath
}

/** A unit name: not empty, no slash or control character, at most 255 characters. */
function nameOf(v: unknown): string {
  const name = str(v)?.trim()
  if (!name || /[/\u0000-\u001f\u007f]/.test(name) || name.length > 255) throw invalid('Invalid Ou Name')
  return name
}

/** A body's fields of the wrong JSON type: Google's 400 naming the field (its parser refuses them). */
function checkTypes(body: Record<string, unknown>) {
  for (const field of ['description', 'parentOrgUnitPath', 'parentOrgUnitId'] as const) {
    if (body[field] !== undefined && typeof body[field] !== 'string') throw invalid(`Invalid Input: ${field}`)
  }
  if (body.blockInheritance !== undefined && typeof body.blockInheritance !== 'boolean') {
    throw invalid('Invalid Input: blockInheritance')
  }
}

/** A sibling already at this path (letter case ignored), other than `self`. */
function taken(db: Db, path: string, self?: OrgUnit) {
  const clash = unitByPath(db, path)
  // Deviation (unverified): Google's wording for a duplicate unit is not recorded; clients read it as invalidOrgunit.
  if (clash && clash.id !== self?.id) throw invalid('Invalid Ou Id')
}

const route = <M extends 'get' | 'post' | 'put' | 'patch' | 'delete', P extends string>(
  operationId: string,
  method: M,
  path: P,
) => ({ operationId, method, path })

const list = createRoute({
  ...route('directory.orgunits.list', 'get', BASE),
  request: {
    params: Customer,
    query: z.object({
      orgUnitPath: z.string().optional(),
      type: z.enum(['all', 'children', 'allIncludingParent']).optional(),
    }),
  },
  responses: { 200: Any },
})
const get = createRoute({
  ...route('directory.orgunits.get', 'get', ONE),
  request: { params: Unit },
  responses: { 200: Any },
})
const insert = createRoute({
  ...route('directory.orgunits.insert', 'post', BASE),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const update = createRoute({
  ...route('directory.orgunits.update', 'put', ONE),
  request: { params: Unit, body: Body },
  responses: { 200: Any },
})
const patch = createRoute({
  ...route('directory.orgunits.patch', 'patch', ONE),
  request: { params: Unit, body: Body },
  responses: { 200: Any },
})
const del = createRoute({
  ...route('directory.orgunits.delete', 'delete', ONE),
  request: { params: Unit },
  responses: { 204: { description: 'Deleted' } },
})

/** A unit's changes (patch semantics; Google's update keeps what the body leaves out too). */
function applyChanges(c: WorldContext, key: string, body: Record<string, unknown>) {
  const { customerId: customer } = c.req.valid('param' as never) as { customerId: string }
  admit(c, customer)
  checkTypes(body)
  return c.var.world.tx((db) => {
    const unit = unitOf(db, key)
    // Deviation (unverified): the root unit (the organisation itself) is read-only here.
    if (unit.root) throw invalid('Invalid Ou Id')
    const parent = parentOf(db, body) ?? unitByPath(db, parentPath(unit.path))!
    if (within(parent.path, unit.path)) throw invalid('Invalid Parent Orgunit Id')
    const name = body.name === undefined ? unitName(unit) : nameOf(body.name)
    const path = normalPath(`${parent.path}/${name}`)
    taken(db, path, unit)
    const description = body.description === undefined ? unit.description : (str(body.description) ?? '')
    const block = typeof body.blockInheritance === 'boolean' ? body.blockInheritance : unit.blockInheritance
    saveUnit(db, unit, { path, description, blockInheritance: block })
    return unitResource(db, unitOf(db, `id:${unit.id}`))
  })
}

/** Directory `orgunits`: list (`type`, `orgUnitPath`), get, insert, update, patch, delete. */
export const directoryOrgUnitsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    admit(c, c.req.valid('param').customerId)
    const db = c.var.world.db
    const q = c.req.valid('query')
    const from = q.orgUnitPath ? unitOf(db, q.orgUnitPath) : unitByPath(db, '/')!
    const type = q.type ?? 'children'
    const below = listUnits(db).filter((u) => u.id !== from.id && within(u.path, from.path))
    const units =
      type === 'children' ? below.filter((u) => parentPath(u.path).toLowerCase() === from.path.toLowerCase()) : below
    // Deviation (unverified): `allIncludingParent` of the root lists the root too.
    if (type === 'allIncludingParent') units.unshift(from)
    const organizationUnits = units.map((u) => unitResource(db, u))
    return c.json(
      {
        kind: 'admin#directory#orgUnits',
        etag: etag(organizationUnits),
        ...(organizationUnits.length > 0 ? { organizationUnits } : {}),
      },
      200,
    )
  })
  .openapi(get, (c) => {
    const { customerId: customer, orgUnitPath } = c.req.valid('param')
    admit(c, customer)
    return c.json(unitResource(c.var.world.db, unitOf(c.var.world.db, orgUnitPath)), 200)
  })
  .openapi(insert, (c) => {
    admit(c, c.req.valid('param').customerId)
    const body = c.req.valid('json')
    checkTypes(body)
    const created = c.var.world.tx((db) => {
      const name = nameOf(body.name)
      const parent = parentOf(db, body)
      if (!parent) throw invalid('Invalid Parent Orgunit Id')
      const path = normalPath(`${parent.path}/${name}`)
      taken(db, path)
      const description = str(body.description) ?? ''
      return unitResource(db, insertUnit(db, path, description, body.blockInheritance === true))
    })
    return c.json(created, 200)
  })
  .openapi(update, (c) => c.json(applyChanges(c, c.req.valid('param').orgUnitPath, c.req.valid('json')), 200))
  .openapi(patch, (c) => c.json(applyChanges(c, c.req.valid('param').orgUnitPath, c.req.valid('json')), 200))
  .openapi(del, (c) => {
    const { customerId: customer, orgUnitPath } = c.req.valid('param')
    admit(c, customer)
    c.var.world.tx((db) => {
      const unit = unitOf(db, orgUnitPath)
      if (unit.root) throw invalid('Invalid Ou Id')
      const children = listUnits(db).some((u) => u.id !== unit.id && within(u.path, unit.path))
      // Deviation (unverified): Google answers 400 conditionNotMet here; its wording is not recorded.
      if (children || usersIn(db, unit.path) > 0) {
        throw new GoogleApiError(
          'FAILED_PRECONDITION',
          'conditionNotMet',
          'Org unit has users or sub-org units; move or delete them first.',
          {},
          400,
        )
      }
      deleteUnit(db, unit)
    })
    return c.body(null, 204)
  })
