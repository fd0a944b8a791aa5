import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { urlSafeId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { Channel } from '../api/schemas.gen.ts'
import { channels } from '../schema.ts'
import { bool, json, jsonBody, requireItem } from './common.ts'
import { requireDrive } from './drives.ts'

type Body = {
  id?: unknown
  type?: unknown
  address?: unknown
  token?: unknown
  expiration?: unknown
  resourceId?: unknown
}

const HOUR = 3_600_000

/**
 * Opens a push channel on a resource. Drive keeps a channel for an hour unless asked for less, and at most a day for
 * a file or a week for the change feed.
 * Deviation: channels are world state only; no notification is POSTed to `address` (worlds reach no network).
 */
function openChannel(c: WorldContext, resourceUri: string, maxMs: number) {
  const b = (c.req.valid('json' as never) ?? {}) as Body
  if (typeof b.id !== 'string' || !b.id)
    throw badRequest('Channel id is required.', 'required', { location: 'id', locationType: 'parameter' })
  if (b.type !== 'web_hook' && b.type !== 'webhook')
    throw badRequest(`Invalid value for type: ${typeof b.type === 'string' ? b.type : ''}`, 'invalid', {
      location: 'type',
      locationType: 'parameter',
    })
  if (typeof b.address !== 'string' || !/^https:\/\/[^\s/]+/.test(b.address))
    throw badRequest(
      `WebHook callback must be HTTPS: ${typeof b.address === 'string' ? b.address : ''}`,
      'push.webhookUrlNotHttps',
    )
  if (b.token !== undefined && typeof b.token !== 'string') throw badRequest('Invalid value for token.', 'invalid')
  const now = nowMs(c.var.world.db)
  const asked = b.expiration === undefined ? now + HOUR : Number(b.expiration)
  if (!Number.isFinite(asked)) throw badRequest(`Invalid value for expiration: ${String(b.expiration)}`, 'invalid')
  const expirationMs = Math.min(Math.max(asked, now), now + maxMs)
  const row = c.var.world.tx((db) => {
    const values = {
      id: b.id as string,
      resourceId: urlSafeId(db, 'drive.channel', 27),
      resourceUri,
      userId: c.var.user.id,
      token: (b.token as string | undefined) ?? null,
      address: b.address as string,
      expirationMs,
    }
    db.insert(channels).values(values).run()
    return values
  })
  return {
    kind: 'api#channel',
    id: row.id,
    resourceId: row.resourceId,
    resourceUri: row.resourceUri,
    ...(row.token !== null ? { token: row.token } : {}),
    expiration: String(row.expirationMs),
  }
}

const fileWatch = createRoute({
  operationId: 'drive.files.watch',
  method: 'post',
  path: '/drive/v3/files/{fileId}/watch',
  request: {
    params: z.object({ fileId: z.string() }),
    query: z.object({ supportsAllDrives: bool() }),
    body: jsonBody(Channel),
  },
  responses: { 200: json(Channel) },
})
const changesWatch = createRoute({
  operationId: 'drive.changes.watch',
  method: 'post',
  path: '/drive/v3/changes/watch',
  request: {
    query: z.object({
      pageToken: z.string().optional(),
      driveId: z.string().optional(),
      supportsAllDrives: bool(),
      includeItemsFromAllDrives: bool(),
    }),
    body: jsonBody(Channel),
  },
  responses: { 200: json(Channel) },
})
const stop = createRoute({
  operationId: 'drive.channels.stop',
  method: 'post',
  path: '/drive/v3/channels/stop',
  request: { body: jsonBody(Channel) },
  responses: { 204: { description: 'Stopped' } },
})

export const channelsRouter = createGoogleRouter()
  .openapi(fileWatch, (c) => {
    const row = requireItem(c, c.req.valid('param').fileId)
    return c.json(
      openChannel(c, `https://www.googleapis.com/drive/v3/files/${row.id}?alt=json`, 24 * HOUR) as never,
      200,
    )
  })
  .openapi(changesWatch, (c) => {
    const q = c.req.valid('query')
    if (!q.pageToken || !/^\d+$/.test(q.pageToken))
      throw badRequest(
        'The pageToken parameter is required and must be a page token from getStartPageToken or an earlier changes.list.',
        'required',
        { location: 'pageToken', locationType: 'parameter' },
      )
    if (q.driveId) requireDrive(c, q.driveId)
    const extra = q.driveId ? `&driveId=${q.driveId}` : ''
    return c.json(
      openChannel(
        c,
        `https://www.googleapis.com/drive/v3/changes?alt=json&pageToken=${q.pageToken}${extra}`,
        7 * 24 * HOUR,
      ) as never,
      200,
    )
  })
  .openapi(stop, (c) => {
    const b = (c.req.valid('json') ?? {}) as Body
    if (typeof b.id !== 'string' || typeof b.resourceId !== 'string')
      throw badRequest('Channel id and resourceId are required.', 'required')
    const db = c.var.world.db
    const where = and(eq(channels.id, b.id), eq(channels.resourceId, b.resourceId))
    const row = db.select().from(channels).where(where).get()
    if (!row || row.userId !== c.var.user.id)
      throw notFound(`Channel '${b.id}' not found for project '${b.resourceId}'`)
    db.delete(channels).where(where).run()
    return c.body(null, 204)
  })
