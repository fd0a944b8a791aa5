import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, failedPrecondition, notFound } from '../../core/errors/google.ts'
import { hexId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import * as gen from '../api/schemas.gen.ts'
import { deleteAddressSetting, listAddressSettings, putAddressSetting } from '../store/settings.ts'
import { json, jsonBody, mailboxOf, UserParam } from './common.ts'
import { requireDelegation, sendVerificationMail } from './delegation.ts'

const base = '/gmail/v1/users/{userId}/settings/sendAs/{sendAsEmail}'
const Param = UserParam.extend({ sendAsEmail: z.string() })
const SmimeParam = Param.extend({ id: z.string() })

function requireAlias(c: WorldContext, userId: string, email: string) {
  const hit = listAddressSettings(c.var.world.db, userId, 'sendAs').find(
    (s) => String(s.sendAsEmail).toLowerCase() === email.toLowerCase(),
  )
  if (!hit) throw notFound()
  return hit
}

/** sendAs update (replace) and patch (merge); the primary address keeps its email and primary flag. */
function write(c: WorldContext, replace: boolean) {
  const { userId, sendAsEmail } = c.req.valid('param' as never) as { userId: string; sendAsEmail: string }
  const user = mailboxOf(c, userId)
  const current = requireAlias(c, user.id, sendAsEmail)
  // "Addresses other than the primary address for the account can only be updated by service account clients that
  // have been delegated domain-wide authority" (patch is update with patch semantics).
  if (!current.isPrimary) requireDelegation(c)
  const body = (c.req.valid('json' as never) ?? {}) as Record<string, unknown>
  const editable = ['displayName', 'replyToAddress', 'signature', 'isDefault', 'treatAsAlias'] as const
  const next: Record<string, unknown> = { ...current }
  for (const k of editable)
    if (replace || k in body) next[k] = body[k] ?? (k === 'isDefault' ? false : k === 'treatAsAlias' ? current[k] : '')
  next.sendAsEmail = current.sendAsEmail
  next.isPrimary = current.isPrimary
  c.var.world.tx((db) => {
    if (next.isDefault) {
      for (const other of listAddressSettings(db, user.id, 'sendAs')) {
        if (other.sendAsEmail !== current.sendAsEmail && other.isDefault)
          putAddressSetting(db, user.id, 'sendAs', String(other.sendAsEmail), { ...other, isDefault: false })
      }
    }
    putAddressSetting(db, user.id, 'sendAs', String(current.sendAsEmail), next)
  })
  return next
}

const smimeKey = (email: string, id: string) => `${email.toLowerCase()}/${id}`

export const sendAsRouter = createGoogleRouter()
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.update',
      method: 'put',
      path: base,
      request: { params: Param, body: jsonBody(gen.SendAs) },
      responses: { 200: json(gen.SendAs) },
    }),
    (c) => c.json(write(c as never, true) as never, 200),
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.patch',
      method: 'patch',
      path: base,
      request: { params: Param, body: jsonBody(gen.SendAs) },
      responses: { 200: json(gen.SendAs) },
    }),
    (c) => c.json(write(c as never, false) as never, 200),
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.verify',
      method: 'post',
      path: `${base}/verify`,
      request: { params: Param },
      responses: { 204: { description: 'Verification sent' } },
    }),
    (c) => {
      requireDelegation(c)
      const { userId, sendAsEmail } = c.req.valid('param')
      const user = mailboxOf(c, userId)
      const alias = requireAlias(c, user.id, sendAsEmail)
      if (alias.isPrimary) throw badRequest('Cannot verify the primary address', 'failedPrecondition')
      // "The verification status must be `pending`": the mail goes again, and only its recipient can confirm.
      // Deviation: the wording of the refusal for an accepted alias is not documented.
      if (alias.verificationStatus !== 'pending') throw failedPrecondition('Precondition check failed.')
      c.var.world.tx((db) => sendVerificationMail(db, user, String(alias.sendAsEmail), 'sendAs'))
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.smimeInfo.list',
      method: 'get',
      path: `${base}/smimeInfo`,
      request: { params: Param },
      responses: { 200: json(gen.ListSmimeInfoResponse) },
    }),
    (c) => {
      const { userId, sendAsEmail } = c.req.valid('param')
      const user = mailboxOf(c, userId)
      requireAlias(c, user.id, sendAsEmail)
      const items = listAddressSettings(c.var.world.db, user.id, 'smime')
        .filter((s) => s.sendAsEmail === sendAsEmail.toLowerCase())
        .map(({ sendAsEmail: _s, ...rest }) => rest)
      return c.json((items.length ? { smimeInfo: items } : {}) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.smimeInfo.get',
      method: 'get',
      path: `${base}/smimeInfo/{id}`,
      request: { params: SmimeParam },
      responses: { 200: json(gen.SmimeInfo) },
    }),
    (c) => {
      const { userId, sendAsEmail, id } = c.req.valid('param')
      const user = mailboxOf(c, userId)
      const hit = listAddressSettings(c.var.world.db, user.id, 'smime').find(
        (s) => s.sendAsEmail === sendAsEmail.toLowerCase() && s.id === id,
      )
      if (!hit) throw notFound()
      const { sendAsEmail: _s, ...rest } = hit
      return c.json(rest as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.smimeInfo.insert',
      method: 'post',
      path: `${base}/smimeInfo`,
      request: { params: Param, body: jsonBody(gen.SmimeInfo) },
      responses: { 200: json(gen.SmimeInfo) },
    }),
    (c) => {
      const { userId, sendAsEmail } = c.req.valid('param')
      const user = mailboxOf(c, userId)
      requireAlias(c, user.id, sendAsEmail)
      const body = c.req.valid('json') as { pem?: string; pkcs12?: string }
      if (!body.pem && !body.pkcs12) throw badRequest('Either pem or pkcs12 is required', 'invalidArgument')
      if (body.pem && !/-----BEGIN [A-Z ]+-----/.test(body.pem)) throw badRequest('Invalid PEM data', 'invalidArgument')
      // Deviation: certificates are not parsed; issuer and expiry are fixed placeholders (one year from now).
      const info = c.var.world.tx((db) => {
        const id = hexId(db, 'gmail.smime', 16)
        const value = {
          sendAsEmail: sendAsEmail.toLowerCase(),
          id,
          issuerCn: 'workspace-gym test CA',
          isDefault: false,
          expiration: String(nowMs(db) + 365 * 86_400_000),
          ...(body.pem ? { pem: body.pem } : {}),
        }
        putAddressSetting(db, user.id, 'smime', smimeKey(sendAsEmail, id), value)
        return value
      })
      const { sendAsEmail: _s, ...rest } = info
      return c.json(rest as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.smimeInfo.delete',
      method: 'delete',
      path: `${base}/smimeInfo/{id}`,
      request: { params: SmimeParam },
      responses: { 204: { description: 'Deleted' } },
    }),
    (c) => {
      const { userId, sendAsEmail, id } = c.req.valid('param')
      const user = mailboxOf(c, userId)
      if (!c.var.world.tx((db) => deleteAddressSetting(db, user.id, 'smime', smimeKey(sendAsEmail, id))))
        throw notFound()
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      operationId: 'gmail.users.settings.sendAs.smimeInfo.setDefault',
      method: 'post',
      path: `${base}/smimeInfo/{id}/setDefault`,
      request: { params: SmimeParam },
      responses: { 204: { description: 'Done' } },
    }),
    (c) => {
      const { userId, sendAsEmail, id } = c.req.valid('param')
      const user = mailboxOf(c, userId)
      const all = listAddressSettings(c.var.world.db, user.id, 'smime').filter(
        (s) => s.sendAsEmail === sendAsEmail.toLowerCase(),
      )
      if (!all.some((s) => s.id === id)) throw notFound()
      c.var.world.tx((db) =>
        all.forEach((s) =>
          putAddressSetting(db, user.id, 'smime', smimeKey(sendAsEmail, String(s.id)), {
            ...s,
            isDefault: s.id === id,
          }),
        ),
      )
      return c.body(null, 204)
    },
  )
