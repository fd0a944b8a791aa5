import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import type { Db } from '../../core/db.ts'
import { customerId } from '../ids.ts'
import { etag, requireAdmin } from './directory-tokens.ts'
import {
  deleteSchema,
  fieldIdOf,
  FIELD_TYPES,
  findSchema,
  listSchemas,
  newSchemaId,
  READ_ACCESS,
  saveSchema,
  type FieldSpec,
  type UserSchema,
} from '../store/user-schemas.ts'
import { json, Any, Body } from './openapi-shapes.ts'

// Directory `schemas` (list, get, insert, update, patch, delete): the customer's custom user schemas. Users' values
// are set and read through the User resource's `customSchemas` (directory-users.ts). Super admins only: no delegated
// admin privilege covers schemas (delegated-admin.ts).

const Customer = z.object({ customerId: z.string() })
const One = z.object({ customerId: z.string(), schemaKey: z.string() })
const BASE = '/admin/directory/v1/customer/{customerId}/schemas'

const list = createRoute({
  operationId: 'directory.schemas.list',
  method: 'get',
  path: BASE,
  request: { params: Customer },
  responses: { 200: Any },
})
const get = createRoute({
  operationId: 'directory.schemas.get',
  method: 'get',
  path: `${BASE}/{schemaKey}`,
  request: { params: One },
  responses: { 200: Any },
})
const insert = createRoute({
  operationId: 'directory.schemas.insert',
  method: 'post',
  path: BASE,
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const update = createRoute({
  operationId: 'directory.schemas.update',
  method: 'put',
  path: `${BASE}/{schemaKey}`,
  request: { params: One, body: Body },
  responses: { 200: Any },
})
const patch = createRoute({
  operationId: 'directory.schemas.patch',
  method: 'patch',
  path: `${BASE}/{schemaKey}`,
  request: { params: One, body: Body },
  responses: { 200: Any },
})
const remove = createRoute({
  operationId: 'directory.schemas.delete',
  method: 'delete',
  path: `${BASE}/{schemaKey}`,
  request: { params: One },
  responses: { 204: { description: 'Deleted' } },
})

const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)
const required = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'required', `Missing required field: ${what}`)
// Deviation (unverified): Google's wording for an unknown schemaKey is not recorded.
const notFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: schemaKey')
const duplicate = () => new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')

/** Schema and field names: a letter or `_`, then letters, digits and `_`. Deviation (unverified): Google's rule. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/

/** A super admin, and a customer naming this workspace (`my_customer` or its id). */
function admit(c: WorldContext, customer: string) {
  requireAdmin(c)
  // Deviation (unverified): Google's answer to another customer's id is not recorded.
  if (customer !== 'my_customer' && customer !== customerId(c.var.world.db)) {
    throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: customer')
  }
}

function schemaByKey(db: Db, key: string): UserSchema {
  const s = findSchema(db, key)
  if (!s) throw notFound()
  return s
}

export function schemaResource(s: UserSchema) {
  const fields = s.fields.map((f) => {
    const body = {
      kind: 'admin#directory#schema#fieldspec',
      fieldId: f.fieldId,
      fieldName: f.fieldName,
      fieldType: f.fieldType,
      displayName: f.displayName,
      // Deviation (unverified): whether Google leaves out `multiValued: false` is not recorded; it is left out here.
      ...(f.multiValued ? { multiValued: true } : {}),
      indexed: f.indexed,
      readAccessType: f.readAccessType,
      ...(f.numericIndexingSpec ? { numericIndexingSpec: f.numericIndexingSpec } : {}),
    }
    return { ...body, etag: etag(body) }
  })
  const body = {
    kind: 'admin#directory#schema',
    schemaId: s.schemaId,
    schemaName: s.schemaName,
    displayName: s.displayName,
    fields,
  }
  return { ...body, etag: etag(body) }
}

const obj = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
const optBool = (v: unknown, what: string, dflt: boolean) => {
  if (v === undefined || v === null) return dflt
  if (typeof v !== 'boolean') throw invalid(what)
  return v
}

