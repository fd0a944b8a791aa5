import { createRoute, z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError } from '../../core/errors/google.ts'
import { urlSafeId } from '../../core/ids.ts'
import { Operation } from '../api/schemas.gen.ts'
import { operations } from '../schema.ts'
import { GOOGLE_DOC, FOLDER, hasContent } from '../store/files.ts'
import { bool, json, requireItem } from './common.ts'
import { publicRequestUrl } from '../../core/request-url.ts'

const EXPORTABLE = [
  'text/plain',
  'text/html',
  'text/markdown',
  'application/rtf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/pdf',
]

/** A finished download operation; its `downloadUri` points back at this server's media or export URL. */
function render(c: WorldContext, op: typeof operations.$inferSelect) {
  const origin = publicRequestUrl(c.req.url, c.req.header('x-forwarded-proto')).origin
  const uri = op.mimeType
    ? `${origin}/drive/v3/files/${op.fileId}/export?mimeType=${encodeURIComponent(op.mimeType)}`
    : op.revisionId
      ? `${origin}/drive/v3/files/${op.fileId}/revisions/${op.revisionId}?alt=media`
      : `${origin}/drive/v3/files/${op.fileId}?alt=media`
  return {
    name: op.name,
    done: true,
    response: {
      '@type': 'type.googleapis.com/google.apps.drive.v3.DownloadFileResponse',
      downloadUri: uri,
      partialDownloadAllowed: !op.mimeType,
    },
  }
}

const download = createRoute({
  operationId: 'drive.files.download',
  method: 'post',
  path: '/drive/v3/files/{fileId}/download',
  request: {
    params: z.object({ fileId: z.string() }),
    query: z.object({ mimeType: z.string().optional(), revisionId: z.string().optional(), supportsAllDrives: bool() }),
  },
  responses: { 200: json(Operation) },
})
const get = createRoute({
  operationId: 'drive.operations.get',
  method: 'get',
  path: '/drive/v3/operations/{name}',
  request: { params: z.object({ name: z.string() }) },
  responses: { 200: json(Operation) },
})
const cse = createRoute({
  operationId: 'drive.files.generateCseToken',
  method: 'get',
  path: '/drive/v3/files/generateCseToken',
  request: { query: z.object({ fileId: z.string().optional(), parent: z.string().optional() }) },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})

export const operationsRouter = createGoogleRouter()
  .openapi(cse, () => {
    // Deviation: answers 403 to everyone (wording unverified): client-side encryption needs a key service and an
    // admin-configured identity provider; no world has one.
    throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Client-side encryption is not enabled for this user.')
  })
  .openapi(download, (c) => {
    const q = c.req.valid('query')
    const row = requireItem(c, c.req.valid('param').fileId)
    if (row.mimeType === FOLDER)
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'fileNotDownloadable',
        'Only files with binary content can be downloaded.',
      )
    let mimeType: string | null = null
    if (row.mimeType === GOOGLE_DOC) {
      if (!q.mimeType)
        throw badRequest('A mimeType is required to download a Docs Editors file.', 'required', {
          location: 'mimeType',
          locationType: 'parameter',
        })
      if (!EXPORTABLE.includes(q.mimeType)) throw badRequest('The requested conversion is not supported.', 'badRequest')
      if (q.revisionId) throw badRequest('revisionId is not supported for Docs Editors files.', 'invalid')
      mimeType = q.mimeType
    } else {
      if (!hasContent(c.var.world.db, row.id))
        throw badRequest('Only files with binary content can be downloaded.', 'fileNotDownloadable')
      if (q.mimeType && q.mimeType !== row.mimeType)
        throw badRequest('The requested conversion is not supported.', 'badRequest')
      if (
        q.revisionId &&
        !c.var.world.db.$client
          .prepare('SELECT 1 FROM drive_revisions WHERE file_id = ? AND id = ?')
          .get(row.id, q.revisionId)
      ) {
        throw new GoogleApiError('NOT_FOUND', 'notFound', `Revision not found: ${q.revisionId}.`, {
          location: 'revisionId',
          locationType: 'parameter',
        })
      }
    }
    const op = c.var.world.tx((db) => {
      const values = {
        name: `download-${urlSafeId(db, 'drive.operation', 24).replace(/[^A-Za-z0-9]/g, 'x')}`,
        userId: c.var.user.id,
        fileId: row.id,
        mimeType,
        revisionId: q.revisionId ?? null,
      }
      db.insert(operations).values(values).run()
      return values
    })
    return c.json(render(c, op) as never, 200)
  })
  .openapi(get, (c) => {
    const { name } = c.req.valid('param')
    const op = c.var.world.db.select().from(operations).where(eq(operations.name, name)).get()
    // Operations belong to the user who started them.
    if (!op || op.userId !== c.var.user.id)
      throw new GoogleApiError('NOT_FOUND', 'notFound', `Operation not found: ${name}`, {
        location: 'name',
        locationType: 'parameter',
      })
    return c.json(render(c, op) as never, 200)
  })
