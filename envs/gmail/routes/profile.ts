import { stmt } from '../../core/db.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { currentHistoryId } from '../store/mailbox.ts'
import { json, jsonBody, mailboxOf, UserParam } from './common.ts'
import { WatchRequest } from '../api/schemas.gen.ts'
import { getSetting, setSetting } from '../store/settings.ts'
import { badRequest } from '../../core/errors/google.ts'
import { nowMs } from '../../core/clock.ts'

const getProfile = createRoute({
  operationId: 'gmail.users.getProfile',
  method: 'get',
  path: '/gmail/v1/users/{userId}/profile',
  request: { params: UserParam },
  responses: {
    200: json(
      z.object({
        emailAddress: z.string(),
        messagesTotal: z.number().int(),
        threadsTotal: z.number().int(),
        historyId: z.string(),
      }),
    ),
  },
})
const watch = createRoute({
  operationId: 'gmail.users.watch',
  method: 'post',
  path: '/gmail/v1/users/{userId}/watch',
  request: { params: UserParam, body: jsonBody(WatchRequest) },
  responses: { 200: json(z.object({ historyId: z.string(), expiration: z.string() })) },
})
const stop = createRoute({
  operationId: 'gmail.users.stop',
  method: 'post',
  path: '/gmail/v1/users/{userId}/stop',
  request: { params: UserParam },
  responses: { 204: { description: 'Stopped' } },
})

export const profileRouter = createGoogleRouter()
  .openapi(getProfile, (c) => {
    const user = mailboxOf(c, c.req.valid('param').userId)
    const db = c.var.world.db
    const count = (sql: string) => (stmt(db, sql).get(user.id) as { n: number }).n
    return c.json(
      {
        emailAddress: user.email,
        messagesTotal: count('SELECT count(*) AS n FROM gmail_messages WHERE user_id = ?'),
        threadsTotal: count('SELECT count(DISTINCT thread_id) AS n FROM gmail_messages WHERE user_id = ?'),
        historyId: String(currentHistoryId(db, user.id)),
      },
      200,
    )
  })
  .openapi(watch, (c) => {
    const user = mailboxOf(c, c.req.valid('param').userId)
    const body = c.req.valid('json') as { topicName?: string; labelIds?: string[]; labelFilterBehavior?: string }
    if (!body.topicName || !/^projects\/[^/]+\/topics\/[^/]+$/.test(body.topicName))
      throw badRequest('Invalid topicName does not match projects/*/topics/*', 'invalidArgument')
    const db = c.var.world.db
    // Deviation: no Pub/Sub messages are published; the watch is recorded as state (7-day expiration like Gmail).
    const watchState = {
      topicName: body.topicName,
      labelIds: body.labelIds ?? [],
      labelFilterBehavior: body.labelFilterBehavior ?? 'include',
      historyId: String(currentHistoryId(db, user.id)),
      expiration: String(nowMs(db) + 7 * 86_400_000),
    }
    c.var.world.tx((tx) => setSetting(tx, user.id, 'watch', watchState))
    return c.json({ historyId: watchState.historyId, expiration: watchState.expiration }, 200)
  })
  .openapi(stop, (c) => {
    const user = mailboxOf(c, c.req.valid('param').userId)
    if (Object.keys(getSetting(c.var.world.db, user.id, 'watch')).length > 0)
      c.var.world.tx((db) => setSetting(db, user.id, 'watch', {}))
    return c.body(null, 204)
  })
