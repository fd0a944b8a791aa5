import { createRoute, z } from '@hono/zod-openapi'
import { and, eq, isNull } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError, notFound } from '../../core/errors/google.ts'
import { commentId } from '../store/comments.ts'
import { nowMs } from '../../core/clock.ts'
import { Comment, Reply } from '../api/schemas.gen.ts'
import { comments } from '../schema.ts'
import { driveUser } from '../map.ts'
import { recordChange } from '../store/files.ts'
import { bool, json, jsonBody, requireFields, requireFile } from './common.ts'
import { intParam } from '../../core/param-errors.ts'

type Row = typeof comments.$inferSelect
const FileParams = z.object({ fileId: z.string() })
const CommentParams = FileParams.extend({ commentId: z.string() })
const ReplyParams = CommentParams.extend({ replyId: z.string() })
const base = '/drive/v3/files/{fileId}/comments'

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

// Deviation: comment and reply authors carry `emailAddress` (the real API shows only kind, displayName, photoLink, me),
// so an agent can tell world users apart; there is no `photoLink`.
function author(c: WorldContext, userId: string) {
  const { kind, displayName, me, emailAddress } = driveUser(c.var.world.db, userId, c.var.user.id)
  return { kind, displayName, me, emailAddress }
}

function toReply(c: WorldContext, r: Row) {
  const out: Record<string, unknown> = {
    kind: 'drive#reply',
    id: r.id,
    createdTime: new Date(r.createdMs).toISOString(),
    modifiedTime: new Date(r.modifiedMs).toISOString(),
    author: author(c, r.authorId),
    deleted: r.deleted,
  }
  if (!r.deleted) Object.assign(out, { htmlContent: escapeHtml(r.content), content: r.content })
  if (r.action) out.action = r.action
  return out
}

function toComment(c: WorldContext, r: Row, includeDeleted = false) {
  const replies = c.var.world.db
    .select()
    .from(comments)
    .where(and(eq(comments.fileId, r.fileId), eq(comments.commentId, r.id)))
    .orderBy(comments.createdMs, comments.id)
    .all()
  const out: Record<string, unknown> = {
    kind: 'drive#comment',
    id: r.id,
    createdTime: new Date(r.createdMs).toISOString(),
    modifiedTime: new Date(r.modifiedMs).toISOString(),
    author: author(c, r.authorId),
    deleted: r.deleted,
  }
  // `resolved` is present only once a reply resolved the comment (recorded comments_get has none).
  if (r.resolved) out.resolved = true
  if (!r.deleted) Object.assign(out, { htmlContent: escapeHtml(r.content), content: r.content })
  if (r.anchor) out.anchor = r.anchor
  if (r.quoted) out.quotedFileContent = JSON.parse(r.quoted)
  out.replies = replies.filter((x) => includeDeleted || !x.deleted).map((x) => toReply(c, x))
  return out
}

function findComment(c: WorldContext, fileId: string, id: string, replyTo: string | null = null) {
  const cond = replyTo === null ? isNull(comments.commentId) : eq(comments.commentId, replyTo)
  const row = c.var.world.db
    .select()
    .from(comments)
    .where(and(eq(comments.fileId, fileId), eq(comments.id, id), cond))
    .get()
  if (!row) throw notFound(`${replyTo === null ? 'Comment' : 'Reply'} not found: ${id}.`)
  return row
}

function insert(c: WorldContext, fileId: string, values: Partial<Row> & { content: string }) {
  return c.var.world.tx((db) => {
    const t = nowMs(db)
    const row = { fileId, id: commentId(db), authorId: c.var.user.id, createdMs: t, modifiedMs: t, ...values }
    db.insert(comments).values(row).run()
    recordChange(db, fileId)
    return db
      .select()
      .from(comments)
      .where(and(eq(comments.fileId, fileId), eq(comments.id, row.id)))
      .get()!
  })
}

function edit(c: WorldContext, row: Row, set: Partial<Row>) {
  if (row.authorId !== c.var.user.id)
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'insufficientFilePermissions',
      'The user does not have sufficient permissions for this comment.',
    )
  c.var.world.tx((db) => {
    db.update(comments)
      .set({ ...set, modifiedMs: nowMs(db) })
      .where(and(eq(comments.fileId, row.fileId), eq(comments.id, row.id)))
      .run()
    recordChange(db, row.fileId)
  })
  return c.var.world.db
    .select()
    .from(comments)
    .where(and(eq(comments.fileId, row.fileId), eq(comments.id, row.id)))
    .get()!
}

const Body = <T extends z.ZodType>(s: T) => jsonBody(s)

