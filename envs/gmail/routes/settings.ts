import { createRoute, z } from '@hono/zod-openapi'
import { insertRow, stmt, type Db } from '../../core/db.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { alreadyExists, badRequest, failedPrecondition, notFound } from '../../core/errors/google.ts'
import { hexId } from '../../core/ids.ts'
import * as gen from '../api/schemas.gen.ts'
import { filters } from '../schema.ts'
import { findLabel } from '../store/mailbox.ts'
import {
  deleteAddressSetting,
  getSetting,
  listAddressSettings,
  listFilters,
  putAddressSetting,
  setSetting,
} from '../store/settings.ts'
import { json, jsonBody, mailboxOf, UserParam } from './common.ts'
import { requireDelegation, sendVerificationMail, verificationStatusOf } from './delegation.ts'

const base = '/gmail/v1/users/{userId}/settings'

/** Filters a user may have (filters.create: "Note: you can only create a maximum of 1,000 filters."). */
export const MAX_FILTERS = 1000

// Deviation (unverified): Gmail's answer past the limit is not documented (one client reports a 500); this 400,
// reason and message are ours.
const tooManyFilters = () => failedPrecondition('Too many filters: a user can have at most 1,000 filters.')
const Any = z.record(z.string(), z.unknown())

/** The single-document settings: GET returns the stored (or default) document, PUT replaces it. */
const DOCUMENTS = [
  { name: 'Vacation', key: 'vacation', path: 'vacation', schema: gen.VacationSettings },
  { name: 'Imap', key: 'imap', path: 'imap', schema: gen.ImapSettings },
  { name: 'Pop', key: 'pop', path: 'pop', schema: gen.PopSettings },
  { name: 'Language', key: 'language', path: 'language', schema: gen.LanguageSettings },
  { name: 'AutoForwarding', key: 'autoForwarding', path: 'autoForwarding', schema: gen.AutoForwarding },
] as const

export const settingsRouter = createGoogleRouter()

for (const doc of DOCUMENTS) {
  settingsRouter.openapi(
    createRoute({
      operationId: `gmail.users.settings.get${doc.name}`,
      method: 'get',
      path: `${base}/${doc.path}`,
      request: { params: UserParam },
      responses: { 200: json(doc.schema) },
    }),
    (c) => c.json(getSetting(c.var.world.db, mailboxOf(c, c.req.valid('param').userId).id, doc.key) as never, 200),
  )
  settingsRouter.openapi(
    createRoute({
      operationId: `gmail.users.settings.update${doc.name}`,
      method: 'put',
      path: `${base}/${doc.path}`,
      request: { params: UserParam, body: jsonBody(doc.schema) },
      responses: { 200: json(doc.schema) },
    }),
    (c) => {
      const user = mailboxOf(c, c.req.valid('param').userId)
      const body = c.req.valid('json') as Record<string, unknown>
      // updateAutoForwarding is "only available to service account clients" with domain-wide delegation.
      if (doc.key === 'autoForwarding') requireDelegation(c)
      if (doc.key === 'autoForwarding' && body.enabled) {
        const target = String(body.emailAddress ?? '').toLowerCase()
        const ok = listAddressSettings(c.var.world.db, user.id, 'forwarding').some(
          (f) => String(f.forwardingEmail).toLowerCase() === target && f.verificationStatus === 'accepted',
        )
        // What Gmail answers for an address not created, or still `pending`.
        if (!ok) throw failedPrecondition('Invalid forwarding address')
      }
      if (doc.key === 'vacation' && body.startTime && body.endTime && Number(body.startTime) > Number(body.endTime))
        throw badRequest('Invalid vacation time range', 'invalidArgument')
      const next = { ...getSetting(c.var.world.db, user.id, doc.key), ...body }
      c.var.world.tx((db) => setSetting(db, user.id, doc.key, next))
      return c.json(next as never, 200)
    },
  )
}

