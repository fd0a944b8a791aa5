import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { findToken } from '../../core/tokens.ts'
import { me, nowSec, parseJson, userByWorldId } from '../store/core.ts'
import { accessLevel } from '../store/canvas.ts'
import { columnsOf, listById, type ItemRow, type ListRow } from '../store/lists.ts'

// List exports: download.start writes the list as CSV, download.get answers its private download URL,
// served at <origin>/_upload/slack/<world>/lists/<job id>.csv to a token of the world that may read the list.

export const listExportsRouter = createSlackRouter()
const opt = () => z.string().optional()

const cell = (v: unknown) => {
  const text =
    v === undefined
      ? ''
      : typeof v === 'string'
        ? v
        : Array.isArray(v)
          ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ')
          : String(v)
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}
function toCsv(db: Db, l: ListRow) {
  const cols = columnsOf(l)
  const rows = stmt(db, 'SELECT * FROM slack_list_items WHERE list_id = ? ORDER BY rowid').all(l.id) as ItemRow[]
  const lines = [cols.map((c) => cell(c.name)).join(',')]
  for (const r of rows) {
    const f = parseJson<Record<string, unknown>>(r.fields, {})
    lines.push(cols.map((c) => cell(f[c.id])).join(','))
  }
  return `${lines.join('\n')}\n`
}
const readable = (db: Db, id: string | undefined, userId: string) => {
  const l = listById(db, id)
  if (!l || !accessLevel(db, l.id, l.owner, userId)) throw new SlackApiError('list_not_found')
  return l
}

slackMethod(listExportsRouter, {
  name: 'slackLists.download.start',
  scopes: { user: ['lists:read'], bot: ['lists:read'] },
  args: z.object({ list_id: opt(), include_archived: slackBool().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const l = readable(db, a.list_id, user.id)
      const job = slackId(db, 'LeJ')
      stmt(db, 'INSERT INTO slack_list_exports (job_id, list_id, user_id, csv, created) VALUES (?,?,?,?,?)').run(
        job,
        l.id,
        user.id,
        toCsv(db, l),
        nowSec(db),
      )
      return { job_id: job }
    }),
})

slackMethod(listExportsRouter, {
  name: 'slackLists.download.get',
  scopes: { user: ['lists:read'], bot: ['lists:read'] },
  args: z.object({ list_id: opt(), job_id: opt() }),
  handler: (c, a) => {
    const db = c.var.world.db
    const user = me(c)
    const l = readable(db, a.list_id, user.id)
    const job = stmt(db, 'SELECT job_id FROM slack_list_exports WHERE job_id = ? AND list_id = ?').get(
      a.job_id ?? '',
      l.id,
    ) as { job_id: string } | undefined
    if (!job) throw new SlackApiError('job_not_found')
    return {
      status: 'COMPLETED',
      download_url: `${new URL(c.req.url).origin}/_upload/slack/${c.var.worldId}/lists/${job.job_id}.csv`,
    }
  },
})

// The private download URL: needs a Bearer token of this world whose member may read the list.
listExportsRouter.get('/_upload/slack/:world/lists/:file', (c) => {
  const db = c.var.world.db
  const checked = c.var.keys.check((c.req.header('authorization') ?? '').replace(/^Bearer\s+/i, ''))
  const token = checked ? findToken(db, checked.key) : undefined
  const user = token && !token.revoked ? userByWorldId(db, token.userId) : undefined
  if (!user || user.deleted) return c.text('Unauthorized', 401)
  const job = stmt(db, 'SELECT * FROM slack_list_exports WHERE job_id = ?').get(
    c.req.param('file').replace(/\.csv$/, ''),
  ) as { list_id: string; csv: string } | undefined
  const l = job ? listById(db, job.list_id) : undefined
  if (!job || !l || !accessLevel(db, l.id, l.owner, user.id)) return c.text('Not Found', 404)
  return c.body(job.csv, 200, { 'content-type': 'text/csv; charset=utf-8' })
})
