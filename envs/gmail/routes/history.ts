import { stmt } from '../../core/db.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { pageOf } from '../../core/paging.ts'
import { currentHistoryId } from '../store/mailbox.ts'
import { json, mailboxOf, maxResults, repeated, UserParam } from './common.ts'

const TYPES = ['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved'] as const
/** Mailboxes start their history here; a start id before it is "too old" (404), as Gmail answers. */
const FIRST_HISTORY_ID = 1000

const list = createRoute({
  operationId: 'gmail.users.history.list',
  method: 'get',
  path: '/gmail/v1/users/{userId}/history',
  request: {
    params: UserParam,
    query: z.object({
      startHistoryId: z.string().optional(),
      historyTypes: repeated(),
      labelId: z.string().optional(),
      maxResults: maxResults(100, 500),
      pageToken: z.string().optional(),
    }),
  },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})

type Row = {
  id: number
  type: (typeof TYPES)[number]
  message_id: string
  thread_id: string
  message_label_ids: string
  changed_label_ids: string
}

export const historyRouter = createGoogleRouter().openapi(list, (c) => {
  const q = c.req.valid('query')
  const user = mailboxOf(c, c.req.valid('param').userId)
  if (!q.startHistoryId || !/^\d+$/.test(q.startHistoryId))
    throw badRequest('Invalid startHistoryId', 'invalidArgument')
  const start = Number(q.startHistoryId)
  if (start < FIRST_HISTORY_ID) throw notFound('Requested entity was not found.')
  for (const t of q.historyTypes)
    if (!TYPES.includes(t as never)) throw badRequest(`Invalid value for historyTypes: ${t}`, 'invalidArgument')
  const types = q.historyTypes.length ? q.historyTypes : [...TYPES]
  const db = c.var.world.db
  const rows = (
    stmt(db, 'SELECT * FROM gmail_history WHERE user_id = ? AND id > ? ORDER BY id, rowid').all(user.id, start) as Row[]
  ).filter(
    (r) =>
      types.includes(r.type) &&
      (!q.labelId ||
        (JSON.parse(r.message_label_ids) as string[]).includes(q.labelId) ||
        (JSON.parse(r.changed_label_ids) as string[]).includes(q.labelId)),
  )
  // One history record per id, holding every change made at that id.
  const grouped = new Map<number, Record<string, unknown[]> & { id: string }>()
  for (const r of rows) {
    const rec = grouped.get(r.id) ?? ({ id: String(r.id) } as Record<string, unknown[]> & { id: string })
    const message = { id: r.message_id, threadId: r.thread_id, labelIds: JSON.parse(r.message_label_ids) as string[] }
    const changed = (rec.messages ??= []) as { id: string }[]
    if (!changed.some((m) => m.id === r.message_id)) changed.push({ id: r.message_id, threadId: r.thread_id } as never)
    if (r.type === 'messageAdded') (rec.messagesAdded ??= []).push({ message })
    if (r.type === 'messageDeleted') (rec.messagesDeleted ??= []).push({ message })
    if (r.type === 'labelAdded') (rec.labelsAdded ??= []).push({ message, labelIds: JSON.parse(r.changed_label_ids) })
    if (r.type === 'labelRemoved')
      (rec.labelsRemoved ??= []).push({ message, labelIds: JSON.parse(r.changed_label_ids) })
    grouped.set(r.id, rec)
  }
  const all = [...grouped.values()]
  const { page, nextPageToken } = pageOf(all, q.maxResults, q.pageToken)
  const body: Record<string, unknown> = {}
  if (page.length) body.history = page
  if (nextPageToken) body.nextPageToken = nextPageToken
  body.historyId = String(currentHistoryId(db, user.id))
  return c.json(body as never, 200)
})
