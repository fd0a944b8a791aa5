import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { nowMs } from '../../core/clock.ts'
import type { Db } from '../../core/db.ts'
import { etag } from './directory-tokens.ts'
import { admit, createdMs } from './directory-customer.ts'
import {
  addedDomains,
  deleteDomain,
  domainTaken,
  findDomain,
  insertDomain,
  isDomainName,
  primaryDomain,
  type DomainRow,
} from '../store/domains.ts'
import { json, Any, Body } from './openapi-shapes.ts'

// Directory `domains` (list, get, insert, delete) and `domainAliases` (list, get, insert, delete): the customer's
// primary domain (world_meta `domain`) and what an administrator adds beside it (store/domains.ts). Added domains
// stay unverified: Google verifies them by DNS, which cannot happen here (Deviation, COVERAGE.md).

const Customer = z.object({ customer: z.string() })
const Named = z.object({ customer: z.string(), domainName: z.string() })
const AliasNamed = z.object({ customer: z.string(), domainAliasName: z.string() })
const at = <M extends 'get' | 'post' | 'delete', P extends string>(operationId: string, method: M, path: P) => ({
  operationId,
  method,
  path: `/admin/directory/v1/customer/{customer}/${path}` as const,
})

const domainsList = createRoute({
  ...at('directory.domains.list', 'get', 'domains'),
  request: { params: Customer },
  responses: { 200: Any },
})
const domainsGet = createRoute({
  ...at('directory.domains.get', 'get', 'domains/{domainName}'),
  request: { params: Named },
  responses: { 200: Any },
})
const domainsInsert = createRoute({
  ...at('directory.domains.insert', 'post', 'domains'),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const domainsDelete = createRoute({
  ...at('directory.domains.delete', 'delete', 'domains/{domainName}'),
  request: { params: Named },
  responses: { 204: { description: 'Deleted' } },
})
const aliasesList = createRoute({
  ...at('directory.domainAliases.list', 'get', 'domainaliases'),
  request: { params: Customer, query: z.object({ parentDomainName: z.string().optional() }) },
  responses: { 200: Any },
})
const aliasesGet = createRoute({
  ...at('directory.domainAliases.get', 'get', 'domainaliases/{domainAliasName}'),
  request: { params: AliasNamed },
  responses: { 200: Any },
})
const aliasesInsert = createRoute({
  ...at('directory.domainAliases.insert', 'post', 'domainaliases'),
  request: { params: Customer, body: Body },
  responses: { 200: Any },
})
const aliasesDelete = createRoute({
  ...at('directory.domainAliases.delete', 'delete', 'domainaliases/{domainAliasName}'),
  request: { params: AliasNamed },
  responses: { 204: { description: 'Deleted' } },
})

// Deviation (unverified): Google's wording for these refusals is not recorded.
const domainNotFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Domain not found.')
const aliasNotFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Domain alias not found.')
const taken = () => new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')
const invalid = (field: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${field}`)

function aliasResource(d: DomainRow) {
  const body = {
    kind: 'admin#directory#domainAlias',
    domainAliasName: d.name,
    parentDomainName: d.parent!,
    verified: false,
    creationTime: String(d.createdMs),
  }
  return { ...body, etag: etag(body) }
}

/** A Domains resource: the primary domain when `row` is undefined, else a secondary domain; its aliases listed. */
function domainResource(db: Db, row?: DomainRow) {
  const name = row?.name ?? primaryDomain(db)
  const aliases = addedDomains(db).filter((d) => d.parent === name)
  const body = {
    kind: 'admin#directory#domain',
    domainName: name,
    isPrimary: !row,
    verified: !row,
    creationTime: String(row?.createdMs ?? createdMs(db)),
    ...(aliases.length ? { domainAliases: aliases.map(aliasResource) } : {}),
  }
  return { ...body, etag: etag(body) }
}

/** A name from a request body: a string that is a host name, lower-cased. */
function nameIn(body: Record<string, unknown>, field: string): string {
  const v = body[field]
  if (typeof v !== 'string' || !v)
    throw new GoogleApiError('INVALID_ARGUMENT', 'required', `Missing required field: ${field}`)
  if (!isDomainName(v)) throw invalid(field)
  return v.toLowerCase()
}

/** Directory `domains` and `domainAliases`: administrators only (super admins: no delegated privilege covers them). */
export const directoryDomainsRouter = createGoogleRouter()
  .openapi(domainsList, (c) => {
    admit(c, c.req.valid('param').customer)
    const db = c.var.world.db
    const secondaries = addedDomains(db).filter((d) => !d.parent)
    const domains = [domainResource(db), ...secondaries.map((d) => domainResource(db, d))]
    return c.json({ kind: 'admin#directory#domains', etag: etag(domains), domains }, 200)
  })
  .openapi(domainsGet, (c) => {
    const { customer, domainName } = c.req.valid('param')
    admit(c, customer)
    const db = c.var.world.db
    if (domainName.toLowerCase() === primaryDomain(db)) return c.json(domainResource(db), 200)
    const row = findDomain(db, domainName)
    if (!row || row.parent) throw domainNotFound()
    return c.json(domainResource(db, row), 200)
  })
  .openapi(domainsInsert, (c) => {
    admit(c, c.req.valid('param').customer)
    const name = nameIn(c.req.valid('json'), 'domainName')
    const row = c.var.world.tx((db) => {
      if (domainTaken(db, name)) throw taken()
      const added = { name, parent: null, createdMs: nowMs(db) }
      insertDomain(db, added)
      return added
    })
    return c.json(domainResource(c.var.world.db, row), 200)
  })
  .openapi(domainsDelete, (c) => {
    const { customer, domainName } = c.req.valid('param')
    admit(c, customer)
    c.var.world.tx((db) => {
      // Deviation (unverified): Google's answer to removing the primary domain is not recorded; it refuses it.
      if (domainName.toLowerCase() === primaryDomain(db)) throw invalid('domainName')
      const row = findDomain(db, domainName)
      if (!row || row.parent) throw domainNotFound()
      deleteDomain(db, row.name)
    })
    return c.body(null, 204)
  })
  .openapi(aliasesList, (c) => {
    admit(c, c.req.valid('param').customer)
    const parent = c.req.valid('query').parentDomainName?.toLowerCase()
    const aliases = addedDomains(c.var.world.db).filter((d) => d.parent && (!parent || d.parent === parent))
    const domainAliases = aliases.map(aliasResource)
    const body = { kind: 'admin#directory#domainAliases', ...(domainAliases.length ? { domainAliases } : {}) }
    return c.json({ ...body, etag: etag(domainAliases) }, 200)
  })
  .openapi(aliasesGet, (c) => {
    const { customer, domainAliasName } = c.req.valid('param')
    admit(c, customer)
    const row = findDomain(c.var.world.db, domainAliasName)
    if (!row?.parent) throw aliasNotFound()
    return c.json(aliasResource(row), 200)
  })
  .openapi(aliasesInsert, (c) => {
    admit(c, c.req.valid('param').customer)
    const body = c.req.valid('json')
    const parent = nameIn(body, 'parentDomainName')
    const name = nameIn(body, 'domainAliasName')
    const row = c.var.world.tx((db) => {
      const parentRow = findDomain(db, parent)
      if (parent !== primaryDomain(db) && (!parentRow || parentRow.parent)) throw domainNotFound()
      if (domainTaken(db, name)) throw taken()
      const added = { name, parent, createdMs: nowMs(db) }
      insertDomain(db, added)
      return added
    })
    return c.json(aliasResource(row), 200)
  })
  .openapi(aliasesDelete, (c) => {
    const { customer, domainAliasName } = c.req.valid('param')
    admit(c, customer)
    c.var.world.tx((db) => {
      const row = findDomain(db, domainAliasName)
      if (!row?.parent) throw aliasNotFound()
      deleteDomain(db, row.name)
    })
    return c.body(null, 204)
  })
