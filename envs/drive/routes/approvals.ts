import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError } from '../../core/errors/google.ts'
import { decodePageToken, encodePageToken } from '../../core/paging.ts'
import { urlSafeId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserByEmail, primaryOfUserAlias } from '../../core/users.ts'
import { Approval, ApprovalList } from '../api/schemas.gen.ts'
import { approvals } from '../schema.ts'
import { driveUser } from '../map.ts'
import { json, jsonBody, requireItem } from './common.ts'
import { intParam } from '../../core/param-errors.ts'

type Row = typeof approvals.$inferSelect
type Reviewer = { email: string; response: 'NO_RESPONSE' | 'APPROVED' | 'DECLINED' }
const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString())
const EMAIL = /^[^@\s]+@[^@\s]+$/

function toApproval(c: WorldContext, a: Row) {
  const db = c.var.world.db
  const reviewers = JSON.parse(a.reviewers) as Reviewer[]
  return {
    kind: 'drive#approval',
    approvalId: a.id,
    targetFileId: a.fileId,
    status: a.status,
    initiator: driveUser(db, a.initiatorId, c.var.user.id),
    reviewerResponses: reviewers.map((r) => {
      const u = findUserByEmail(db, r.email)
      return {
        kind: 'drive#reviewerResponse',
        reviewer: u
          ? driveUser(db, u.id, c.var.user.id)
          : { kind: 'drive#user', displayName: r.email, emailAddress: r.email, me: false },
        response: r.response,
      }
    }),
    createTime: iso(a.createdMs),
    modifyTime: iso(a.modifiedMs),
    dueTime: iso(a.dueMs),
    completeTime: iso(a.completedMs),
  }
}

const notFoundApproval = (id: string) =>
  new GoogleApiError('NOT_FOUND', 'notFound', `Approval not found: ${id}`, {
    location: 'approvalId',
    locationType: 'parameter',
  })

function load(c: WorldContext, fileId: string, id: string): Row {
  requireItem(c, fileId)
  const a = c.var.world.db
    .select()
    .from(approvals)
    .where(and(eq(approvals.fileId, fileId), eq(approvals.id, id)))
    .get()
  if (!a) throw notFoundApproval(id)
  return a
}

const inProgress = (a: Row) => {
  if (a.status !== 'IN_PROGRESS')
    throw new GoogleApiError(
      'FAILED_PRECONDITION',
      'failedPrecondition',
      `The approval is not in progress (status ${a.status}).`,
    )
}
const me = (c: WorldContext) => c.var.user.email.toLowerCase()

function save(c: WorldContext, a: Row, set: Partial<Row>) {
  c.var.world.db
    .update(approvals)
    .set({ ...set, modifiedMs: nowMs(c.var.world.db) })
    .where(and(eq(approvals.fileId, a.fileId), eq(approvals.id, a.id)))
    .run()
  return c.var.world.db
    .select()
    .from(approvals)
    .where(and(eq(approvals.fileId, a.fileId), eq(approvals.id, a.id)))
    .get()!
}

/** A reviewer's answer: any decline declines the approval; the last approval approves it. */
function respond(c: WorldContext, a: Row, response: 'APPROVED' | 'DECLINED') {
  inProgress(a)
  const reviewers = JSON.parse(a.reviewers) as Reviewer[]
  const mine = reviewers.find((r) => r.email === me(c))
  if (!mine)
    throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Only a reviewer of this approval can respond to it.')
  mine.response = response
  const status =
    response === 'DECLINED'
      ? 'DECLINED'
      : reviewers.every((r) => r.response === 'APPROVED')
        ? 'APPROVED'
        : 'IN_PROGRESS'
  return save(c, a, {
    reviewers: JSON.stringify(reviewers),
    status,
    completedMs: status === 'IN_PROGRESS' ? null : nowMs(c.var.world.db),
  })
}

