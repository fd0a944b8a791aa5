import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { Revision } from '../api/schemas.gen.ts'
import { revisions } from '../schema.ts'
import { findRevision, hasBytes, revisionBytes, revisionsOf, type RevisionMeta } from '../store/revisions.ts'
import { driveUser } from '../map.ts'
import { keepErasedRevision } from '../store/erased.ts'
import { json, jsonBody, requireFile } from './common.ts'

const Params = z.object({ fileId: z.string() })
const RevParams = Params.extend({ revisionId: z.string() })
const base = '/drive/v3/files/{fileId}/revisions'

function toRevision(c: WorldContext, r: RevisionMeta, name: string) {
  const out: Record<string, unknown> = {
    kind: 'drive#revision',
    id: r.id,
    mimeType: r.mimeType,
    modifiedTime: new Date(r.modifiedMs).toISOString(),
    keepForever: r.keepForever,
    published: false,
    lastModifyingUser: driveUser(c.var.world.db, r.userId, c.var.user.id),
  }
  if (hasBytes(r)) Object.assign(out, { size: String(r.size), originalFilename: name })
  return out
}

const list = createRoute({
  operationId: 'drive.revisions.list',
  method: 'get',
  path: base,
  request: { params: Params },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})
const get = createRoute({
  operationId: 'drive.revisions.get',
  method: 'get',
  path: `${base}/{revisionId}`,
  request: { params: RevParams, query: z.object({ alt: z.enum(['json', 'media']).optional() }) },
  responses: { 200: json(Revision) },
})
const update = createRoute({
  operationId: 'drive.revisions.update',
  method: 'patch',
  path: `${base}/{revisionId}`,
  request: { params: RevParams, body: jsonBody(Revision) },
  responses: { 200: json(Revision) },
})
const remove = createRoute({
  operationId: 'drive.revisions.delete',
  method: 'delete',
  path: `${base}/{revisionId}`,
  request: { params: RevParams },
  responses: { 204: { description: 'Deleted' } },
})

function one(c: WorldContext, fileId: string, id: string) {
  const r = findRevision(c.var.world.db, fileId, id)
  if (!r) throw notFound(`Revision not found: ${id}.`)
  return r
}

/** Revisions: readable by editors (capabilities.canReadRevisions), one per content change. */
export const revisionsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const file = requireFile(c, c.req.valid('param').fileId, 'writer')
    return c.json(
      {
        kind: 'drive#revisionList',
        revisions: revisionsOf(c.var.world.db, file.id).map((r) => toRevision(c, r, file.name)),
      } as never,
      200,
    )
  })
  .openapi(get, (c) => {
    const { fileId, revisionId } = c.req.valid('param')
    const file = requireFile(c, fileId, 'writer')
    const r = one(c, file.id, revisionId)
    if (c.req.valid('query').alt === 'media') {
      const bytes = hasBytes(r) ? revisionBytes(c.var.world.db, file.id, r.id) : null
      if (bytes === null)
        throw badRequest('Only revisions of files with binary content can be downloaded.', 'revisionNotDownloadable')
      return c.body(new Uint8Array(bytes), 200, { 'content-type': r.mimeType }) as never
    }
    return c.json(toRevision(c, r, file.name) as never, 200)
  })
  .openapi(update, (c) => {
    const { fileId, revisionId } = c.req.valid('param')
    const file = requireFile(c, fileId, 'writer')
    one(c, file.id, revisionId)
    const body = c.req.valid('json') as { keepForever?: boolean }
    if (body.keepForever !== undefined)
      c.var.world.tx((db) =>
        db
          .update(revisions)
          .set({ keepForever: body.keepForever })
          .where(and(eq(revisions.fileId, fileId), eq(revisions.id, revisionId)))
          .run(),
      )
    return c.json(toRevision(c, one(c, file.id, revisionId), file.name) as never, 200)
  })
  .openapi(remove, (c) => {
    const { fileId, revisionId } = c.req.valid('param')
    const file = requireFile(c, fileId, 'writer')
    const r = one(c, file.id, revisionId)
    if (!hasBytes(r)) throw badRequest('Revisions of Google Docs cannot be deleted.', 'revisionDeletionNotSupported')
    if (file.headRevisionId === revisionId)
      throw badRequest('The head revision cannot be deleted.', 'cannotDeleteHeadRevision')
    c.var.world.tx((db) => {
      // Its bytes stay for the oracle only (0439): the file's editors could read them until now.
      keepErasedRevision(db, fileId, revisionId)
      db.delete(revisions)
        .where(and(eq(revisions.fileId, fileId), eq(revisions.id, revisionId)))
        .run()
    })
    return c.body(null, 204)
  })
