import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { pageOf } from '../../core/paging.ts'
import {
  featuresOf,
  worldBuildings,
  worldFeatures,
  worldResources,
  type BuildingRow,
  type ResourceRow,
} from '../../core/resources.ts'
import { customerId } from '../ids.ts'
import { identityRoles } from '../schema.ts'
import { CALENDAR_RESOURCES, heldPrivileges } from '../store/roles.ts'
import {
  buildingResource,
  calendarResource,
  featureResource,
  findBuilding,
  findFeature,
  findResource,
  insertBuilding,
  insertFeature,
  insertResource,
  listBuildings,
  listFeatures,
  listResources,
  renameFeature,
} from '../store/resources.ts'
import { matchesResource, parseResourceQuery, resourceOrder } from '../store/resource-query.ts'
import { Body } from './openapi-shapes.ts'

const Any = { description: 'OK', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } }
const Deleted = { 204: { description: 'Deleted' } }
const Paging = z.object({
  maxResults: z.coerce.number().int().min(1).max(500).optional(),
  pageToken: z.string().optional(),
})
const Customer = z.object({ customer: z.string() })
const CalParam = Customer.extend({ calendarResourceId: z.string() })
const BuildingParam = Customer.extend({ buildingId: z.string() })
const FeatureParam = Customer.extend({ featureKey: z.string() })
const RenameParam = Customer.extend({ oldName: z.string() })
const CATEGORIES = ['CONFERENCE_ROOM', 'OTHER', 'CATEGORY_UNKNOWN'] as const

const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)
const missing = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'required', `Missing required field: ${what}`)
const notFound = (what: string) => new GoogleApiError('NOT_FOUND', 'notFound', `Resource Not Found: ${what}`)
const duplicate = () => new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')
const forbidden = () =>
  new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Not Authorized to access this resource/api')

type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete'
const path = <P extends string, M extends Verb>(id: string, method: M, p: P) => ({
  operationId: `directory.resources.${id}`,
  method,
  path: `/admin/directory/v1/customer/{customer}/resources/${p}` as const,
})

/**
 * A super admin, or a delegated admin whose role holds the Calendar resource privileges, and a customer that names
 * this workspace (`my_customer` or its id); anyone else gets Google's 403.
 */
function guard(c: WorldContext) {
  const db = c.var.world.db
  const delegated = db
    .select()
    .from(identityRoles)
    .where(and(eq(identityRoles.userId, c.var.user.id), eq(identityRoles.role, 'calendar-resources')))
    .get()
  // The role is also held through a group given it by roleAssignments.insert (docs/decisions/0476).
  if (!c.var.user.isAdmin && !delegated && !heldPrivileges(db, c.var.user).has(CALENDAR_RESOURCES)) throw forbidden()
  const customer = (c.req.valid('param' as never) as { customer: string }).customer
  // Deviation (unverified): another customer's id answers 403 like an unauthorised caller (Google does not say).
  if (customer !== 'my_customer' && customer !== customerId(db)) throw forbidden()
}

const str = (v: unknown, what: string): string | undefined => {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw invalid(what)
  return v
}

function strings(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw invalid(what)
  return v as string[]
}

// ---- calendars ----

/** Resource fields from a body over the current ones (update and patch both merge, as Google documents today). */
function resourceFields(c: WorldContext, body: Record<string, unknown>, cur?: ResourceRow) {
  const db = c.var.world.db
  const name = str(body.resourceName, 'resourceName') ?? cur?.name
  if (!name || !name.trim()) throw missing('resourceName')
  const given = str(body.resourceCategory, 'resourceCategory')
  const category = (given ?? cur?.category ?? 'OTHER') as ResourceRow['category']
  if (!CATEGORIES.includes(category)) throw invalid('resourceCategory')
  let capacity = cur?.capacity ?? null
  if (body.capacity !== undefined) {
    if (body.capacity !== null && (!Number.isInteger(body.capacity) || (body.capacity as number) < 0)) {
      throw invalid('capacity')
    }
    capacity = (body.capacity as number | null) ?? null
  }
  const buildingId =
    body.buildingId !== undefined ? (str(body.buildingId, 'buildingId') ?? null) : (cur?.buildingId ?? null)
  const building = buildingId ? findBuilding(db, buildingId) : undefined
  if (buildingId && !building) throw invalid('buildingId')
  const floorName = body.floorName !== undefined ? (str(body.floorName, 'floorName') ?? null) : (cur?.floorName ?? null)
  // Deviation (unverified): a floor must be one of its building's floorNames.
  if (floorName && building && !(JSON.parse(building.floorNames) as string[]).includes(floorName)) {
    throw invalid('floorName')
  }
  let features = cur ? featuresOf(cur) : []
  if (body.featureInstances !== undefined) {
    if (!Array.isArray(body.featureInstances)) throw invalid('featureInstances')
    features = body.featureInstances.map((fi) => {
      const n = (fi as { feature?: { name?: unknown } } | null)?.feature?.name
      if (typeof n !== 'string' || !findFeature(db, n)) throw invalid('featureInstances')
      return n
    })
    features = [...new Set(features)]
  }
  const keep = <K extends 'type' | 'description' | 'userVisibleDescription' | 'floorSection'>(k: K, wire: string) =>
    body[wire] !== undefined ? (str(body[wire], wire) ?? null) : (cur?.[k] ?? null)
  return {
    name,
    category,
    capacity,
    buildingId,
    floorName,
    features: JSON.stringify(features),
    type: keep('type', 'resourceType'),
    description: keep('description', 'resourceDescription'),
    userVisibleDescription: keep('userVisibleDescription', 'userVisibleDescription'),
    floorSection: keep('floorSection', 'floorSection'),
  }
}