// Filters: criteria + action, applied to every later delivery.
settingsRouter
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.filters.list',
      method: 'get',
      path: `${base}/filters`,
      request: { params: UserParam },
      responses: { 200: json(Any) },
    }),
    (c) => {
      const list = listFilters(c.var.world.db, mailboxOf(c, c.req.valid('param').userId).id)
      return c.json((list.length ? { filter: list } : {}) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.filters.get',
      method: 'get',
      path: `${base}/filters/{id}`,
      request: { params: UserParam.extend({ id: z.string() }) },
      responses: { 200: json(gen.Filter) },
    }),
    (c) => {
      const f = listFilters(c.var.world.db, mailboxOf(c, c.req.valid('param').userId).id).find(
        (x) => x.id === c.req.valid('param').id,
      )
      if (!f) throw notFound()
      return c.json(f as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.filters.create',
      method: 'post',
      path: `${base}/filters`,
      request: { params: UserParam, body: jsonBody(gen.Filter) },
      responses: { 200: json(gen.Filter) },
    }),
    (c) => {
      const user = mailboxOf(c, c.req.valid('param').userId)
      const body = c.req.valid('json') as { criteria?: Record<string, unknown>; action?: Record<string, unknown> }
      // Gmail's API is proto3: a field at its default ('', false, 0, [] or null) is unset, stored and answered
      // without it, so `{from, subject: ''}` is the filter `{from}` (and a duplicate of it).
      const criteria = setFields(body.criteria ?? {})
      const action = setFields(body.action ?? {})
      if (Object.values(criteria).every((v) => v === undefined || v === '' || v === false))
        throw badRequest("Filter doesn't have any criteria", 'invalidArgument')
      if (Object.values(action).every((v) => v === undefined || (Array.isArray(v) && v.length === 0)))
        throw badRequest("Filter doesn't have any actions", 'invalidArgument')
      for (const id of [...((action.addLabelIds as string[]) ?? []), ...((action.removeLabelIds as string[]) ?? [])]) {
        if (!findLabel(c.var.world.db, user.id, id))
          throw badRequest(`Invalid label ${id} in AddLabelIds`, 'invalidArgument')
      }
      const existing = listFilters(c.var.world.db, user.id)
      const dupe = existing.find(
        (f) =>
          JSON.stringify(f.criteria) === JSON.stringify(criteria) &&
          JSON.stringify(f.action) === JSON.stringify(action),
      )
      if (dupe) throw alreadyExists('Filter already exists', 'duplicate')
      if (existing.length >= MAX_FILTERS) throw tooManyFilters()
      const id = c.var.world.tx((db) => {
        const fid = `ANe1Bm${hexId(db, 'gmail.filter', 24)}`
        const row = { userId: user.id, id: fid, criteria: JSON.stringify(criteria), action: JSON.stringify(action) }
        insertRow(db, filters, row)
        return fid
      })
      return c.json({ id, criteria, action } as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.filters.delete',
      method: 'delete',
      path: `${base}/filters/{id}`,
      request: { params: UserParam.extend({ id: z.string() }) },
      responses: { 204: { description: 'Deleted' } },
    }),
    (c) => {
      const user = mailboxOf(c, c.req.valid('param').userId)
      const id = c.req.valid('param').id
      const sql = 'DELETE FROM gmail_filters WHERE user_id = ? AND id = ?'
      const gone = c.var.world.tx((db) => stmt(db, sql).run(user.id, id).changes)
      if (!gone) throw notFound()
      return c.body(null, 204)
    },
  )

