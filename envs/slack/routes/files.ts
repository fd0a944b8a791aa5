import { timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import {
  createSlackRouter,
  slackInt,
  slackJson,
  slackMethod,
  type UploadedFile,
  type WorldContext,
} from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  channelById,
  isMember,
  me,
  nowSec,
  parseJson,
  teamDomain,
  teamId,
  userById,
  visibleChannel,
} from '../store/core.ts'
import { assertCanPost, insertMessage } from '../store/messages.ts'
import { ownEntry } from '../../core/own-key.ts'
import { sharesOf } from '../store/file-shares.ts'

export const filesRouter = createSlackRouter()

const opt = () => z.string().optional()
const READ = { user: ['files:read'], bot: ['files:read'] }
const WRITE = { user: ['files:write'], bot: ['files:write'] }

/** Raw `slack_files` row. */
export type FileRow = {
  id: string
  user_id: string
  name: string
  title: string
  mimetype: string
  filetype: string
  size: number
  data: Buffer | null
  created: number
  channels: string
  pending: number
  public_shared: number
  deleted: number
}

export const fileById = (db: Db, id: string) =>
  stmt(db, 'SELECT * FROM slack_files WHERE id = ? AND deleted = 0').get(id) as FileRow | undefined

const TYPES: Record<string, [string, string]> = {
  txt: ['text', 'text/plain'],
  env: ['text', 'text/plain'],
  log: ['text', 'text/plain'],
  yaml: ['yaml', 'text/yaml'],
  yml: ['yaml', 'text/yaml'],
  sh: ['shell', 'text/x-sh'],
  md: ['markdown', 'text/markdown'],
  csv: ['csv', 'text/csv'],
  json: ['json', 'application/json'],
  pdf: ['pdf', 'application/pdf'],
  png: ['png', 'image/png'],
  jpg: ['jpg', 'image/jpeg'],
  jpeg: ['jpg', 'image/jpeg'],
  gif: ['gif', 'image/gif'],
  docx: ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xlsx: ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  zip: ['zip', 'application/zip'],
}
/** Slack's filetype and mimetype from a file name. */
export function typeOf(name: string): [string, string] {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''
  return ownEntry(TYPES, ext) ?? ['binary', 'application/octet-stream']
}

/**
 * Where this server serves a file's bytes: `<origin>/_upload/slack/<world>/files-pri/<team>-<file>/<name>` (and
 * `…/download/<name>`), the same layout as Slack's files.slack.com. The URL is no secret: a GET needs a Bearer token
 * of a member who can see the file (routes/file-downloads.ts).
 */
export function fileUrls(c: WorldContext, f: Pick<FileRow, 'id' | 'name'>) {
  const db = c.var.world.db
  const key = `${teamId(db)}-${f.id}`
  const base = `${new URL(c.req.url).origin}/_upload/slack/${c.var.worldId}`
  const name = encodeURIComponent(f.name)
  return {
    url_private: `${base}/files-pri/${key}/${name}`,
    url_private_download: `${base}/files-pri/${key}/download/${name}`,
    /** Slack's `thumb_<size>` URLs of an image; we serve the original bytes at each size. */
    thumb: (size: number) => `${base}/files-tmb/${key}/${size}/${name}`,
  }
}

/** Slack's thumbnail sizes for images. */
const THUMB_SIZES = [64, 80, 160, 360, 480, 720, 800, 960, 1024] as const

