import { createRoute, z } from '@hono/zod-openapi'
import { insertRow, stmt } from '../../core/db.ts'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { nextCounter } from '../../core/ids.ts'
import { getMeta, nowMs } from '../../core/clock.ts'
import { createHash } from 'node:crypto'
import { Draft } from '../api/schemas.gen.ts'
import { drafts } from '../schema.ts'
import { toMessage, type Format } from '../map.ts'
import { deleteMessage, findMessage, findMessageRef, insertMessage, labelsOf } from '../store/messages.ts'
import { searchMessages } from '../store/search.ts'
import { sendAsUser } from '../deliver.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { json, jsonBody, mailboxOf, maxResults, UserIdParam, UserParam, flag } from './common.ts'
import { rawFromJson, rawFromUpload, type MessageInput } from './message-input.ts'
import { continueSession, openSession } from './resumable.ts'
import { pageOf } from '../../core/paging.ts'

const base = '/gmail/v1/users/{userId}/drafts'
type DraftBody = { id?: string; message?: { raw?: string; threadId?: string } }

/** Draft ids look like Gmail's: `r` and up to 19 digits, derived deterministically. */
function draftId(c: WorldContext): string {
  const db = c.var.world.db
  const n = nextCounter(db, 'gmail.draft')
  const digits = BigInt(
    `0x${createHash('sha256')
      .update(`${getMeta(db, 'id_salt')}:draft:${n}`)
      .digest('hex')
      .slice(0, 15)}`,
  ).toString()
  return `r${digits}`
}

const DELETE_DRAFT = 'DELETE FROM gmail_drafts WHERE user_id = ? AND id = ?'

function findDraft(c: WorldContext, user: WorldUserRow, id: string) {
  const sql = 'SELECT user_id AS userId, id, message_id AS messageId FROM gmail_drafts WHERE user_id = ? AND id = ?'
  const row = stmt(c.var.world.db, sql).get(user.id, id) as typeof drafts.$inferSelect | undefined
  if (!row) throw notFound()
  return row
}

const short = (c: WorldContext, user: WorldUserRow, d: { id: string; messageId: string }) => {
  const m = findMessageRef(c.var.world.db, user.id, d.messageId)!
  return { id: d.id, message: { id: m.id, threadId: m.threadId, labelIds: labelsOf(c.var.world.db, user.id, m.id) } }
}

function inputOf(body: DraftBody): MessageInput {
  if (!body.message) throw badRequest('Missing draft message', 'invalidArgument')
  return rawFromJson(body.message)
}

function createDraft(c: WorldContext, user: WorldUserRow, input: MessageInput) {
  const row = c.var.world.tx((db) => {
    const id = draftId(c)
    const m = insertMessage(db, user.id, {
      raw: input.raw,
      labelIds: ['DRAFT'],
      threadId: input.threadId,
      internalDate: nowMs(db),
    })
    insertRow(db, drafts, { userId: user.id, id, messageId: m.id })
    return { id, messageId: m.id }
  })
  return short(c, user, row)
}

function updateDraft(c: WorldContext, user: WorldUserRow, id: string, input: MessageInput) {
  const d = findDraft(c, user, id)
  c.var.world.tx((db) => {
    deleteMessage(db, user.id, d.messageId)
    const m = insertMessage(db, user.id, {
      raw: input.raw,
      labelIds: ['DRAFT'],
      threadId: input.threadId,
      internalDate: nowMs(db),
    })
    stmt(db, 'UPDATE gmail_drafts SET message_id = ? WHERE user_id = ? AND id = ?').run(m.id, user.id, id)
  })
  return short(c, user, findDraft(c, user, id))
}

/** Sends draft `id`, replacing its message first when the request carries one (JSON `raw` or an upload). */
function sendDraft(c: WorldContext, user: WorldUserRow, id: string | undefined, replacement?: MessageInput) {
  if (!id) throw badRequest('Missing draft id', 'invalidArgument')
  const d = findDraft(c, user, id)
  const stored = findMessage(c.var.world.db, user.id, d.messageId)!
  const input = replacement ?? {
    raw: stored.raw,
    threadId: stored.threadId === stored.id ? undefined : stored.threadId,
  }
  const sent = c.var.world.tx((db) => {
    deleteMessage(db, user.id, d.messageId)
    stmt(db, DELETE_DRAFT).run(user.id, d.id)
    return sendAsUser(db, user, input.raw, { threadId: input.threadId })
  })
  return { id: sent.row.id, threadId: sent.row.threadId, labelIds: sent.labelIds }
}

const list = createRoute({
  operationId: 'gmail.users.drafts.list',
  method: 'get',
  path: base,
  request: {
    params: UserParam,
    query: z.object({
      q: z.string().optional(),
      maxResults: maxResults(100, 500),
      pageToken: z.string().optional(),
      includeSpamTrash: flag(),
    }),
  },
  responses: {
    200: json(
      z.object({
        drafts: z.array(Draft).optional(),
        resultSizeEstimate: z.number(),
        nextPageToken: z.string().optional(),
      }),
    ),
  },
})
const get = createRoute({
  operationId: 'gmail.users.drafts.get',
  method: 'get',
  path: `${base}/{id}`,
  request: {
    params: UserIdParam,
    query: z.object({ format: z.enum(['minimal', 'full', 'raw', 'metadata']).default('full') }),
  },
  responses: { 200: json(Draft) },
})
const create = createRoute({
  operationId: 'gmail.users.drafts.create',
  method: 'post',
  path: base,
  request: { params: UserParam, body: jsonBody(Draft) },
  responses: { 200: json(Draft) },
})
const update = createRoute({
  operationId: 'gmail.users.drafts.update',
  method: 'put',
  path: `${base}/{id}`,
  request: { params: UserIdParam, body: jsonBody(Draft) },
  responses: { 200: json(Draft) },
})
const remove = createRoute({
  operationId: 'gmail.users.drafts.delete',
  method: 'delete',
  path: `${base}/{id}`,
  request: { params: UserIdParam },
  responses: { 204: { description: 'Deleted' } },
})
const send = createRoute({
  operationId: 'gmail.users.drafts.send',
  method: 'post',
  path: `${base}/send`,
  request: { params: UserParam, body: jsonBody(Draft) },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})

