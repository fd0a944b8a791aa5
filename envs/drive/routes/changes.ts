import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { badRequest } from '../../core/errors/google.ts'
import { stmt } from '../../core/db.ts'
import { toFile } from '../map.ts'
import { effectiveRole, findBareFile, type Audience } from '../store/files.ts'
import { bool, json, FILE_DEFAULT_FIELDS, withDefaultFields } from './common.ts'
import { requireDrive } from './drives.ts'
import { intParam } from '../../core/param-errors.ts'

const startRoute = createRoute({
  operationId: 'drive.changes.getStartPageToken',
  method: 'get',
  path: '/drive/v3/changes/startPageToken',
  request: { query: z.object({ driveId: z.string().optional(), supportsAllDrives: bool() }) },
  responses: { 200: json(z.object({ kind: z.string(), startPageToken: z.string() })) },
})
const listRoute = createRoute({
  operationId: 'drive.changes.list',
  method: 'get',
  path: '/drive/v3/changes',
  request: {
    query: z.object({
      pageToken: z.string().optional(),
      pageSize: intParam({ min: 1, max: 1000, dflt: 100 }),
      includeRemoved: bool(),
      restrictToMyDrive: bool(),
      spaces: z.string().optional(),
      supportsAllDrives: bool(),
      includeItemsFromAllDrives: bool(),
      driveId: z.string().optional(),
    }),
  },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})

type Change = { seq: number; file_id: string; time_ms: number; removed: number; audience: string | null }

/** A removed file as its removal kept it (none for removals recorded without an audience). */
function removedFile(r: Change): Audience | undefined {
  return r.audience ? (JSON.parse(r.audience) as Audience) : undefined
}

/**
 * The change feed, per caller: page tokens are positions in the world's change log; a page lists the latest
 * change of each file the caller can see, then `newStartPageToken` once the feed is exhausted.
 */
export const changesRouter = createGoogleRouter()
  .openapi(startRoute, (c) => {
    const row = stmt(c.var.world.db, 'SELECT coalesce(max(seq), 0) AS n FROM drive_changes').get() as { n: number }
    return c.json({ kind: 'drive#startPageToken', startPageToken: String(row.n + 1) }, 200)
  })
  .openapi(listRoute, (c) => {
    const q = c.req.valid('query')
    const token = /^(\d+)(?:\.(\d+))?$/.exec(q.pageToken ?? '')
    if (!token)
      throw badRequest(
        'The pageToken parameter is required and must be a page token from getStartPageToken or an earlier changes.list.',
        'required',
        { location: 'pageToken', locationType: 'parameter' },
      )
    const db = c.var.world.db
    if (q.driveId) requireDrive(c, q.driveId)
    // A later page's token is `<position>.<start>`: the page lists what changed from the position on, and reads the
    // audiences from the feed's start, so a loss of access before the position still reaches a later page.
    const from = Number(token[1])
    const start = token[2] === undefined ? from : Math.min(from, Number(token[2]))
    const rows = stmt(
      db,
      'SELECT seq, file_id, time_ms, removed, audience FROM drive_changes WHERE seq >= ? ORDER BY seq',
    ).all(start) as Change[]
    const latest = new Map<string, Change>()
    // Whether the caller could see each file before one of its changes since the token (kept with removals, moves
    // and permission changes): a file gone from the caller's view since is listed as removed (docs/decisions/0445).
    const saw = new Map<string, boolean>()
    const me = c.var.user.id
    for (const r of rows) {
      latest.delete(r.file_id)
      latest.set(r.file_id, r)
      if (!saw.get(r.file_id)) saw.set(r.file_id, removedFile(r)?.users.includes(me) ?? false)
    }
    const lost = new Set<string>()
    const visible = [...latest.values()].filter((r) => {
      if (r.seq < from) return false
      const file = findBareFile(db, r.file_id) ?? (r.removed ? removedFile(r) : undefined)
      if (!file) return false
      if (q.restrictToMyDrive && (file.ownerId !== c.var.user.id || file.driveId)) return false
      // driveId narrows the feed to one shared drive; otherwise shared drive items need includeItemsFromAllDrives.
      if (
        q.driveId ? file.driveId !== q.driveId : file.driveId && !(q.includeItemsFromAllDrives && q.supportsAllDrives)
      )
        return false
      // A removal, or a loss of access, goes to whoever could see the file before (the audiences kept).
      if ('id' in file && effectiveRole(db, r.file_id, me) !== 'none') return true
      if (!saw.get(r.file_id) || q.includeRemoved === false) return false
      lost.add(r.file_id)
      return true
    })
    const page = visible.slice(0, q.pageSize)
    const body: Record<string, unknown> = { kind: 'drive#changeList' }
    const last = rows.at(-1)?.seq ?? from - 1
    if (visible.length > q.pageSize) body.nextPageToken = `${page.at(-1)!.seq + 1}.${start}`
    else body.newStartPageToken = String(last + 1)
    body.changes = page.map((r) => {
      const file = lost.has(r.file_id) ? undefined : findBareFile(db, r.file_id)
      const time = new Date(r.time_ms).toISOString()
      if (!file)
        return { kind: 'drive#change', removed: true, fileId: r.file_id, time, type: 'file', changeType: 'file' }
      return {
        kind: 'drive#change',
        removed: false,
        file: withDefaultFields(c, toFile(db, file, c.var.user), FILE_DEFAULT_FIELDS),
        fileId: r.file_id,
        time,
        type: 'file',
        changeType: 'file',
      }
    })
    return c.json(body as never, 200)
  })
