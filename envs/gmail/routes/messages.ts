import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { decodePageToken, encodePageToken } from '../../core/paging.ts'
import { nowMs } from '../../core/clock.ts'
import { textMemo } from '../../core/json-text.ts'
import {
  Message,
  ModifyMessageRequest,
  BatchModifyMessagesRequest,
  BatchDeleteMessagesRequest,
} from '../api/schemas.gen.ts'
import { toMessage, type Format } from '../map.ts'
import { base64urlPadded } from '../mime/base64url.ts'
import { deleteMessage, findAttachment, insertMessage, labelOrder, labelsOf, modifyLabels } from '../store/messages.ts'
import { searchPage, type SearchCursor } from '../store/search.ts'
import { labelExists } from '../store/mailbox.ts'
import { deleteMessagesOfMany, modifyLabelsOfMany } from '../store/message-batch.ts'
import { sendAsUser } from '../deliver.ts'
import {
  checkIds,
  flag,
  json,
  jsonBody,
  mailboxOf,
  MailListQuery,
  repeated,
  requireMessageRef,
  requireMessageRefs,
  requireMessageView,
  UserIdParam,
  UserParam,
} from './common.ts'
import { rawFromJson, rawFromUpload, type MessageInput } from './message-input.ts'
import { continueSession, GMAIL_MAX_STORE_BYTES, GMAIL_MAX_UPLOAD_BYTES, openSession } from './resumable.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'

const base = '/gmail/v1/users/{userId}/messages'
const FORMATS = ['minimal', 'full', 'raw', 'metadata'] as const

/** Label ids a client may set: existing labels of the mailbox; unknown ones are a 400 like Gmail's. */
export function checkLabels(c: WorldContext, user: WorldUserRow, ids: readonly string[]) {
  for (const id of ids) {
    if (!labelExists(c.var.world.db, user.id, id)) throw badRequest(`Invalid label: ${id}`, 'invalidArgument')
  }
}

/** Labels only Gmail applies (the labels guide: "can be manually applied: no"); modify refuses them either way. */
const AUTOMATIC_LABELS = new Set(['SENT', 'DRAFT'])

type LabelChange = { addLabelIds?: string[]; removeLabelIds?: string[] }

/**
 * The label ids of a modify call: SENT and DRAFT, like unknown ids, are `Invalid label: <id>`; with `some`, a call
 * that neither adds nor removes a label is refused, as Gmail's messages.modify and threads.modify do.
 */
export function checkLabelChange(c: WorldContext, user: WorldUserRow, body: LabelChange, some: boolean) {
  const ids = [...(body.addLabelIds ?? []), ...(body.removeLabelIds ?? [])]
  if (some && !ids.length) throw badRequest('No label add or removes specified', 'invalidArgument')
  for (const id of ids) if (AUTOMATIC_LABELS.has(id)) throw badRequest(`Invalid label: ${id}`, 'invalidArgument')
  checkLabels(c, user, ids)
}

export const list = createRoute({
  operationId: 'gmail.users.messages.list',
  method: 'get',
  path: base,
  request: {
    params: UserParam,
    query: MailListQuery,
  },
  responses: {
    200: json(
      z.object({
        messages: z.array(z.object({ id: z.string(), threadId: z.string() })).optional(),
        nextPageToken: z.string().optional(),
        resultSizeEstimate: z.number(),
      }),
    ),
  },
})

export const get = createRoute({
  operationId: 'gmail.users.messages.get',
  method: 'get',
  path: `${base}/{id}`,
  request: {
    params: UserIdParam,
    query: z.object({ format: z.enum(FORMATS).default('full'), metadataHeaders: repeated() }),
  },
  responses: { 200: json(Message) },
})

