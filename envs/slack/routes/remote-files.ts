import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackInt, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { canSee, channelById, cursorPage, me, nowSec, parseJson, teamDomain, visibleChannel } from '../store/core.ts'
import { idList } from '../store/admin.ts'

// Remote files: files that live in another service, registered by an app (bot tokens) so they can be
// shared into channels and found. Deviation: sharing records the channels but posts no message.

export const remoteFilesRouter = createSlackRouter()
const opt = () => z.string().optional()
const BOT = ['slack_bot'] as const

type RemoteRow = {
  id: string
  external_id: string
  app_user: string
  title: string
  filetype: string
  external_url: string
  indexable: string
  has_preview: number
  channels: string
  created: number
  updated: number
}

function remoteWire(db: Db, r: RemoteRow) {
  const chans = parseJson<string[]>(r.channels, [])
  const kinds = chans.map((id) => [id, channelById(db, id)?.kind] as const)
  return {
    id: r.id,
    created: r.created,
    timestamp: r.created,
    name: r.title,
    title: r.title,
    mimetype: '',
    filetype: r.filetype || 'remote',
    pretty_type: r.filetype ? r.filetype.toUpperCase() : 'Remote',
    user: r.app_user,
    editable: false,
    size: 0,
    mode: 'external',
    is_external: true,
    external_type: 'app',
    is_public: kinds.some(([, k]) => k === 'channel'),
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: r.external_url,
    permalink: `https://${teamDomain(db)}.slack.com/files/${r.app_user}/${r.id}`,
    comments_count: 0,
    is_starred: false,
    has_rich_preview: r.has_preview === 1,
    external_id: r.external_id,
    external_url: r.external_url,
    updated: r.updated,
    channels: kinds.filter(([, k]) => k === 'channel').map(([id]) => id),
    groups: kinds.filter(([, k]) => k === 'group' || k === 'mpim').map(([id]) => id),
    ims: kinds.filter(([, k]) => k === 'im').map(([id]) => id),
  }
}

/** The remote file named by `file` or `external_id` (of this app). */
function remoteOf(db: Db, a: { file?: string; external_id?: string }, app: string) {
  if (!a.file && !a.external_id) throw new SlackApiError('invalid_arguments')
  const r = (
    a.file
      ? stmt(db, 'SELECT * FROM slack_remote_files WHERE id = ?').get(a.file)
      : stmt(db, 'SELECT * FROM slack_remote_files WHERE external_id = ? AND app_user = ?').get(a.external_id, app)
  ) as RemoteRow | undefined
  if (!r) throw new SlackApiError('file_not_found')
  return r
}
const url = (v: string | undefined) => v !== undefined && /^https?:\/\/\S+$/.test(v)
const fileArgs = z.object({ file: opt(), external_id: opt() })
const meta = {
  title: opt(),
  filetype: opt(),
  external_url: opt(),
  preview_image: z.unknown().optional(),
  indexable_file_contents: z.unknown().optional(),
}
const textOf = (v: unknown) =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'data' in v ? String((v as { data: Buffer }).data) : ''

slackMethod(remoteFilesRouter, {
  name: 'files.remote.add',
  scopes: { bot: ['remote_files:write'] },
  tokens: BOT,
  args: z.object({ external_id: opt(), ...meta }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = me(c)
      if (!a.external_id || !a.title || !url(a.external_url)) throw new SlackApiError('invalid_arguments')
      if (a.filetype !== undefined && !/^[a-z0-9]{1,20}$/.test(a.filetype)) throw new SlackApiError('invalid_filetype')
      if (stmt(db, 'SELECT 1 FROM slack_remote_files WHERE external_id = ?').get(a.external_id))
        throw new SlackApiError('file_already_exists')
      const id = slackId(db, 'F')
      stmt(
        db,
        'INSERT INTO slack_remote_files (id, external_id, app_user, title, filetype, external_url, indexable, has_preview, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?)',
      ).run(
        id,
        a.external_id,
        app.id,
        a.title,
        a.filetype ?? '',
        a.external_url,
        textOf(a.indexable_file_contents),
        a.preview_image ? 1 : 0,
        nowSec(db),
        nowSec(db),
      )
      return { file: remoteWire(db, remoteOf(db, { file: id }, app.id)) }
    }),
})

