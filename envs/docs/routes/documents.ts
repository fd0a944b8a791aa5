import { createRoute, z } from '@hono/zod-openapi'
import { OpenAPIHono } from '@hono/zod-openapi'
import { googleValidationError, type WorldContext, type WorldEnv } from '../../core/http.ts'
import { nowIso } from '../../core/clock.ts'
import { isServiceAccount } from '../../core/users.ts'
import { createGoogleDocFile, docTitle, recordDocEdit } from '../../drive/docs-bridge.ts'
import { docsSchemas } from '../api/schemas.gen.ts'
import { requireDoc } from '../access.ts'
import { invalid, DocsError } from '../errors.ts'
import { documentToWire } from '../model/wire.ts'
import { baseView, viewOf, type ViewMode } from '../model/suggest.ts'
import { loadDocument, revisionIdOf, revisionOfId, saveDocument } from '../store/documents.ts'
import { applyRequests, checkRequests, MAX_BATCH_WORK, MAX_STORED_DOCUMENT } from '../requests/apply.ts'
import { plainText } from '../render/text.ts'
import { newDocument } from '../model/new.ts'
import { withSyncValidation } from '../../core/folded-validation.ts'

const { Document, BatchUpdateDocumentResponse } = docsSchemas()

const json = <T extends z.ZodType>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema } } })
const DocParam = z.object({ documentId: z.string() })

const get = createRoute({
  operationId: 'docs.documents.get',
  method: 'get',
  path: '/v1/documents/{documentId}',
  request: {
    params: DocParam,
    query: z.object({
      includeTabsContent: z.enum(['true', 'false']).optional(),
      suggestionsViewMode: z
        .enum([
          'DEFAULT_FOR_CURRENT_ACCESS',
          'SUGGESTIONS_INLINE',
          'PREVIEW_SUGGESTIONS_ACCEPTED',
          'PREVIEW_WITHOUT_SUGGESTIONS',
        ])
        .optional(),
    }),
  },
  responses: { 200: json(Document) },
})