const sendRoute = createRoute({
  operationId: 'gmail.users.messages.send',
  method: 'post',
  path: `${base}/send`,
  request: { params: UserParam, body: jsonBody(Message) },
  responses: { 200: json(Message) },
})
const insertRoute = createRoute({
  operationId: 'gmail.users.messages.insert',
  method: 'post',
  path: base,
  request: {
    params: UserParam,
    query: z.object({ internalDateSource: z.enum(['receivedTime', 'dateHeader']).optional(), deleted: flag() }),
    body: jsonBody(Message),
  },
  responses: { 200: json(Message) },
})
const importRoute = createRoute({
  operationId: 'gmail.users.messages.import',
  method: 'post',
  path: `${base}/import`,
  request: {
    params: UserParam,
    query: z.object({
      internalDateSource: z.enum(['receivedTime', 'dateHeader']).optional(),
      deleted: flag(),
      neverMarkSpam: flag(),
      processForCalendar: flag(),
    }),
    body: jsonBody(Message),
  },
  responses: { 200: json(Message) },
})
const modifyRoute = createRoute({
  operationId: 'gmail.users.messages.modify',
  method: 'post',
  path: `${base}/{id}/modify`,
  request: { params: UserIdParam, body: jsonBody(ModifyMessageRequest) },
  responses: { 200: json(Message) },
})
const batchModifyRoute = createRoute({
  operationId: 'gmail.users.messages.batchModify',
  method: 'post',
  path: `${base}/batchModify`,
  request: { params: UserParam, body: jsonBody(BatchModifyMessagesRequest) },
  responses: { 204: { description: 'Done' } },
})
const batchDeleteRoute = createRoute({
  operationId: 'gmail.users.messages.batchDelete',
  method: 'post',
  path: `${base}/batchDelete`,
  request: { params: UserParam, body: jsonBody(BatchDeleteMessagesRequest) },
  responses: { 204: { description: 'Done' } },
})
const trashRoute = createRoute({
  operationId: 'gmail.users.messages.trash',
  method: 'post',
  path: `${base}/{id}/trash`,
  request: { params: UserIdParam },
  responses: { 200: json(Message) },
})
const untrashRoute = createRoute({
  operationId: 'gmail.users.messages.untrash',
  method: 'post',
  path: `${base}/{id}/untrash`,
  request: { params: UserIdParam },
  responses: { 200: json(Message) },
})
const deleteRoute = createRoute({
  operationId: 'gmail.users.messages.delete',
  method: 'delete',
  path: `${base}/{id}`,
  request: { params: UserIdParam },
  responses: { 204: { description: 'Deleted' } },
})
const attachmentRoute = createRoute({
  operationId: 'gmail.users.messages.attachments.get',
  method: 'get',
  path: `${base}/{messageId}/attachments/{id}`,
  request: { params: UserParam.extend({ messageId: z.string(), id: z.string() }) },
  responses: { 200: json(z.object({ attachmentId: z.string().optional(), size: z.number(), data: z.string() })) },
})

/** A messages.list page token: the last message of the previous page and how many matches came before. */
function decodeCursor(token: string | undefined): (SearchCursor & { seen: number }) | undefined {
  const state = decodePageToken<{ d?: unknown; i?: unknown; n?: unknown }>(token)
  if (!state) return undefined
  const { d, i, n } = state
  if (!Number.isSafeInteger(d) || typeof i !== 'string' || !Number.isSafeInteger(n) || (n as number) < 0) {
    throw badRequest('Invalid page token.', 'invalid')
  }
  return { internalDate: d as number, id: i, seen: n as number }
}

function send(c: WorldContext, user: WorldUserRow, input: MessageInput) {
  // mailboxOf ensured the sender's mailbox earlier in this request.
  const opts = { threadId: input.threadId, mailboxExists: true }
  const { row, labelIds } = c.var.world.tx((db) => sendAsUser(db, user, input.raw, opts))
  return { id: row.id, threadId: row.threadId, labelIds }
}

/**
 * insert and import: the message goes straight into the mailbox (import also runs as delivery would, minus filters).
 */
/** import defaults to the Date header, insert to the time of receipt (the documented defaults). */
const dateSource = (opts: { internalDateSource?: string; isImport: boolean }) =>
  opts.internalDateSource ?? (opts.isImport ? 'dateHeader' : 'receivedTime')