function resourceOf(c: WorldContext): ResourceRow {
  const id = (c.req.valid('param' as never) as { calendarResourceId: string }).calendarResourceId
  const r = findResource(c.var.world.db, id)
  if (!r) throw notFound('calendarResourceId')
  return r
}

function saveResource(c: WorldContext) {
  guard(c)
  const cur = resourceOf(c)
  const body = c.req.valid('json' as never) as Record<string, unknown>
  if (body.resourceId !== undefined && body.resourceId !== cur.id) throw invalid('resourceId')
  const set = resourceFields(c, body, cur)
  const row = c.var.world.tx((db) => {
    db.update(worldResources).set(set).where(eq(worldResources.id, cur.id)).run()
    return calendarResource(db, findResource(db, cur.id)!)
  })
  return c.json(row, 200)
}

const calList = createRoute({
  ...path('calendars.list', 'get', 'calendars'),
  request: {
    params: Customer,
    query: Paging.extend({ query: z.string().optional(), orderBy: z.string().optional() }),
  },
  responses: { 200: Any },
})
const calGet = createRoute({
  ...path('calendars.get', 'get', 'calendars/{calendarResourceId}'),
  request: { params: CalParam },
  responses: { 200: Any },
})
const calInsert = createRoute({
  ...path('calendars.insert', 'post', 'calendars'),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const calUpdate = createRoute({
  ...path('calendars.update', 'put', 'calendars/{calendarResourceId}'),
  request: { params: CalParam, body: Body },
  responses: { 200: Any },
})
const calPatch = createRoute({
  ...path('calendars.patch', 'patch', 'calendars/{calendarResourceId}'),
  request: { params: CalParam, body: Body },
  responses: { 200: Any },
})
const calDelete = createRoute({
  ...path('calendars.delete', 'delete', 'calendars/{calendarResourceId}'),
  request: { params: CalParam },
  responses: Deleted,
})

// ---- buildings ----

function buildingFields(body: Record<string, unknown>, cur?: BuildingRow) {
  const name = str(body.buildingName, 'buildingName') ?? cur?.name
  if (!name || !name.trim()) throw missing('buildingName')
  const floors =
    body.floorNames !== undefined
      ? strings(body.floorNames, 'floorNames')
      : cur
        ? (JSON.parse(cur.floorNames) as string[])
        : []
  let coordinates = cur?.coordinates ?? null
  if (body.coordinates !== undefined) {
    const co = body.coordinates as { latitude?: unknown; longitude?: unknown } | null
    if (
      co !== null &&
      (typeof co !== 'object' ||
        typeof co.latitude !== 'number' ||
        typeof co.longitude !== 'number' ||
        Math.abs(co.latitude) > 90 ||
        Math.abs(co.longitude) > 180)
    )
      throw invalid('coordinates')
    coordinates = co ? JSON.stringify({ latitude: co.latitude, longitude: co.longitude }) : null
  }
  let address = cur?.address ?? null
  if (body.address !== undefined) {
    if (body.address !== null && (typeof body.address !== 'object' || Array.isArray(body.address))) {
      throw invalid('address')
    }
    address = body.address ? JSON.stringify(body.address) : null
  }
  const description =
    body.description !== undefined ? (str(body.description, 'description') ?? '') : (cur?.description ?? '')
  return { name, floorNames: JSON.stringify(floors), coordinates, address, description }
}

function buildingOf(c: WorldContext): BuildingRow {
  const id = (c.req.valid('param' as never) as { buildingId: string }).buildingId
  const b = findBuilding(c.var.world.db, id)
  if (!b) throw notFound('buildingId')
  return b
}

function saveBuilding(c: WorldContext) {
  guard(c)
  const cur = buildingOf(c)
  const body = c.req.valid('json' as never) as Record<string, unknown>
  if (body.buildingId !== undefined && body.buildingId !== cur.id) throw invalid('buildingId')
  const set = buildingFields(body, cur)
  checkBuildingName(c, set.name, cur.id)
  const out = c.var.world.tx((db) => {
    db.update(worldBuildings).set(set).where(eq(worldBuildings.id, cur.id)).run()
    return buildingResource(findBuilding(db, cur.id)!)
  })
  return c.json(out, 200)
}

/** Building names are unique in a workspace (the discovery document says so). */
function checkBuildingName(c: WorldContext, name: string, self?: string) {
  const clash = listBuildings(c.var.world.db).find((b) => b.id !== self && b.name.toLowerCase() === name.toLowerCase())
  if (clash) throw duplicate()
}

const bList = createRoute({
  ...path('buildings.list', 'get', 'buildings'),
  request: { params: Customer, query: Paging },
  responses: { 200: Any },
})
const bGet = createRoute({
  ...path('buildings.get', 'get', 'buildings/{buildingId}'),
  request: { params: BuildingParam },
  responses: { 200: Any },
})
const bInsert = createRoute({
  ...path('buildings.insert', 'post', 'buildings'),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const bUpdate = createRoute({
  ...path('buildings.update', 'put', 'buildings/{buildingId}'),
  request: { params: BuildingParam, body: Body },
  responses: { 200: Any },
})
const bPatch = createRoute({
  ...path('buildings.patch', 'patch', 'buildings/{buildingId}'),
  request: { params: BuildingParam, body: Body },
  responses: { 200: Any },
})
const bDelete = createRoute({
  ...path('buildings.delete', 'delete', 'buildings/{buildingId}'),
  request: { params: BuildingParam },
  responses: Deleted,
})

// ---- features ----

function featureOf(c: WorldContext, key: string) {
  const f = findFeature(c.var.world.db, key)
  if (!f) throw notFound('featureKey')
  return f
}

function newFeatureName(c: WorldContext, v: unknown, self?: string): string {
  const name = str(v, 'name')
  if (!name || !name.trim()) throw missing('name')
  if (name !== self && findFeature(c.var.world.db, name)) throw duplicate()
  return name
}

function saveFeature(c: WorldContext) {
  guard(c)
  const cur = featureOf(c, (c.req.valid('param' as never) as { featureKey: string }).featureKey)
  const body = c.req.valid('json' as never) as Record<string, unknown>
  const name = body.name === undefined ? cur.name : newFeatureName(c, body.name, cur.name)
  c.var.world.tx((db) => renameFeature(db, cur.name, name))
  return c.json(featureResource(name), 200)
}

const fList = createRoute({
  ...path('features.list', 'get', 'features'),
  request: { params: Customer, query: Paging },
  responses: { 200: Any },
})
const fGet = createRoute({
  ...path('features.get', 'get', 'features/{featureKey}'),
  request: { params: FeatureParam },
  responses: { 200: Any },
})
const fInsert = createRoute({
  ...path('features.insert', 'post', 'features'),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const fUpdate = createRoute({
  ...path('features.update', 'put', 'features/{featureKey}'),
  request: { params: FeatureParam, body: Body },
  responses: { 200: Any },
})
const fPatch = createRoute({
  ...path('features.patch', 'patch', 'features/{featureKey}'),
  request: { params: FeatureParam, body: Body },
  responses: { 200: Any },
})
const fDelete = createRoute({
  ...path('features.delete', 'delete', 'features/{featureKey}'),
  request: { params: FeatureParam },
  responses: Deleted,
})
const fRename = createRoute({
  ...path('features.rename', 'post', 'features/{oldName}/rename'),
  request: { params: RenameParam, body: Body },
  responses: Deleted,
})

const listBody = (kind: string, key: string, items: unknown[], next: string | undefined) => ({
  kind,
  etag: `"${key}"`,
  ...(items.length > 0 ? { [key]: items } : {}),
  ...(next ? { nextPageToken: next } : {}),
})

/** Directory `resources.calendars`, `resources.buildings` and `resources.features`. */
export const directoryResourcesRouter = createGoogleRouter()
  .openapi(calList, (c) => {
    guard(c)
    const db = c.var.world.db
    const q = c.req.valid('query')
    const clauses = parseResourceQuery(q.query)
    const all = listResources(db)
      .filter((r) => matchesResource(db, r, clauses))
      .sort(resourceOrder(q.orderBy))
    const { page, nextPageToken } = pageOf(all, q.maxResults ?? 100, q.pageToken)
    return c.json(
      listBody(
        'admin#directory#resources#calendars#calendarResourcesList',
        'items',
        page.map((r) => calendarResource(db, r)),
        nextPageToken,
      ),
      200,
    )
  })
  .openapi(calGet, (c) => {
    guard(c)
    return c.json(calendarResource(c.var.world.db, resourceOf(c)), 200)
  })
  .openapi(calInsert, (c) => {
    guard(c)
    const body = c.req.valid('json')
    const id = str(body.resourceId, 'resourceId')
    if (!id || !id.trim()) throw missing('resourceId')
    if (findResource(c.var.world.db, id)) throw duplicate()
    const fields = resourceFields(c, body)
    const out = c.var.world.tx((db) => calendarResource(db, insertResource(db, { id, ...fields })))
    return c.json(out, 200)
  })
  .openapi(calUpdate, (c) => saveResource(c))
  .openapi(calPatch, (c) => saveResource(c))
  .openapi(calDelete, (c) => {
    guard(c)
    const r = resourceOf(c)
    c.var.world.tx((db) => db.delete(worldResources).where(eq(worldResources.id, r.id)).run())
    return c.body(null, 204)
  })
  .openapi(bList, (c) => {
    guard(c)
    const q = c.req.valid('query')
    const { page, nextPageToken } = pageOf(listBuildings(c.var.world.db), q.maxResults ?? 100, q.pageToken)
    return c.json(
      listBody(
        'admin#directory#resources#buildings#buildingsList',
        'buildings',
        page.map(buildingResource),
        nextPageToken,
      ),
      200,
    )
  })
  .openapi(bGet, (c) => {
    guard(c)
    return c.json(buildingResource(buildingOf(c)), 200)
  })
  .openapi(bInsert, (c) => {
    guard(c)
    const body = c.req.valid('json')
    const id = str(body.buildingId, 'buildingId')
    if (!id || !id.trim()) throw missing('buildingId')
    if (id.length > 100) throw invalid('buildingId')
    if (findBuilding(c.var.world.db, id)) throw duplicate()
    const fields = buildingFields(body)
    checkBuildingName(c, fields.name)
    return c.json(
      c.var.world.tx((db) => buildingResource(insertBuilding(db, { id, ...fields }))),
      200,
    )
  })
  .openapi(bUpdate, (c) => saveBuilding(c))
  .openapi(bPatch, (c) => saveBuilding(c))
  .openapi(bDelete, (c) => {
    guard(c)
    const b = buildingOf(c)
    // Deviation (unverified): a building that rooms are in cannot be deleted until they move or go.
    if (listResources(c.var.world.db).some((r) => r.buildingId === b.id)) throw invalid('buildingId')
    c.var.world.tx((db) => db.delete(worldBuildings).where(eq(worldBuildings.id, b.id)).run())
    return c.body(null, 204)
  })
  .openapi(fList, (c) => {
    guard(c)
    const q = c.req.valid('query')
    const { page, nextPageToken } = pageOf(listFeatures(c.var.world.db), q.maxResults ?? 100, q.pageToken)
    return c.json(
      listBody(
        'admin#directory#resources#features#featuresList',
        'features',
        page.map((f) => featureResource(f.name)),
        nextPageToken,
      ),
      200,
    )
  })
  .openapi(fGet, (c) => {
    guard(c)
    return c.json(featureResource(featureOf(c, c.req.valid('param').featureKey).name), 200)
  })
  .openapi(fInsert, (c) => {
    guard(c)
    const name = newFeatureName(c, c.req.valid('json').name)
    c.var.world.tx((db) => insertFeature(db, name))
    return c.json(featureResource(name), 200)
  })
  .openapi(fUpdate, (c) => saveFeature(c))
  .openapi(fPatch, (c) => saveFeature(c))
  .openapi(fDelete, (c) => {
    guard(c)
    const f = featureOf(c, c.req.valid('param').featureKey)
    // Deviation (unverified): a feature some room has cannot be deleted until no room lists it.
    if (listResources(c.var.world.db).some((r) => featuresOf(r).includes(f.name))) throw invalid('featureKey')
    c.var.world.tx((db) => db.delete(worldFeatures).where(eq(worldFeatures.name, f.name)).run())
    return c.body(null, 204)
  })
  .openapi(fRename, (c) => {
    guard(c)
    const cur = featureOf(c, c.req.valid('param').oldName)
    const name = newFeatureName(c, c.req.valid('json').newName, cur.name)
    c.var.world.tx((db) => renameFeature(db, cur.name, name))
    return c.body(null, 204)
  })