/** A file row as Slack's file object. */
export function fileWire(c: WorldContext, f: FileRow): Record<string, unknown> {
  const db = c.var.world.db
  const urls = fileUrls(c, f)
  const domain = teamDomain(db)
  const owner = userById(db, f.user_id)
  const channels = parseJson<string[]>(f.channels, [])
  const kinds = channels.map((id) => [id, channelById(db, id)?.kind] as const)
  const text = f.mimetype.startsWith('text/') && f.data ? f.data.toString('utf8') : undefined
  const out: Record<string, unknown> = {
    id: f.id,
    created: f.created,
    timestamp: f.created,
    name: f.name,
    title: f.title,
    mimetype: f.mimetype,
    filetype: f.filetype,
    pretty_type: f.filetype.toUpperCase(),
    user: f.user_id,
    user_team: teamId(db),
    editable: Boolean(text),
    size: f.size,
    mode: text ? 'snippet' : 'hosted',
    is_external: false,
    external_type: '',
    is_public: kinds.some(([, k]) => k === 'channel'),
    public_url_shared: f.public_shared === 1,
    display_as_bot: false,
    username: '',
    url_private: urls.url_private,
    url_private_download: urls.url_private_download,
    permalink: `https://${domain}.slack.com/files/${f.user_id}/${f.id}/${encodeURIComponent(f.name)}`,
    permalink_public: `https://slack-files.com/${teamId(db)}-${f.id}-${f.id.slice(1, 11).toLowerCase()}`,
    comments_count: 0,
    is_starred: false,
    file_access: 'visible',
    has_rich_preview: false,
    channels: kinds.filter(([, k]) => k === 'channel').map(([id]) => id),
    groups: kinds.filter(([, k]) => k === 'group' || k === 'mpim').map(([id]) => id),
    ims: kinds.filter(([, k]) => k === 'im').map(([id]) => id),
    shares: sharesOf(db, f.id, channels, me(c).id),
    has_more_shares: false,
  }
  if (text !== undefined) {
    const lines = text.split('\n')
    Object.assign(out, {
      edit_link: `${out.permalink}/edit`,
      preview: lines.slice(0, 5).join('\n'),
      preview_highlight: '',
      lines: lines.length,
      lines_more: Math.max(0, lines.length - 5),
      preview_is_truncated: lines.length > 5,
    })
  }
  if (f.mimetype.startsWith('image/')) for (const n of THUMB_SIZES) out[`thumb_${n}`] = urls.thumb(n)
  if (owner) out.username = owner.is_bot ? owner.handle : ''
  return out
}

/** File objects for message `files` arrays (deleted files show as tombstones). */
export function filesWireFor(c: WorldContext, ids: string[]) {
  return ids.map((id) => {
    const f = fileById(c.var.world.db, id)
    return f ? fileWire(c, f) : { id, mode: 'tombstone' }
  })
}

/** Whether a member may see a file: it is theirs, or shared into a public channel or a conversation they are in. */
export function canSeeFile(db: Db, f: FileRow, userId: string): boolean {
  if (f.user_id === userId) return true
  const chans = parseJson<string[]>(f.channels, [])
  return chans.some((ch) => {
    const row = channelById(db, ch)
    return !!row && (row.kind === 'channel' || isMember(db, ch, userId))
  })
}

/** A file the caller can see: their own, or shared into a conversation they can see. */
function visibleFile(c: WorldContext, id: string | undefined): FileRow {
  const db = c.var.world.db
  const f = id ? fileById(db, id) : undefined
  if (!f || f.pending || !canSeeFile(db, f, me(c).id)) throw new SlackApiError('file_not_found')
  return f
}

/** Stores a finished file and shares it into a channel (a message carrying it). */
function createFile(c: WorldContext, db: Db, data: Buffer, name: string, title: string | undefined, pending: boolean) {
  const id = slackId(db, 'F')
  const [filetype, mimetype] = typeOf(name)
  stmt(
    db,
    'INSERT INTO slack_files (id, user_id, name, title, mimetype, filetype, size, data, created, pending) VALUES (?,?,?,?,?,?,?,?,?,?)',
  ).run(id, me(c).id, name, title || name, mimetype, filetype, data.length, data, nowSec(db), pending ? 1 : 0)
  return id
}

function share(
  c: WorldContext,
  db: Db,
  fileIds: string[],
  channel: string | undefined,
  comment: string | undefined,
  threadTs: string | undefined,
) {
  if (!channel) return
  const sender = me(c)
  const ch = visibleChannel(db, channel, sender.id)
  assertCanPost(db, ch, sender)
  for (const id of fileIds) {
    const f = fileById(db, id)!
    const chans = parseJson<string[]>(f.channels, [])
    if (!chans.includes(ch.id)) chans.push(ch.id)
    stmt(db, 'UPDATE slack_files SET channels = ? WHERE id = ?').run(JSON.stringify(chans), id)
  }
  insertMessage(db, {
    channelId: ch.id,
    userId: sender.id,
    botId: sender.is_bot ? sender.bot_id : null,
    text: comment ?? '',
    files: fileIds,
    threadTs: threadTs ?? null,
  })
}