const base = '/drive/v3/files/{fileId}/approvals'
const FileP = z.object({ fileId: z.string() })
const P = FileP.extend({ approvalId: z.string() })
const Msg = z.object({ message: z.string().optional() }).passthrough()
const verb = (name: string, body: z.ZodType = Msg) =>
  createRoute({
    operationId: `drive.approvals.${name}`,
    method: 'post',
    path: `${base}/{approvalId}/~${name}`,
    request: { params: P, body: jsonBody(body, false) },
    responses: { 200: json(Approval) },
  })
const start = createRoute({
  operationId: 'drive.approvals.start',
  method: 'post',
  path: `${base}/~start`,
  request: { params: FileP, body: jsonBody(z.record(z.string(), z.unknown())) },
  responses: { 200: json(Approval) },
})
const get = createRoute({
  operationId: 'drive.approvals.get',
  method: 'get',
  path: `${base}/{approvalId}`,
  request: { params: P },
  responses: { 200: json(Approval) },
})
const list = createRoute({
  operationId: 'drive.approvals.list',
  method: 'get',
  path: base,
  request: {
    params: FileP,
    query: z.object({
      pageSize: intParam({ min: 1, max: 100, dflt: 100 }),
      pageToken: z.string().optional(),
    }),
  },
  responses: { 200: json(ApprovalList) },
})