/** Address-keyed collections: forwarding addresses, send-as aliases and delegates. */
function addressCollection(opts: {
  kind: 'forwarding' | 'sendAs' | 'delegate'
  path: string
  resource: string
  key: string
  listKey: string
  schema: z.ZodType
  /** Methods a user's own token may call; the rest need a domain-wide-delegated service account. */
  open: readonly ('list' | 'get')[]
  create: (c: WorldContext, email: string, body: Record<string, unknown>) => Record<string, unknown>
  /** Runs in the create's transaction, after the row is stored (a verification mail). */
  created?: (db: Db, user: WorldUserRow, value: Record<string, unknown>) => void
  /** Refuses a delete (the primary send-as address). */
  deletable?: (c: WorldContext, userId: string, email: string) => void
}) {
  const guard = (c: WorldContext, method: 'list' | 'get') => {
    if (!opts.open.includes(method)) requireDelegation(c)
  }
  const p = `${base}/${opts.path}`
  const Param = UserParam.extend({ email: z.string() })
  const read = (c: WorldContext, userId: string) =>
    listAddressSettings(c.var.world.db, mailboxOf(c, userId).id, opts.kind)
  settingsRouter
    .openapi(
      createRoute({
        operationId: `gmail.users.settings.${opts.resource}.list`,
        method: 'get',
        path: p,
        request: { params: UserParam },
        responses: { 200: json(Any) },
      }),
      (c) => {
        guard(c, 'list')
        const items = read(c, c.req.valid('param').userId)
        return c.json((items.length ? { [opts.listKey]: items } : {}) as never, 200)
      },
    )
    .openapi(
      createRoute({
        operationId: `gmail.users.settings.${opts.resource}.get`,
        method: 'get',
        path: `${p}/{email}`,
        request: { params: Param },
        responses: { 200: json(opts.schema) },
      }),
      (c) => {
        guard(c, 'get')
        const hit = read(c, c.req.valid('param').userId).find(
          (x) => String(x[opts.key]).toLowerCase() === c.req.valid('param').email.toLowerCase(),
        )
        if (!hit) throw notFound()
        return c.json(hit as never, 200)
      },
    )
    .openapi(
      createRoute({
        operationId: `gmail.users.settings.${opts.resource}.create`,
        method: 'post',
        path: p,
        request: { params: UserParam, body: jsonBody(opts.schema) },
        responses: { 200: json(opts.schema) },
      }),
      (c) => {
        requireDelegation(c)
        const user = mailboxOf(c, c.req.valid('param').userId)
        const body = c.req.valid('json') as Record<string, unknown>
        const email = String(body[opts.key] ?? '')
          .trim()
          .toLowerCase()
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw badRequest(`Invalid ${opts.key}`, 'invalidArgument')
        if (
          read(c, user.id === c.var.user.id ? 'me' : user.email).some(
            (x) => String(x[opts.key]).toLowerCase() === email,
          )
        )
          throw alreadyExists(`${opts.key} already exists`, 'duplicate')
        const value = opts.create(c, email, body)
        c.var.world.tx((db) => {
          putAddressSetting(db, user.id, opts.kind, email, value)
          opts.created?.(db, user, value)
        })
        return c.json(value as never, 200)
      },
    )
    .openapi(
      createRoute({
        operationId: `gmail.users.settings.${opts.resource}.delete`,
        method: 'delete',
        path: `${p}/{email}`,
        request: { params: Param },
        responses: { 204: { description: 'Deleted' } },
      }),
      (c) => {
        requireDelegation(c)
        const user = mailboxOf(c, c.req.valid('param').userId)
        opts.deletable?.(c, user.id, c.req.valid('param').email)
        if (!c.var.world.tx((db) => deleteAddressSetting(db, user.id, opts.kind, c.req.valid('param').email)))
          throw notFound()
        return c.body(null, 204)
      },
    )
}

// An address outside the user's domain starts `pending` and gets a confirmation mail (delegation.ts).
addressCollection({
  kind: 'forwarding',
  path: 'forwardingAddresses',
  resource: 'forwardingAddresses',
  key: 'forwardingEmail',
  listKey: 'forwardingAddresses',
  schema: gen.ForwardingAddress,
  open: ['list', 'get'],
  create: (c, email) => ({ forwardingEmail: email, verificationStatus: verificationStatusOf(c.var.user, email) }),
  created: (db, user, v) => {
    if (v.verificationStatus === 'pending') sendVerificationMail(db, user, String(v.forwardingEmail), 'forwarding')
  },
})
addressCollection({
  kind: 'delegate',
  path: 'delegates',
  resource: 'delegates',
  key: 'delegateEmail',
  listKey: 'delegates',
  schema: gen.Delegate,
  // Every delegates method, list and get included, is for delegated service accounts only.
  open: [],
  create: (c, email) => {
    const domain = c.var.user.email.split('@')[1]
    if (email.split('@')[1] !== domain)
      throw badRequest('Delegates must belong to the same domain.', 'failedPrecondition')
    return { delegateEmail: email, verificationStatus: 'accepted' }
  },
})
addressCollection({
  kind: 'sendAs',
  path: 'sendAs',
  resource: 'sendAs',
  key: 'sendAsEmail',
  listKey: 'sendAs',
  schema: gen.SendAs,
  open: ['list', 'get'],
  create: (c, email, body) => ({
    sendAsEmail: email,
    displayName: String(body.displayName ?? ''),
    replyToAddress: String(body.replyToAddress ?? ''),
    signature: String(body.signature ?? ''),
    isPrimary: false,
    isDefault: false,
    treatAsAlias: body.treatAsAlias ?? true,
    verificationStatus: verificationStatusOf(c.var.user, email),
  }),
  created: (db, user, v) => {
    if (v.verificationStatus === 'pending') sendVerificationMail(db, user, String(v.sendAsEmail), 'sendAs')
  },
  deletable: (c, userId, email) => {
    const hit = listAddressSettings(c.var.world.db, userId, 'sendAs').find(
      (s) => String(s.sendAsEmail).toLowerCase() === email.toLowerCase(),
    )
    // Deviation: Gmail's wording for deleting the primary address is not documented.
    if (hit?.isPrimary) throw badRequest('Cannot delete the primary send-as address', 'failedPrecondition')
  },
})

/** An object's fields that are set in proto3's sense: not '', false, 0, null or an empty list. */
function setFields(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === '' || v === false || v === 0) continue
    if (Array.isArray(v) && v.length === 0) continue
    out[k] = v
  }
  return out
}
