import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { getMeta, nowMs, setMeta } from '../../core/clock.ts'
import { stmt, type Db } from '../../core/db.ts'
import { customerId } from '../ids.ts'
import { etag, requireAdmin } from './directory-tokens.ts'
import { ADDRESS_FIELDS, contactOf, CUSTOMER_META as META, type Contact } from '../store/customer.ts'
import { json, Any, Body } from './openapi-shapes.ts'

// The workspace as the Directory API's customer (`customers.get/patch/update`); its domains are in
// directory-domains.ts. The editable contact facts live in world_meta under `identity.customer` (a JSON object).

/** When the workspace began: its earliest account (seeded a year before the world's clock), or the clock. */
export function createdMs(db: Db): number {
  const row = stmt(db, 'SELECT min(created_ms) AS ms FROM identity_users').get() as { ms: number | null }
  return row.ms ?? nowMs(db)
}

function customerResource(db: Db) {
  const contact = contactOf(db)
  const body = {
    kind: 'admin#directory#customer',
    id: customerId(db),
    customerDomain: getMeta(db, 'domain') ?? '',
    ...(contact.alternateEmail ? { alternateEmail: contact.alternateEmail } : {}),
    ...(contact.phoneNumber ? { phoneNumber: contact.phoneNumber } : {}),
    language: contact.language ?? 'en',
    ...(contact.postalAddress ? { postalAddress: contact.postalAddress } : {}),
    customerCreationTime: new Date(createdMs(db)).toISOString(),
  }
  return { ...body, etag: etag(body) }
}

/** An administrator and a customer key naming this workspace (`my_customer` or its id). */
export function admit(c: WorldContext, key: string) {
  requireAdmin(c)
  if (key !== 'my_customer' && key !== customerId(c.var.world.db)) {
    // Deviation (unverified): Google's answer to another customer's id is not recorded.
    throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: customer')
  }
}

const invalid = (field: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${field}`)

/** The contact facts a Customer body sets; `replace` (update) drops what it leaves out. */
function changed(before: Contact, body: Record<string, unknown>, replace: boolean): Contact {
  const next: Contact = replace ? {} : { ...before }
  for (const field of ['alternateEmail', 'phoneNumber', 'language'] as const) {
    const v = body[field]
    if (v === undefined) continue
    if (typeof v !== 'string') throw invalid(field)
    if (field === 'alternateEmail' && v !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw invalid(field)
    if (v === '') delete next[field]
    else next[field] = v
  }
  if (body.postalAddress !== undefined) {
    const given = body.postalAddress
    if (!given || typeof given !== 'object' || Array.isArray(given)) throw invalid('postalAddress')
    const address: NonNullable<Contact['postalAddress']> = replace ? {} : { ...before.postalAddress }
    for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
      if (!(ADDRESS_FIELDS as readonly string[]).includes(k)) continue
      if (typeof v !== 'string') throw invalid(`postalAddress.${k}`)
      address[k as (typeof ADDRESS_FIELDS)[number]] = v
    }
    next.postalAddress = address
  }
  return next
}

const CustomerKey = z.object({ customerKey: z.string() })
const at = <M extends 'get' | 'put' | 'patch', P extends string>(operationId: string, method: M, path: P) => ({
  operationId,
  method,
  path: `/admin/directory/v1/${path}` as `/admin/directory/v1/${P}`,
})

const get = createRoute({
  ...at('directory.customers.get', 'get', 'customers/{customerKey}'),
  request: { params: CustomerKey },
  responses: { 200: Any },
})
const patch = createRoute({
  ...at('directory.customers.patch', 'patch', 'customers/{customerKey}'),
  request: { params: CustomerKey, body: Body },
  responses: { 200: Any },
})
const update = createRoute({
  ...at('directory.customers.update', 'put', 'customers/{customerKey}'),
  request: { params: CustomerKey, body: Body },
  responses: { 200: Any },
})

function edit(c: WorldContext, key: string, body: Record<string, unknown>, replace: boolean) {
  admit(c, key)
  const db = c.var.world.db
  const next = changed(contactOf(db), body, replace)
  c.var.world.tx((tx) => setMeta(tx, META, JSON.stringify(next)))
  return customerResource(db)
}

/** Directory `customers` (get, patch, update). */
export const directoryCustomerRouter = createGoogleRouter()
  .openapi(get, (c) => {
    admit(c, c.req.valid('param').customerKey)
    return c.json(customerResource(c.var.world.db), 200)
  })
  .openapi(patch, (c) => c.json(edit(c, c.req.valid('param').customerKey, c.req.valid('json'), false), 200))
  .openapi(update, (c) => c.json(edit(c, c.req.valid('param').customerKey, c.req.valid('json'), true), 200))