export const approvalsRouter = createGoogleRouter()
  .openapi(start, (c) => {
    const file = requireItem(c, c.req.valid('param').fileId, 'writer')
    const b = c.req.valid('json') as { reviewerEmails?: unknown; dueTime?: unknown }
    const emails = Array.isArray(b.reviewerEmails) ? b.reviewerEmails : []
    if (!emails.length || emails.some((e) => typeof e !== 'string' || !EMAIL.test(e)))
      throw badRequest('reviewerEmails must list at least one valid email address.', 'invalid', {
        location: 'reviewerEmails',
        locationType: 'parameter',
      })
    if (b.dueTime !== undefined && (typeof b.dueTime !== 'string' || Number.isNaN(Date.parse(b.dueTime))))
      throw badRequest('Invalid dueTime.', 'invalid')
    const db = c.var.world.db
    // One approval at a time per file.
    if (
      db
        .select()
        .from(approvals)
        .where(and(eq(approvals.fileId, file.id), eq(approvals.status, 'IN_PROGRESS')))
        .get()
    )
      throw new GoogleApiError(
        'FAILED_PRECONDITION',
        'failedPrecondition',
        'An approval is already in progress on this file.',
      )
    // A reviewer given by a Directory alias is the user (stored under the primary address, as Drive's grants are).
    const reviewers: Reviewer[] = [...new Set((emails as string[]).map((e) => primaryOfUserAlias(db, e)))].map(
      (email) => ({
        email,
        response: 'NO_RESPONSE',
      }),
    )
    const row = c.var.world.tx((tx) => {
      const t = nowMs(tx)
      const values = {
        fileId: file.id,
        id: urlSafeId(tx, 'drive.approval', 22),
        initiatorId: c.var.user.id,
        status: 'IN_PROGRESS' as const,
        reviewers: JSON.stringify(reviewers),
        dueMs: typeof b.dueTime === 'string' ? Date.parse(b.dueTime) : null,
        createdMs: t,
        modifiedMs: t,
        completedMs: null,
      }
      tx.insert(approvals).values(values).run()
      return values
    })
    return c.json(toApproval(c, row) as never, 200)
  })
  .openapi(list, (c) => {
    const q = c.req.valid('query')
    const file = requireItem(c, c.req.valid('param').fileId)
    const all = c.var.world.db
      .select()
      .from(approvals)
      .where(eq(approvals.fileId, file.id))
      .orderBy(approvals.createdMs, approvals.id)
      .all()
    const start0 = Number(decodePageToken<{ o: number }>(q.pageToken)?.o ?? 0)
    const body: Record<string, unknown> = {
      kind: 'drive#approvalList',
      items: all.slice(start0, start0 + q.pageSize).map((a) => toApproval(c, a)),
    }
    if (start0 + q.pageSize < all.length) body.nextPageToken = encodePageToken({ o: start0 + q.pageSize })
    return c.json(body as never, 200)
  })
  .openapi(get, (c) =>
    c.json(toApproval(c, load(c, c.req.valid('param').fileId, c.req.valid('param').approvalId)) as never, 200),
  )
  .openapi(verb('approve'), (c) =>
    c.json(
      toApproval(
        c,
        respond(c, load(c, c.req.valid('param').fileId, c.req.valid('param').approvalId), 'APPROVED'),
      ) as never,
      200,
    ),
  )
  .openapi(verb('decline'), (c) =>
    c.json(
      toApproval(
        c,
        respond(c, load(c, c.req.valid('param').fileId, c.req.valid('param').approvalId), 'DECLINED'),
      ) as never,
      200,
    ),
  )
  .openapi(verb('cancel'), (c) => {
    const a = load(c, c.req.valid('param').fileId, c.req.valid('param').approvalId)
    inProgress(a)
    if (a.initiatorId !== c.var.user.id)
      throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Only the initiator can cancel an approval.')
    return c.json(toApproval(c, save(c, a, { status: 'CANCELLED', completedMs: nowMs(c.var.world.db) })) as never, 200)
  })
  .openapi(verb('comment'), (c) => {
    const a = load(c, c.req.valid('param').fileId, c.req.valid('param').approvalId)
    inProgress(a)
    const b = (c.req.valid('json') ?? {}) as { message?: string }
    if (!b.message)
      throw badRequest('A message is required.', 'required', { location: 'message', locationType: 'parameter' })
    const involved =
      a.initiatorId === c.var.user.id || (JSON.parse(a.reviewers) as Reviewer[]).some((r) => r.email === me(c))
    if (!involved)
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'forbidden',
        'Only the initiator or a reviewer can comment on an approval.',
      )
    // Deviation: the comment text is not kept (the Approval resource has no field for it); modifyTime moves.
    return c.json(toApproval(c, save(c, a, {})) as never, 200)
  })
  .openapi(verb('reassign'), (c) => {
    const a = load(c, c.req.valid('param').fileId, c.req.valid('param').approvalId)
    inProgress(a)
    const b = (c.req.valid('json') ?? {}) as {
      addReviewers?: { addedReviewerEmail?: string }[]
      replaceReviewers?: { removedReviewerEmail?: string; addedReviewerEmail?: string }[]
    }
    const reviewers = JSON.parse(a.reviewers) as Reviewer[]
    if (a.initiatorId !== c.var.user.id && !reviewers.some((r) => r.email === me(c)))
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'forbidden',
        'Only the initiator or a reviewer can reassign an approval.',
      )
    const adds = (b.addReviewers ?? []).map((x) => x?.addedReviewerEmail)
    const swaps = b.replaceReviewers ?? []
    if (!adds.length && !swaps.length) throw badRequest('addReviewers or replaceReviewers is required.', 'required')
    for (const e of [...adds, ...swaps.flatMap((s) => [s?.removedReviewerEmail, s?.addedReviewerEmail])])
      if (typeof e !== 'string' || !EMAIL.test(e)) throw badRequest('Invalid reviewer email address.', 'invalid')
    const db = c.var.world.db
    for (const s of swaps) {
      const i = reviewers.findIndex((r) => r.email === primaryOfUserAlias(db, s.removedReviewerEmail!))
      if (i < 0) throw badRequest(`${s.removedReviewerEmail} is not a reviewer of this approval.`, 'invalid')
      if (reviewers[i]!.response !== 'NO_RESPONSE')
        throw badRequest(`${s.removedReviewerEmail} has already responded.`, 'invalid')
      reviewers[i] = { email: primaryOfUserAlias(db, s.addedReviewerEmail!), response: 'NO_RESPONSE' }
    }
    for (const e of (adds as string[]).map((a) => primaryOfUserAlias(db, a)))
      if (!reviewers.some((r) => r.email === e)) reviewers.push({ email: e, response: 'NO_RESPONSE' })
    return c.json(toApproval(c, save(c, a, { reviewers: JSON.stringify(reviewers) })) as never, 200)
  })