export const commentsRouter = createGoogleRouter()
  .openapi(
    createRoute({
      operationId: 'drive.comments.list',
      method: 'get',
      path: base,
      request: {
        params: FileParams,
        query: z.object({
          includeDeleted: bool(),
          pageSize: intParam({ min: 1, max: 100, dflt: 20 }),
          pageToken: z.string().optional(),
        }),
      },
      responses: { 200: json(z.record(z.string(), z.unknown())) },
    }),
    (c) => {
      requireFields(c)
      const file = requireFile(c, c.req.valid('param').fileId)
      const { includeDeleted } = c.req.valid('query')
      const rows = c.var.world.db
        .select()
        .from(comments)
        .where(and(eq(comments.fileId, file.id), isNull(comments.commentId)))
        .orderBy(comments.createdMs, comments.id)
        .all()
      return c.json(
        {
          kind: 'drive#commentList',
          comments: rows.filter((r) => includeDeleted || !r.deleted).map((r) => toComment(c, r, includeDeleted)),
        } as never,
        200,
      )
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.comments.get',
      method: 'get',
      path: `${base}/{commentId}`,
      request: { params: CommentParams, query: z.object({ includeDeleted: bool() }) },
      responses: { 200: json(Comment) },
    }),
    (c) => {
      requireFields(c)
      const { fileId, commentId } = c.req.valid('param')
      requireFile(c, fileId)
      return c.json(toComment(c, findComment(c, fileId, commentId), c.req.valid('query').includeDeleted) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.comments.create',
      method: 'post',
      path: base,
      request: { params: FileParams, body: Body(Comment) },
      responses: { 200: json(Comment) },
    }),
    (c) => {
      requireFields(c)
      const file = requireFile(c, c.req.valid('param').fileId, 'commenter')
      const body = c.req.valid('json') as { content?: string; anchor?: string; quotedFileContent?: unknown }
      if (!body.content?.trim()) throw badRequest('The comment content is required.', 'required')
      const row = insert(c, file.id, {
        content: body.content,
        anchor: body.anchor ?? null,
        quoted: body.quotedFileContent ? JSON.stringify(body.quotedFileContent) : null,
        commentId: null,
      })
      return c.json(toComment(c, row) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.comments.update',
      method: 'patch',
      path: `${base}/{commentId}`,
      request: { params: CommentParams, body: Body(Comment) },
      responses: { 200: json(Comment) },
    }),
    (c) => {
      requireFields(c)
      const { fileId, commentId } = c.req.valid('param')
      requireFile(c, fileId, 'commenter')
      const body = c.req.valid('json') as { content?: string }
      if (!body.content?.trim()) throw badRequest('The comment content is required.', 'required')
      return c.json(toComment(c, edit(c, findComment(c, fileId, commentId), { content: body.content })) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.comments.delete',
      method: 'delete',
      path: `${base}/{commentId}`,
      request: { params: CommentParams },
      responses: { 204: { description: 'Deleted' } },
    }),
    (c) => {
      const { fileId, commentId } = c.req.valid('param')
      requireFile(c, fileId, 'commenter')
      edit(c, findComment(c, fileId, commentId), { deleted: true })
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.replies.list',
      method: 'get',
      path: `${base}/{commentId}/replies`,
      request: { params: CommentParams, query: z.object({ includeDeleted: bool() }) },
      responses: { 200: json(z.record(z.string(), z.unknown())) },
    }),
    (c) => {
      requireFields(c)
      const { fileId, commentId } = c.req.valid('param')
      requireFile(c, fileId)
      findComment(c, fileId, commentId)
      const rows = c.var.world.db
        .select()
        .from(comments)
        .where(and(eq(comments.fileId, fileId), eq(comments.commentId, commentId)))
        .orderBy(comments.createdMs, comments.id)
        .all()
      return c.json(
        {
          kind: 'drive#replyList',
          replies: rows.filter((r) => c.req.valid('query').includeDeleted || !r.deleted).map((r) => toReply(c, r)),
        } as never,
        200,
      )
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.replies.get',
      method: 'get',
      path: `${base}/{commentId}/replies/{replyId}`,
      request: { params: ReplyParams },
      responses: { 200: json(Reply) },
    }),
    (c) => {
      requireFields(c)
      const { fileId, commentId, replyId } = c.req.valid('param')
      requireFile(c, fileId)
      return c.json(toReply(c, findComment(c, fileId, replyId, commentId)) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.replies.create',
      method: 'post',
      path: `${base}/{commentId}/replies`,
      request: { params: CommentParams, body: Body(Reply) },
      responses: { 200: json(Reply) },
    }),
    (c) => {
      requireFields(c)
      const { fileId, commentId } = c.req.valid('param')
      requireFile(c, fileId, 'commenter')
      const parent = findComment(c, fileId, commentId)
      const body = c.req.valid('json') as { content?: string; action?: string }
      if (body.action && body.action !== 'resolve' && body.action !== 'reopen')
        throw badRequest(`Invalid action: ${body.action}`, 'invalid')
      if (!body.content?.trim() && !body.action) throw badRequest('The reply content is required.', 'required')
      const row = insert(c, fileId, { content: body.content ?? '', action: body.action ?? null, commentId })
      // A resolving (or reopening) reply changes the comment's state.
      if (body.action)
        c.var.world.tx((db) =>
          db
            .update(comments)
            .set({ resolved: body.action === 'resolve' })
            .where(and(eq(comments.fileId, fileId), eq(comments.id, parent.id)))
            .run(),
        )
      return c.json(toReply(c, row) as never, 200)
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.replies.update',
      method: 'patch',
      path: `${base}/{commentId}/replies/{replyId}`,
      request: { params: ReplyParams, body: Body(Reply) },
      responses: { 200: json(Reply) },
    }),
    (c) => {
      requireFields(c)
      const { fileId, commentId, replyId } = c.req.valid('param')
      requireFile(c, fileId, 'commenter')
      const body = c.req.valid('json') as { content?: string }
      if (!body.content?.trim()) throw badRequest('The reply content is required.', 'required')
      return c.json(
        toReply(c, edit(c, findComment(c, fileId, replyId, commentId), { content: body.content })) as never,
        200,
      )
    },
  )
  .openapi(
    createRoute({
      operationId: 'drive.replies.delete',
      method: 'delete',
      path: `${base}/{commentId}/replies/{replyId}`,
      request: { params: ReplyParams },
      responses: { 204: { description: 'Deleted' } },
    }),
    (c) => {
      const { fileId, commentId, replyId } = c.req.valid('param')
      requireFile(c, fileId, 'commenter')
      edit(c, findComment(c, fileId, replyId, commentId), { deleted: true })
      return c.body(null, 204)
    },
  )
