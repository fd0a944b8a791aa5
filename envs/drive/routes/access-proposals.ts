import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError } from '../../core/errors/google.ts'
import { decodePageToken, encodePageToken } from '../../core/paging.ts'
import { findUserByEmail } from '../../core/users.ts'
import { AccessProposal } from '../api/schemas.gen.ts'
import { accessProposals, permissions } from '../schema.ts'
import { atLeast, effectiveRole, permissionIdFor, recordChange } from '../store/files.ts'
import { deliverInternalMail } from '../../gmail/deliver.ts'
import { json, jsonBody, requireItem } from './common.ts'
import { intParam } from '../../core/param-errors.ts'

type Row = typeof accessProposals.$inferSelect

const toProposal = (a: Row) => ({
  fileId: a.fileId,
  proposalId: a.id,
  requesterEmailAddress: a.requesterEmail,
  recipientEmailAddress: a.recipientEmail,
  rolesAndViews: [{ role: a.role, ...(a.view ? { view: a.view } : {}) }],
  ...(a.message ? { requestMessage: a.message } : {}),
  createTime: new Date(a.createdMs).toISOString(),
})

/** Only approvers (those who may share the file: writers and above) see and resolve proposals. */
function approverFile(c: WorldContext, fileId: string) {
  const file = requireItem(c, fileId)
  if (!atLeast(effectiveRole(c.var.world.db, file.id, c.var.user.id), 'writer'))
    throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'The user is not an approver of this file.')
  return file
}

function load(c: WorldContext, fileId: string, id: string): Row {
  approverFile(c, fileId)
  const a = c.var.world.db
    .select()
    .from(accessProposals)
    .where(and(eq(accessProposals.fileId, fileId), eq(accessProposals.id, id)))
    .get()
  if (!a)
    throw new GoogleApiError('NOT_FOUND', 'notFound', `Access proposal not found: ${id}`, {
      location: 'proposalId',
      locationType: 'parameter',
    })
  return a
}

const base = '/drive/v3/files/{fileId}/accessproposals'
const FileP = z.object({ fileId: z.string() })
const P = FileP.extend({ proposalId: z.string() })
const list = createRoute({
  operationId: 'drive.accessproposals.list',
  method: 'get',
  path: base,
  request: {
    params: FileP,
    query: z.object({
      pageSize: intParam({ min: 1, max: 100, dflt: 100 }),
      pageToken: z.string().optional(),
    }),
  },
  responses: {
    200: json(z.object({ accessProposals: z.array(AccessProposal).optional(), nextPageToken: z.string().optional() })),
  },
})
const get = createRoute({
  operationId: 'drive.accessproposals.get',
  method: 'get',
  path: `${base}/{proposalId}`,
  request: { params: P },
  responses: { 200: json(AccessProposal) },
})
const resolve = createRoute({
  operationId: 'drive.accessproposals.resolve',
  method: 'post',
  path: `${base}/{proposalId}/~resolve`,
  request: { params: P, body: jsonBody(z.record(z.string(), z.unknown())) },
  responses: { 204: { description: 'Resolved' } },
})

const ROLES = ['reader', 'commenter', 'writer']

export const accessProposalsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const q = c.req.valid('query')
    const file = approverFile(c, c.req.valid('param').fileId)
    const all = c.var.world.db
      .select()
      .from(accessProposals)
      .where(eq(accessProposals.fileId, file.id))
      .orderBy(accessProposals.createdMs, accessProposals.id)
      .all()
    const start = Number(decodePageToken<{ o: number }>(q.pageToken)?.o ?? 0)
    const body: Record<string, unknown> = { accessProposals: all.slice(start, start + q.pageSize).map(toProposal) }
    if (start + q.pageSize < all.length) body.nextPageToken = encodePageToken({ o: start + q.pageSize })
    return c.json(body as never, 200)
  })
  .openapi(get, (c) =>
    c.json(toProposal(load(c, c.req.valid('param').fileId, c.req.valid('param').proposalId)) as never, 200),
  )
  .openapi(resolve, (c) => {
    const { fileId, proposalId } = c.req.valid('param')
    const a = load(c, fileId, proposalId)
    const b = c.req.valid('json') as { action?: unknown; role?: unknown; sendNotification?: unknown }
    if (b.action !== 'ACCEPT' && b.action !== 'DENY')
      throw badRequest('action must be ACCEPT or DENY.', 'invalid', { location: 'action', locationType: 'parameter' })
    const roles = Array.isArray(b.role) ? b.role : b.role === undefined ? [] : [b.role]
    if (b.action === 'ACCEPT' && (roles.length !== 1 || !ROLES.includes(roles[0] as string)))
      throw badRequest('Accepting a proposal needs exactly one role (reader, commenter or writer).', 'invalid', {
        location: 'role',
        locationType: 'parameter',
      })
    c.var.world.tx((db) => {
      db.delete(accessProposals)
        .where(and(eq(accessProposals.fileId, fileId), eq(accessProposals.id, proposalId)))
        .run()
      if (b.action !== 'ACCEPT') return
      const role = roles[0] as 'reader' | 'commenter' | 'writer'
      const user = findUserByEmail(db, a.recipientEmail)
      const pid = user ? permissionIdFor(db, user.id) : `proposal${a.id}`
      db.insert(permissions)
        .values({ fileId, id: pid, type: 'user', role, emailAddress: a.recipientEmail })
        // A pending ownership request lasts only while the grantee is a writer (docs/decisions/0456).
        .onConflictDoUpdate({
          target: [permissions.fileId, permissions.id],
          set: { role, ...(role === 'writer' ? {} : { pendingOwner: false }) },
        })
        .run()
      recordChange(db, fileId)
      if (b.sendNotification !== false) {
        deliverInternalMail(db, {
          from: { name: `${c.var.user.name} (via Google Drive)`, email: 'drive-shares-dm-noreply@google.com' },
          to: [a.recipientEmail],
          subject: 'Access granted',
          text: `${c.var.user.name} granted you ${role} access to a file.\nOpen: https://drive.google.com/open?id=${fileId}`,
          headers: { 'Reply-To': c.var.user.email },
        })
      }
    })
    return c.body(null, 204)
  })