slackMethod(remoteFilesRouter, {
  name: 'files.remote.update',
  scopes: { bot: ['remote_files:write'] },
  tokens: BOT,
  args: fileArgs.extend(meta),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = me(c)
      const r = remoteOf(db, a, app.id)
      if (r.app_user !== app.id) throw new SlackApiError('file_not_found')
      if (a.external_url !== undefined && !url(a.external_url)) throw new SlackApiError('invalid_arguments')
      stmt(
        db,
        'UPDATE slack_remote_files SET title = ?, filetype = ?, external_url = ?, indexable = ?, has_preview = ?, updated = ? WHERE id = ?',
      ).run(
        a.title ?? r.title,
        a.filetype ?? r.filetype,
        a.external_url ?? r.external_url,
        a.indexable_file_contents !== undefined ? textOf(a.indexable_file_contents) : r.indexable,
        a.preview_image ? 1 : r.has_preview,
        nowSec(db),
        r.id,
      )
      return { file: remoteWire(db, remoteOf(db, { file: r.id }, app.id)) }
    }),
})

slackMethod(remoteFilesRouter, {
  name: 'files.remote.remove',
  scopes: { bot: ['remote_files:write'] },
  tokens: BOT,
  args: fileArgs,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = me(c)
      const r = remoteOf(db, a, app.id)
      if (r.app_user !== app.id) throw new SlackApiError('file_not_found')
      stmt(db, 'DELETE FROM slack_remote_files WHERE id = ?').run(r.id)
      return {}
    }),
})

slackMethod(remoteFilesRouter, {
  name: 'files.remote.info',
  scopes: { bot: ['remote_files:read'] },
  tokens: BOT,
  args: fileArgs,
  handler: (c, a) => ({ file: remoteWire(c.var.world.db, remoteOf(c.var.world.db, a, me(c).id)) }),
})

slackMethod(remoteFilesRouter, {
  name: 'files.remote.share',
  scopes: { bot: ['remote_files:share'] },
  tokens: BOT,
  args: fileArgs.extend({ channels: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = me(c)
      const r = remoteOf(db, a, app.id)
      const ids = idList(a.channels)
      if (ids.length === 0) throw new SlackApiError('invalid_channel')
      for (const id of ids) {
        const ch = visibleChannel(db, id, app.id)
        if (ch.is_archived) throw new SlackApiError('is_archived')
        if (!stmt(db, 'SELECT 1 FROM slack_members WHERE channel_id = ? AND user_id = ?').get(ch.id, app.id))
          throw new SlackApiError('not_in_channel')
      }
      const chans = [...new Set([...parseJson<string[]>(r.channels, []), ...ids])]
      stmt(db, 'UPDATE slack_remote_files SET channels = ? WHERE id = ?').run(JSON.stringify(chans), r.id)
      return { file: remoteWire(db, remoteOf(db, { file: r.id }, app.id)) }
    }),
})

slackMethod(remoteFilesRouter, {
  name: 'files.remote.list',
  scopes: { bot: ['remote_files:read'] },
  tokens: BOT,
  args: z.object({
    channel: opt(),
    ts_from: z.union([slackInt(), z.string()]).optional(),
    ts_to: z.union([slackInt(), z.string()]).optional(),
    limit: slackInt().optional(),
    cursor: opt(),
  }),
  handler: (c, a) => {
    const db = c.var.world.db
    const app = me(c)
    if (a.channel) visibleChannel(db, a.channel, app.id)
    const from = Number(a.ts_from ?? 0)
    const to = a.ts_to === undefined || a.ts_to === 'now' ? Infinity : Number(a.ts_to)
    const rows = (
      stmt(db, 'SELECT * FROM slack_remote_files ORDER BY created DESC, rowid DESC').all() as RemoteRow[]
    ).filter((r) => {
      const chans = parseJson<string[]>(r.channels, [])
      const visible =
        r.app_user === app.id ||
        chans.some((id) => {
          const ch = channelById(db, id)
          return ch && canSee(db, ch, app.id)
        })
      return visible && r.created >= from && r.created <= to && (!a.channel || chans.includes(a.channel))
    })
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
    return { files: page.map((r) => remoteWire(db, r)), response_metadata: { next_cursor: next } }
  },
})