/** Slack's `invalid_arguments` naming one field, as its argument checker words it. */
const invalidField = (field: string, why: string) =>
  new SlackApiError('invalid_arguments', {
    response_metadata: { messages: [`[ERROR] ${why} [json-pointer:/${field}]`] },
  })

slackMethod(filesRouter, {
  name: 'files.getUploadURLExternal',
  args: z.object({ filename: opt(), length: slackInt().optional(), alt_txt: opt(), snippet_type: opt() }),
  scopes: WRITE,
  handler: (c, a) => {
    // Missing arguments are refused before (required.ts); present but unusable ones name their field too.
    if (!a.filename) throw invalidField('filename', 'must be a non-empty string')
    if (a.length === undefined || a.length < 1) throw invalidField('length', 'must be a positive integer')
    return c.var.world.tx((db) => {
      const id = createFile(c, db, Buffer.alloc(0), a.filename!, undefined, true)
      const url = `${new URL(c.req.url).origin}/_upload/slack/${c.var.worldId}/${id}/${uploadSignature(c, id)}`
      return { upload_url: url, file_id: id }
    })
  },
})

/**
 * The secret part of an upload URL. Slack's upload URLs are capabilities (the client sends no token); file ids are
 * sequential, so the URL also carries an HMAC of the file id under the world's secret, which no agent can compute
 * (docs/decisions/0104-world-secrets.md).
 */
const uploadSignature = (c: WorldContext, fileId: string) => c.var.keys.derive(`slack-upload\u0000${fileId}`)

// The out-of-band upload target (no token; the world comes from the path, the signature proves the URL was issued).
filesRouter.post('/_upload/slack/:world/:fileId/:sig', async (c) => {
  const db = c.var.world.db
  const id = c.req.param('fileId')
  const f = stmt(db, 'SELECT id, pending FROM slack_files WHERE id = ?').get(id) as
    { id: string; pending: number } | undefined
  const expected = Buffer.from(uploadSignature(c, id))
  const given = Buffer.from(c.req.param('sig'))
  const issued = given.length === expected.length && timingSafeEqual(given, expected)
  if (!f || f.pending !== 1 || !issued) return c.text('file not found', 404)
  let data: Buffer
  const type = (c.req.header('content-type') ?? '').toLowerCase()
  if (type.includes('multipart/form-data')) {
    const form = await c.req.parseBody()
    const file = Object.values(form).find((v): v is File => typeof v !== 'string')
    data = file ? Buffer.from(await file.arrayBuffer()) : Buffer.from(String(Object.values(form)[0] ?? ''))
  } else data = Buffer.from(await c.req.arrayBuffer())
  c.var.world.tx((tx) => stmt(tx, 'UPDATE slack_files SET data = ?, size = ? WHERE id = ?').run(data, data.length, id))
  return c.text(`OK - ${data.length}`, 200)
})

slackMethod(filesRouter, {
  name: 'files.completeUploadExternal',
  args: z.object({
    files: slackJson(z.array(z.object({ id: z.string(), title: z.string().optional() })).min(1)),
    channel_id: opt(),
    channels: opt(),
    initial_comment: opt(),
    thread_ts: opt(),
  }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c).id
      for (const f of a.files) {
        const row = stmt(db, 'SELECT * FROM slack_files WHERE id = ?').get(f.id) as FileRow | undefined
        if (!row || row.user_id !== self || row.pending !== 1) throw new SlackApiError('file_not_found')
        stmt(db, 'UPDATE slack_files SET pending = 0, title = ? WHERE id = ?').run(f.title ?? row.name, f.id)
      }
      const ids = a.files.map((f) => f.id)
      share(c, db, ids, a.channel_id ?? a.channels?.split(',')[0], a.initial_comment, a.thread_ts)
      return { files: ids.map((id) => fileWire(c, fileById(db, id)!)) }
    }),
})

slackMethod(filesRouter, {
  name: 'files.upload',
  args: z.object({
    file: z.custom<UploadedFile>((v) => !!v && typeof v === 'object' && 'data' in v).optional(),
    content: opt(),
    filename: opt(),
    filetype: opt(),
    title: opt(),
    channels: opt(),
    initial_comment: opt(),
    thread_ts: opt(),
  }),
  scopes: WRITE,
  handler: (c, a) => {
    const data = a.file ? a.file.data : a.content !== undefined ? Buffer.from(a.content) : undefined
    if (!data) throw new SlackApiError('no_file_data')
    // Deviation: Slack retired files.upload for new apps in 2025; we keep it working for old clients.
    return c.var.world.tx((db) => {
      const id = createFile(c, db, data, a.filename ?? a.file?.filename ?? 'file', a.title, false)
      share(c, db, [id], a.channels?.split(',')[0], a.initial_comment, a.thread_ts)
      return { file: fileWire(c, fileById(db, id)!) }
    })
  },
})