export const draftsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const query = c.req.valid('query')
    const user = mailboxOf(c, c.req.valid('param').userId)
    const db = c.var.world.db
    const sql = 'SELECT message_id, id FROM gmail_drafts WHERE user_id = ?'
    const pairs = stmt(db, sql).raw().all(user.id) as [string, string][]
    const byMessage = new Map(pairs)
    const hits = searchMessages(db, user, {
      q: query.q,
      labelIds: ['DRAFT'],
      includeSpamTrash: query.includeSpamTrash,
    }).filter((m) => byMessage.has(m.id))
    const { page, nextPageToken } = pageOf(hits, query.maxResults, query.pageToken)
    const body: Record<string, unknown> = {}
    if (page.length)
      body.drafts = page.map((m) => ({ id: byMessage.get(m.id), message: { id: m.id, threadId: m.threadId } }))
    if (nextPageToken) body.nextPageToken = nextPageToken
    body.resultSizeEstimate = hits.length
    return c.json(body as never, 200)
  })
  .openapi(get, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    const d = findDraft(c, user, id)
    const m = findMessage(c.var.world.db, user.id, d.messageId)!
    return c.json(
      {
        id,
        message: toMessage(m, labelsOf(c.var.world.db, user.id, m.id), c.req.valid('query').format as Format),
      } as never,
      200,
    )
  })
  .openapi(create, (c) =>
    c.json(
      createDraft(c, mailboxOf(c, c.req.valid('param').userId), inputOf(c.req.valid('json') as DraftBody)) as never,
      200,
    ),
  )
  .openapi(update, (c) =>
    c.json(
      updateDraft(
        c,
        mailboxOf(c, c.req.valid('param').userId),
        c.req.valid('param').id,
        inputOf(c.req.valid('json') as DraftBody),
      ) as never,
      200,
    ),
  )
  .openapi(remove, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    const d = findDraft(c, user, id)
    c.var.world.tx((db) => {
      deleteMessage(db, user.id, d.messageId)
      stmt(db, DELETE_DRAFT).run(user.id, id)
    })
    return c.body(null, 204)
  })
  .openapi(send, (c) => {
    const body = c.req.valid('json') as DraftBody
    return c.json(
      sendDraft(
        c,
        mailboxOf(c, c.req.valid('param').userId),
        body.id,
        body.message?.raw ? inputOf(body) : undefined,
      ) as never,
      200,
    )
  })

// Uploads at /upload/gmail/v1/users/{userId}/drafts[/send|/{id}] with uploadType=media|multipart|resumable: the
// metadata part is a Draft (`{id, message: {threadId}}`); a resumable session opens with the metadata and its
// PUTs (carrying `upload_id`) deliver the message bytes to the same operation.
type DraftOp = (c: WorldContext, user: WorldUserRow, input: MessageInput) => unknown
const draftUploads: [string, 'post' | 'put', DraftOp][] = [
  ['', 'post', (c, user, input) => createDraft(c, user, input)],
  ['/send', 'post', (c, user, input) => sendDraft(c, user, input.draftId, input)],
  ['/:id', 'put', (c, user, input) => updateDraft(c, user, c.req.param('id')!, input)],
]
for (const [suffix, method, op] of draftUploads) {
  const path = `/upload/gmail/v1/users/:userId/drafts${suffix}`
  draftsRouter.on(method.toUpperCase(), path, async (c) => {
    const user = mailboxOf(c, c.req.param('userId') ?? 'me')
    if (c.req.query('upload_id')) {
      const input = await continueSession(c, user.id)
      return input instanceof Response ? input : c.json(op(c, user, input) as never, 200)
    }
    if (c.req.query('uploadType') === 'resumable') return openSession(c, user.id)
    return c.json(op(c, user, await rawFromUpload(c)) as never, 200)
  })
  // A session continues at its URI: by PUT (or POST, as google-api-go-client sends chunks) for one opened by POST;
  // by POST for one opened by PUT (drafts.update), since PUT there already serves both.
  if (method === 'put') {
    draftsRouter.post(path, async (c) => {
      if (!c.req.query('upload_id')) return c.notFound()
      const user = mailboxOf(c, c.req.param('userId') ?? 'me')
      const input = await continueSession(c, user.id)
      return input instanceof Response ? input : c.json(op(c, user, input) as never, 200)
    })
  }
  if (method === 'post') {
    draftsRouter.put(path, async (c) => {
      const user = mailboxOf(c, c.req.param('userId') ?? 'me')
      const input = await continueSession(c, user.id)
      return input instanceof Response ? input : c.json(op(c, user, input) as never, 200)
    })
  }
}