function store(
  c: WorldContext,
  user: WorldUserRow,
  input: MessageInput,
  opts: { internalDateSource?: string; deleted?: boolean; isImport: boolean },
) {
  const labelIds = input.labelIds ?? (opts.isImport ? ['INBOX', 'UNREAD'] : [])
  checkLabels(c, user, labelIds)
  const stored = opts.deleted ? [...labelIds.filter((l) => l !== 'INBOX'), 'TRASH'] : labelIds
  const row = c.var.world.tx((db) => {
    const internalDate = dateSource(opts) === 'dateHeader' ? undefined : nowMs(db)
    const message = { raw: input.raw, labelIds: stored, threadId: input.threadId, internalDate }
    return insertMessage(db, user.id, message, { mailboxExists: true })
  })
  // The message's label rows are the ones insertMessage just wrote, in this order (labelsOf would read them back).
  return { id: row.id, threadId: row.threadId, labelIds: labelOrder([...new Set(stored)]) }
}

export const messagesRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const { userId } = c.req.valid('param')
    const query = c.req.valid('query')
    const user = mailboxOf(c, userId)
    const after = decodeCursor(query.pageToken)
    const input = { q: query.q, labelIds: query.labelIds, includeSpamTrash: query.includeSpamTrash }
    const { hits, more, estimate } = searchPage(c.var.world.db, user, input, query.maxResults, after)
    const body: Record<string, unknown> = {}
    if (hits.length) body.messages = hits.map((m) => ({ id: m.id, threadId: m.threadId }))
    const last = hits[hits.length - 1]
    const seen = after?.seen ?? 0
    if (more && last) body.nextPageToken = encodePageToken({ d: last.internalDate, i: last.id, n: seen + hits.length })
    // Deviation: resultSizeEstimate counts the pages already walked plus at most ESTIMATE_CAP matches from this
    // page's start (exact on the last page); Gmail's estimate is also capped near 200 but otherwise opaque.
    body.resultSizeEstimate = seen + estimate
    return c.json(body as never, 200)
  })
  .openapi(get, (c) => {
    const { userId, id } = c.req.valid('param')
    const { format, metadataHeaders } = c.req.valid('query')
    const user = mailboxOf(c, userId)
    const row = requireMessageView(c, user, id, format === 'raw')
    const db = c.var.world.db
    const texts = format === 'full' ? textMemo(db, 'gmail#payload') : undefined
    return c.json(toMessage(row, labelsOf(db, user.id, id), format as Format, metadataHeaders, texts) as never, 200)
  })
  .openapi(sendRoute, (c) =>
    c.json(send(c, mailboxOf(c, c.req.valid('param').userId), rawFromJson(c.req.valid('json'))) as never, 200),
  )
  .openapi(insertRoute, (c) => {
    const q = c.req.valid('query')
    return c.json(
      store(c, mailboxOf(c, c.req.valid('param').userId), rawFromJson(c.req.valid('json')), {
        internalDateSource: q.internalDateSource,
        deleted: q.deleted,
        isImport: false,
      }) as never,
      200,
    )
  })
  .openapi(importRoute, (c) => {
    const q = c.req.valid('query')
    return c.json(
      store(c, mailboxOf(c, c.req.valid('param').userId), rawFromJson(c.req.valid('json')), {
        internalDateSource: q.internalDateSource,
        deleted: q.deleted,
        isImport: true,
      }) as never,
      200,
    )
  })
  .openapi(modifyRoute, (c) => {
    const { userId, id } = c.req.valid('param')
    const body = c.req.valid('json') as { addLabelIds?: string[]; removeLabelIds?: string[] }
    const user = mailboxOf(c, userId)
    checkLabelChange(c, user, body, true)
    const row = requireMessageRef(c, user, id)
    const labelIds = c.var.world.tx((db) =>
      modifyLabels(db, user.id, id, body.addLabelIds ?? [], body.removeLabelIds ?? []),
    )
    return c.json({ id: row.id, threadId: row.threadId, labelIds } as never, 200)
  })
  .openapi(batchModifyRoute, (c) => {
    const body = c.req.valid('json') as { ids?: string[]; addLabelIds?: string[]; removeLabelIds?: string[] }
    const user = mailboxOf(c, c.req.valid('param').userId)
    const ids = body.ids ?? []
    if (ids.length > 1000) throw badRequest('Too many ids: at most 1000 per call.', 'invalidArgument')
    checkIds(ids)
    checkLabelChange(c, user, body, false)
    const refs = requireMessageRefs(c, user, ids)
    c.var.world.tx((db) => modifyLabelsOfMany(db, user.id, refs, body.addLabelIds ?? [], body.removeLabelIds ?? []))
    return c.body(null, 204)
  })
  .openapi(batchDeleteRoute, (c) => {
    const body = c.req.valid('json') as { ids?: string[] }
    const user = mailboxOf(c, c.req.valid('param').userId)
    const ids = body.ids ?? []
    checkIds(ids)
    // Deviation: Gmail silently skips unknown ids in batchDelete; so do we.
    c.var.world.tx((db) => deleteMessagesOfMany(db, user.id, ids))
    return c.body(null, 204)
  })
  .openapi(trashRoute, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    const row = requireMessageRef(c, user, id)
    const labelIds = c.var.world.tx((db) => modifyLabels(db, user.id, id, ['TRASH'], ['INBOX', 'SPAM']))
    return c.json({ id: row.id, threadId: row.threadId, labelIds } as never, 200)
  })
  .openapi(untrashRoute, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    const row = requireMessageRef(c, user, id)
    const labelIds = c.var.world.tx((db) => modifyLabels(db, user.id, id, [], ['TRASH']))
    return c.json({ id: row.id, threadId: row.threadId, labelIds } as never, 200)
  })
  .openapi(deleteRoute, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    requireMessageRef(c, user, id)
    c.var.world.tx((db) => deleteMessage(db, user.id, id))
    return c.body(null, 204)
  })
  .openapi(attachmentRoute, (c) => {
    const { userId, messageId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    requireMessageRef(c, user, messageId)
    const att = findAttachment(c.var.world.db, user.id, messageId, id)
    if (!att) throw notFound()
    return c.json({ size: att.data.length, data: base64urlPadded(att.data) } as never, 200)
  })

// Uploads: /upload/gmail/v1/users/{userId}/messages[/send|/import] with uploadType=media|multipart|resumable.
type Op = (c: WorldContext, user: WorldUserRow, input: MessageInput) => unknown
const storeOp =
  (isImport: boolean): Op =>
  (c, user, input) =>
    store(c, user, input, {
      internalDateSource: c.req.query('internalDateSource'),
      deleted: c.req.query('deleted') === 'true',
      isImport,
    })
async function resumeWith(c: WorldContext, user: WorldUserRow, op: Op, maxBytes: number) {
  const input = await continueSession(c, user.id, maxBytes)
  return input instanceof Response ? input : c.json(op(c, user, input) as never, 200)
}
const uploadOps: [string, Op][] = [
  ['/send', send],
  ['', storeOp(false)],
  ['/import', storeOp(true)],
]
for (const [suffix, op] of uploadOps) {
  const path = `/upload/gmail/v1/users/:userId/messages${suffix}`
  // insert and import take up to 150 MB (discovery maxSize); send 35 MB.
  const maxBytes = suffix === '/send' ? GMAIL_MAX_UPLOAD_BYTES : GMAIL_MAX_STORE_BYTES
  messagesRouter.post(path, async (c) => {
    const user = mailboxOf(c, c.req.param('userId') ?? 'me')
    if (c.req.query('upload_id')) return resumeWith(c, user, op, maxBytes)
    if (c.req.query('uploadType') === 'resumable') return openSession(c, user.id)
    return c.json(op(c, user, await rawFromUpload(c)) as never, 200)
  })
  messagesRouter.put(path, async (c) => resumeWith(c, mailboxOf(c, c.req.param('userId') ?? 'me'), op, maxBytes))
}