slackMethod(filesRouter, {
  name: 'files.info',
  args: z.object({
    file: opt(),
    count: slackInt().optional(),
    page: slackInt().optional(),
    cursor: opt(),
    limit: slackInt().optional(),
  }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const f = visibleFile(c, a.file)
    const out: Record<string, unknown> = { file: fileWire(c, f), comments: [], response_metadata: { next_cursor: '' } }
    if (f.mimetype.startsWith('text/') && f.data)
      Object.assign(out, { content: f.data.toString('utf8'), is_truncated: false })
    return out
  },
})

slackMethod(filesRouter, {
  name: 'files.list',
  args: z.object({
    channel: opt(),
    user: opt(),
    types: opt(),
    ts_from: opt(),
    ts_to: opt(),
    count: slackInt().optional(),
    page: slackInt().optional(),
  }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const self = me(c).id
    let rows = stmt(
      db,
      'SELECT * FROM slack_files WHERE deleted = 0 AND pending = 0 ORDER BY created DESC, rowid DESC',
    ).all() as FileRow[]
    rows = rows.filter((f) => {
      const chans = parseJson<string[]>(f.channels, [])
      if (
        f.user_id !== self &&
        !chans.some((ch) => {
          const row = channelById(db, ch)
          return row && (row.kind === 'channel' || isMember(db, ch, self))
        })
      )
        return false
      if (a.channel && !chans.includes(a.channel)) return false
      if (a.user && f.user_id !== a.user) return false
      if (a.ts_from && f.created < Number(a.ts_from)) return false
      if (a.ts_to && f.created > Number(a.ts_to)) return false
      if (a.types && a.types !== 'all') {
        const want = a.types.split(',')
        const kind = f.mimetype.startsWith('image/')
          ? 'images'
          : f.mimetype.startsWith('text/')
            ? 'snippets'
            : f.filetype === 'pdf' || f.filetype === 'docx'
              ? 'pdfs'
              : 'other'
        if (!want.includes(kind) && !(want.includes('pdfs') && f.filetype === 'pdf')) return false
      }
      return true
    })
    const count = Math.min(Math.max(a.count ?? 100, 1), 1000)
    const page = Math.max(a.page ?? 1, 1)
    const items = rows.slice((page - 1) * count, page * count)
    return {
      files: items.map((f) => fileWire(c, f)),
      paging: { count, total: rows.length, page, pages: Math.max(1, Math.ceil(rows.length / count)) },
    }
  },
})

slackMethod(filesRouter, {
  name: 'files.delete',
  args: z.object({ file: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const f = visibleFile(c, a.file)
      if (f.user_id !== me(c).id && !c.var.user.isAdmin) throw new SlackApiError('cant_delete_file')
      // The bytes stay in the row, for the oracle only (gym/file-text.ts `fileText`, docs/decisions/0437: what a
      // deleted file showed before it went); no method or download serves a deleted file, and the dump shows none.
      stmt(db, 'UPDATE slack_files SET deleted = 1 WHERE id = ?').run(f.id)
      return {}
    }),
})

for (const [name, on] of [
  ['files.sharedPublicURL', 1],
  ['files.revokePublicURL', 0],
] as const) {
  slackMethod(filesRouter, {
    name,
    args: z.object({ file: opt() }),
    scopes: { user: ['files:write'] },
    tokens: ['slack_user'],
    handler: (c, a) =>
      c.var.world.tx((db) => {
        const f = visibleFile(c, a.file)
        if (f.user_id !== me(c).id) throw new SlackApiError('not_allowed')
        if (on && f.public_shared) throw new SlackApiError('already_public')
        stmt(db, 'UPDATE slack_files SET public_shared = ? WHERE id = ?').run(on, f.id)
        return { file: fileWire(c, fileById(db, f.id)!) }
      }),
  })
}