/** A field spec from a body, keeping the id (and checking the type) of the field of that name the schema had. */
function fieldIn(db: Db, schemaId: string, raw: unknown, i: number, before: FieldSpec[]): FieldSpec {
  const at = `fields[${i}]`
  const o = obj(raw)
  if (!o) throw invalid(at)
  const name = o.fieldName
  if (typeof name !== 'string' || !name) throw required(`${at}.fieldName`)
  if (!NAME.test(name)) throw invalid(`${at}.fieldName`)
  const type = o.fieldType
  if (typeof type !== 'string' || !type) throw required(`${at}.fieldType`)
  if (!(FIELD_TYPES as readonly string[]).includes(type)) throw invalid(`${at}.fieldType`)
  const old = before.find((f) => f.fieldName.toLowerCase() === name.toLowerCase())
  // Deviation (unverified): Google's answer to a field's type changed by update is not recorded; refused here,
  // since users' values of the old type would not fit.
  if (old && old.fieldType !== type) throw invalid(`${at}.fieldType cannot be changed`)
  const access = o.readAccessType ?? 'ALL_DOMAIN_USERS'
  if (typeof access !== 'string' || !(READ_ACCESS as readonly string[]).includes(access)) {
    throw invalid(`${at}.readAccessType`)
  }
  if (o.displayName !== undefined && typeof o.displayName !== 'string') throw invalid(`${at}.displayName`)
  let spec: FieldSpec['numericIndexingSpec']
  if (o.numericIndexingSpec !== undefined && o.numericIndexingSpec !== null) {
    const n = obj(o.numericIndexingSpec)
    if (!n || (type !== 'INT64' && type !== 'DOUBLE')) throw invalid(`${at}.numericIndexingSpec`)
    const num = (v: unknown) => (v === undefined ? undefined : typeof v === 'number' ? v : Number(v))
    const min = num(n.minValue)
    const max = num(n.maxValue)
    if ([min, max].some((v) => v !== undefined && !Number.isFinite(v))) throw invalid(`${at}.numericIndexingSpec`)
    if (min !== undefined && max !== undefined && min > max) throw invalid(`${at}.numericIndexingSpec`)
    spec = { ...(min !== undefined ? { minValue: min } : {}), ...(max !== undefined ? { maxValue: max } : {}) }
  }
  return {
    fieldId: old?.fieldId ?? fieldIdOf(db, schemaId, name),
    fieldName: name,
    fieldType: type as FieldSpec['fieldType'],
    // Deviation (unverified): the discovery document marks displayName required; one left out is the field's name.
    displayName: typeof o.displayName === 'string' && o.displayName ? o.displayName : name,
    multiValued: optBool(o.multiValued, `${at}.multiValued`, false),
    indexed: optBool(o.indexed, `${at}.indexed`, true),
    readAccessType: access as FieldSpec['readAccessType'],
    ...(spec ? { numericIndexingSpec: spec } : {}),
  }
}

/**
 * The schema a body makes of `current` (insert: none). `fields` replaces the list (required unless `partial`);
 * a schema name another schema holds is 409.
 */
function schemaIn(db: Db, body: Record<string, unknown>, current: UserSchema | undefined, partial: boolean) {
  const name = body.schemaName ?? current?.schemaName
  if (typeof name !== 'string' || !name) throw required('schemaName')
  if (!NAME.test(name)) throw invalid('schemaName')
  const other = findSchema(db, name)
  if (other && other.schemaId !== current?.schemaId && other.schemaName.toLowerCase() === name.toLowerCase()) {
    throw duplicate()
  }
  if (body.displayName !== undefined && typeof body.displayName !== 'string') throw invalid('displayName')
  const schemaId = current?.schemaId ?? newSchemaId(db, name)
  const before = current?.fields ?? []
  let fields = before
  if (body.fields !== undefined || !partial) {
    if (!Array.isArray(body.fields) || body.fields.length === 0) throw required('fields')
    fields = body.fields.map((f, i) => fieldIn(db, schemaId, f, i, before))
    const names = fields.map((f) => f.fieldName.toLowerCase())
    if (new Set(names).size !== names.length) throw invalid('fields: a field name is given twice')
  }
  const displayName =
    typeof body.displayName === 'string' && body.displayName ? body.displayName : (current?.displayName ?? name)
  return { schemaId, schemaName: name, displayName, fields }
}

type Params = { customerId: string; schemaKey: string }

function change(c: WorldContext, p: Params, body: Record<string, unknown>, partial: boolean) {
  admit(c, p.customerId)
  return c.var.world.tx((db) => {
    const next = schemaIn(db, body, schemaByKey(db, p.schemaKey), partial)
    saveSchema(db, next)
    return schemaResource(next)
  })
}

/** Directory `schemas`. */
export const directorySchemasRouter = createGoogleRouter()
  .openapi(list, (c) => {
    admit(c, c.req.valid('param').customerId)
    const body = { kind: 'admin#directory#schemas', schemas: listSchemas(c.var.world.db).map(schemaResource) }
    return c.json({ ...body, etag: etag(body) }, 200)
  })
  .openapi(get, (c) => {
    const { customerId: customer, schemaKey } = c.req.valid('param')
    admit(c, customer)
    return c.json(schemaResource(schemaByKey(c.var.world.db, schemaKey)), 200)
  })
  .openapi(insert, (c) => {
    admit(c, c.req.valid('param').customerId)
    const body = c.req.valid('json')
    const made = c.var.world.tx((db) => {
      const s = schemaIn(db, body, undefined, false)
      saveSchema(db, s)
      return schemaResource(s)
    })
    return c.json(made, 200)
  })
  .openapi(update, (c) => c.json(change(c, c.req.valid('param'), c.req.valid('json'), false), 200))
  .openapi(patch, (c) => c.json(change(c, c.req.valid('param'), c.req.valid('json'), true), 200))
  .openapi(remove, (c) => {
    const { customerId: customer, schemaKey } = c.req.valid('param')
    admit(c, customer)
    c.var.world.tx((db) => deleteSchema(db, schemaByKey(db, schemaKey).schemaId))
    return c.body(null, 204)
  })