const create = createRoute({
  operationId: 'docs.documents.create',
  method: 'post',
  path: '/v1/documents',
  request: { body: { required: true, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
  responses: { 200: json(Document) },
})

const batchUpdate = createRoute({
  operationId: 'docs.documents.batchUpdate',
  method: 'post',
  path: '/v1/documents/{documentId}/~batchUpdate',
  request: {
    params: DocParam,
    body: { required: true, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
  },
  responses: { 200: json(BatchUpdateDocumentResponse) },
})

const SA_NO_QUOTA =
  'Service Accounts do not have storage quota. Leverage shared drives ' +
  '(https://developers.google.com/workspace/drive/api/guides/about-shareddrives), or use OAuth delegation ' +
  '(http://support.google.com/a/answer/7281227) instead.'

/** The Document resource as the caller sees it now. */
function render(c: WorldContext, id: string, includeTabs: boolean, mode: ViewMode, both = false) {
  const db = c.var.world.db
  const { model, revision } = loadDocument(db, id)
  const meta = { documentId: id, title: docTitle(db, id) ?? '', revisionId: revisionIdOf(id, revision) }
  return documentToWire(viewOf(model, mode), meta, includeTabs, both, mode)
}

/** Request validation failures in the Docs envelope (no legacy `errors[]`), in the proto layer's words. */
const docsRouter = () =>
  withSyncValidation(
    new OpenAPIHono<WorldEnv>({
      defaultHook: (result, c) => {
        if (result.success) return
        const { target, data } = result as { target?: string; data?: unknown }
        const err = googleValidationError(result.error, target, data, 'proto')
        throw invalid(err.message, { violation: err.detail.violation })
      },
    }),
  )

export const documentsRouter = docsRouter()
  .openapi(get, (c) => {
    const { documentId } = c.req.valid('param')
    const q = c.req.valid('query')
    const role = requireDoc(c.var.world.db, documentId, c.var.user.id, 'reader')
    const asked = q.suggestionsViewMode ?? 'DEFAULT_FOR_CURRENT_ACCESS'
    const mode: ViewMode =
      asked !== 'DEFAULT_FOR_CURRENT_ACCESS'
        ? asked
        : role === 'reader'
          ? 'PREVIEW_WITHOUT_SUGGESTIONS'
          : 'SUGGESTIONS_INLINE'
    // Both views that show suggested changes need permission to see suggestions (commenters and up).
    if (mode !== 'PREVIEW_WITHOUT_SUGGESTIONS' && role === 'reader') {
      throw new DocsError('PERMISSION_DENIED', 'The caller does not have permission to view suggestions.')
    }
    return c.json(render(c, documentId, q.includeTabsContent === 'true', mode), 200)
  })
  .openapi(create, (c) => {
    const body = c.req.valid('json')
    if (body.title !== undefined && typeof body.title !== 'string')
      throw invalid(`Invalid value at 'document.title' (TYPE_STRING), ${JSON.stringify(body.title)}`)
    const title = typeof body.title === 'string' && body.title !== '' ? body.title : 'Untitled document'
    // The new document is a file in the caller's My Drive: a service account cannot own one there (Drive's rule,
    // decision 0394). Deviation (unverified): Docs' words for it are Drive's, in Docs' envelope.
    if (isServiceAccount(c.var.user)) throw new DocsError('PERMISSION_DENIED', SA_NO_QUOTA)
    // Other fields of the request (content, styles) are ignored, as the real API documents.
    const id = c.var.world.tx((db) => {
      const file = createGoogleDocFile(db, { ownerId: c.var.user.id, title })
      saveDocument(db, file.id, newDocument(), 0)
      return file.id
    })
    return c.json(render(c, id, true, 'SUGGESTIONS_INLINE', true), 200)
  })
  .openapi(batchUpdate, (c) => {
    const { documentId } = c.req.valid('param')
    const body = c.req.valid('json')
    for (const k of Object.keys(body))
      if (k !== 'requests' && k !== 'writeControl')
        throw invalid(`Invalid JSON payload received. Unknown name "${k}": Cannot find field.`)
    const db = c.var.world.db
    requireDoc(db, documentId, c.var.user.id, 'writer')
    const requests = checkRequests(body.requests)
    if (requests.length === 0) throw invalid('Must specify at least one request.')
    const wc = (body.writeControl ?? {}) as { requiredRevisionId?: unknown; targetRevisionId?: unknown }
    if (typeof wc !== 'object' || wc === null || Array.isArray(wc))
      throw invalid(
        `Invalid value at 'write_control' (type.googleapis.com/google.apps.docs.v1.WriteControl), ${JSON.stringify(wc)}`,
      )
    for (const k of Object.keys(wc))
      if (k !== 'requiredRevisionId' && k !== 'targetRevisionId')
        throw invalid(`Invalid JSON payload received. Unknown name "${k}" at 'write_control': Cannot find field.`)
    const result = c.var.world.tx((tx) => {
      const stored = loadDocument(tx, documentId)
      checkWriteControl(documentId, stored.revision, wc)
      // loadDocument parses a fresh copy, so a failing request leaves nothing behind.
      const ctx = { doc: stored.model, db: tx, fileId: documentId, userEmail: c.var.user.email, nowIso: nowIso(tx) }
      const replies = applyRequests(ctx, requests, MAX_BATCH_WORK)
      const revision = stored.revision + 1
      saveDocument(tx, documentId, ctx.doc, revision, (size) => {
        // Deviation (unverified limit): the stored form of a document, content and formatting, is bounded too, as
        // every batchUpdate and get reads and writes all of it (docs/decisions/0377). A batch that leaves it
        // smaller than before is accepted, so an oversized document can still be cut down.
        if (size > MAX_STORED_DOCUMENT && size > stored.size)
          throw invalid(
            `The document would be too large: its content and formatting would take ${size} characters of storage, past the maximum of ${MAX_STORED_DOCUMENT}.`,
          )
      })
      recordDocEdit(tx, documentId, c.var.user.id, plainText(baseView(ctx.doc)))
      return { replies, revision }
    })
    return c.json(
      {
        replies: result.replies,
        writeControl: { requiredRevisionId: revisionIdOf(documentId, result.revision) },
        documentId,
      },
      200,
    )
  })

/** writeControl: at most one of required/target; required must be the latest revision, target one of ours. */
function checkWriteControl(
  fileId: string,
  current: number,
  wc: { requiredRevisionId?: unknown; targetRevisionId?: unknown },
) {
  if (wc.requiredRevisionId !== undefined && wc.targetRevisionId !== undefined)
    throw invalid('Only one of requiredRevisionId or targetRevisionId may be set.')
  if (wc.requiredRevisionId !== undefined) {
    if (typeof wc.requiredRevisionId !== 'string' || revisionOfId(fileId, current, wc.requiredRevisionId) === undefined)
      throw invalid('The revision ID is not valid.')
    if (wc.requiredRevisionId !== revisionIdOf(fileId, current))
      throw new DocsError(
        'FAILED_PRECONDITION',
        'The required revision ID does not match the latest revision of the document.',
      )
  }
  if (wc.targetRevisionId !== undefined) {
    // Deviation: changes against an older target revision are applied to the latest revision without
    // transforming them over collaborators' edits (there are no concurrent editors in a world).
    if (typeof wc.targetRevisionId !== 'string' || revisionOfId(fileId, current, wc.targetRevisionId) === undefined)
      throw invalid('The revision ID is not valid.')
  }
}
