import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { pageOf } from '../../core/paging.ts'
import { ModifyThreadRequest, Thread } from '../api/schemas.gen.ts'
import { toMessage, type Format } from '../map.ts'
import { labelsOf, threadMessages } from '../store/messages.ts'
import { deleteMessagesOfMany, modifyLabelsOfMany } from '../store/message-batch.ts'
import { searchThreads } from '../store/search.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { json, jsonBody, mailboxOf, MailListQuery, repeated, UserIdParam, UserParam } from './common.ts'
import { checkLabelChange } from './messages.ts'
import { turnTaker } from '../../core/turns.ts'
import { maxOf } from '../../core/arrays.ts'

const base = '/gmail/v1/users/{userId}/threads'

function requireThread(c: WorldContext, user: WorldUserRow, id: string) {
  if (!/^[0-9a-f]{1,16}$/i.test(id)) throw badRequest('Invalid id value', 'invalidArgument')
  const rows = threadMessages(c.var.world.db, user.id, id)
  if (rows.length === 0) throw notFound()
  return rows
}

const historyOf = (rows: { historyId: number }[]) => String(maxOf(rows.map((r) => r.historyId)))

const list = createRoute({
  operationId: 'gmail.users.threads.list',
  method: 'get',
  path: base,
  request: {
    params: UserParam,
    query: MailListQuery,
  },
  responses: {
    200: json(
      z.object({
        threads: z.array(Thread).optional(),
        nextPageToken: z.string().optional(),
        resultSizeEstimate: z.number(),
      }),
    ),
  },
})
const get = createRoute({
  operationId: 'gmail.users.threads.get',
  method: 'get',
  path: `${base}/{id}`,
  request: {
    params: UserIdParam,
    query: z.object({ format: z.enum(['full', 'metadata', 'minimal']).default('full'), metadataHeaders: repeated() }),
  },
  responses: { 200: json(Thread) },
})
const modify = createRoute({
  operationId: 'gmail.users.threads.modify',
  method: 'post',
  path: `${base}/{id}/modify`,
  request: { params: UserIdParam, body: jsonBody(ModifyThreadRequest) },
  responses: { 200: json(Thread) },
})
const trash = createRoute({
  operationId: 'gmail.users.threads.trash',
  method: 'post',
  path: `${base}/{id}/trash`,
  request: { params: UserIdParam },
  responses: { 200: json(Thread) },
})
const untrash = createRoute({
  operationId: 'gmail.users.threads.untrash',
  method: 'post',
  path: `${base}/{id}/untrash`,
  request: { params: UserIdParam },
  responses: { 200: json(Thread) },
})
const remove = createRoute({
  operationId: 'gmail.users.threads.delete',
  method: 'delete',
  path: `${base}/{id}`,
  request: { params: UserIdParam },
  responses: { 204: { description: 'Deleted' } },
})

/** A thread after a change: id, historyId and its messages with their labels (as Gmail answers modify/trash). */
function threadAfter(c: WorldContext, user: WorldUserRow, id: string) {
  const rows = threadMessages(c.var.world.db, user.id, id)
  return {
    id,
    historyId: historyOf(rows),
    messages: rows.map((r) => ({ id: r.id, threadId: r.threadId, labelIds: labelsOf(c.var.world.db, user.id, r.id) })),
  }
}

function relabel(c: WorldContext, user: WorldUserRow, id: string, add: string[], removeIds: string[]) {
  const rows = requireThread(c, user, id)
  c.var.world.tx((db) => modifyLabelsOfMany(db, user.id, rows, add, removeIds))
  return threadAfter(c, user, id)
}

export const threadsRouter = createGoogleRouter()
  .openapi(list, async (c) => {
    const query = c.req.valid('query')
    const user = mailboxOf(c, c.req.valid('param').userId)
    const db = c.var.world.db
    const ids = searchThreads(db, user, query)
    const { page, nextPageToken } = pageOf(ids, query.maxResults, query.pageToken)
    const body: Record<string, unknown> = {}
    if (page.length) {
      // 500 threads read one by one is long work: other requests get a turn meanwhile (envs/core/turns.ts).
      const threads: unknown[] = []
      const turns = turnTaker()
      for (const id of page) {
        const rows = threadMessages(db, user.id, id)
        const last = rows[rows.length - 1]!
        threads.push({ id, snippet: last.snippet, historyId: historyOf(rows) })
        await turns.maybeYield()
      }
      body.threads = threads
    }
    if (nextPageToken) body.nextPageToken = nextPageToken
    body.resultSizeEstimate = ids.length
    return c.json(body as never, 200)
  })
  .openapi(get, (c) => {
    const { userId, id } = c.req.valid('param')
    const { format, metadataHeaders } = c.req.valid('query')
    const user = mailboxOf(c, userId)
    const rows = requireThread(c, user, id)
    const messages = rows.map((r) =>
      toMessage(r, labelsOf(c.var.world.db, user.id, r.id), format as Format, metadataHeaders),
    )
    return c.json({ id, historyId: historyOf(rows), messages } as never, 200)
  })
  .openapi(modify, (c) => {
    const { userId, id } = c.req.valid('param')
    const body = c.req.valid('json') as { addLabelIds?: string[]; removeLabelIds?: string[] }
    const user = mailboxOf(c, userId)
    checkLabelChange(c, user, body, true)
    return c.json(relabel(c, user, id, body.addLabelIds ?? [], body.removeLabelIds ?? []) as never, 200)
  })
  .openapi(trash, (c) =>
    c.json(
      relabel(
        c,
        mailboxOf(c, c.req.valid('param').userId),
        c.req.valid('param').id,
        ['TRASH'],
        ['INBOX', 'SPAM'],
      ) as never,
      200,
    ),
  )
  .openapi(untrash, (c) =>
    c.json(relabel(c, mailboxOf(c, c.req.valid('param').userId), c.req.valid('param').id, [], ['TRASH']) as never, 200),
  )
  .openapi(remove, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    const rows = requireThread(c, user, id)
    c.var.world.tx((db) =>
      deleteMessagesOfMany(
        db,
        user.id,
        rows.map((r) => r.id),
      ),
    )
    return c.body(null, 204)
  })
