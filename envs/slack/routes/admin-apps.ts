import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { cursorPage, nowSec, parseJson, teamDomain, teamId, userById, worldUserOf } from '../store/core.ts'
import { checkTeam, requireAdmin, teamName } from '../store/admin.ts'
import { appById } from '../store/apps.ts'

// App approval: members request apps (seed `slack.appRequests`), admins approve or restrict them,
// and may uninstall an installed app. Deviation: Slack serves admin.apps.* to Enterprise Grid orgs only.

export const adminAppsRouter = createSlackRouter()
const opt = () => z.string().optional()
const USER = ['slack_user'] as const
const R = { user: ['admin.apps:read'] }
const W = { user: ['admin.apps:write'] }

type RequestRow = {
  id: string
  app_id: string
  app_name: string
  requester: string
  message: string
  scopes: string
  created: number
  status: string
}
type ResolutionRow = {
  app_id: string
  app_name: string
  status: string
  scopes: string
  resolved_by: string
  updated: number
}

const appWire = (id: string, name: string) => ({
  id,
  name,
  description: '',
  help_url: '',
  privacy_policy_url: '',
  app_homepage_url: '',
  app_directory_url: '',
  is_app_directory_approved: false,
  is_internal: false,
  additional_info: '',
  icons: {},
})
const scopesWire = (v: string) =>
  parseJson<string[]>(v, []).map((name) => ({
    name,
    description: '',
    is_sensitive: name.startsWith('admin') || name.endsWith(':history'),
    token_type: 'bot',
  }))

function requestWire(db: Db, r: RequestRow) {
  const u = userById(db, r.requester)
  return {
    id: r.id,
    app: appWire(r.app_id, r.app_name),
    previous_resolution: null,
    is_user_app_collaborator: false,
    user: { id: r.requester, name: u?.handle ?? '', email: u ? (worldUserOf(db, u)?.email ?? '') : '' },
    team: { id: teamId(db), name: teamName(db), domain: teamDomain(db) },
    scopes: scopesWire(r.scopes),
    message: r.message,
    date_created: r.created,
  }
}

const list = (db: Db, status: string) =>
  stmt(db, 'SELECT * FROM slack_app_resolutions WHERE status = ? ORDER BY updated, rowid').all(
    status,
  ) as ResolutionRow[]
const listArgs = z.object({
  team_id: opt(),
  enterprise_id: opt(),
  limit: slackInt().optional(),
  cursor: opt(),
  certified: slackBool().optional(),
})
function admin<S extends z.ZodType>(
  name: string,
  args: S,
  scopes: typeof R,
  handler: (c: WorldContext, a: z.output<S>) => Record<string, unknown>,
) {
  slackMethod(adminAppsRouter, {
    name,
    args,
    scopes,
    tokens: USER,
    handler: (c, a) => {
      requireAdmin(c)
      return handler(c, a)
    },
  })
}

admin('admin.apps.requests.list', listArgs, R, (c, a) => {
  const db = c.var.world.db
  checkTeam(db, a.team_id)
  const rows = stmt(
    db,
    "SELECT * FROM slack_app_requests WHERE status = 'pending' ORDER BY created, rowid",
  ).all() as RequestRow[]
  const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
  return { app_requests: page.map((r) => requestWire(db, r)), response_metadata: { next_cursor: next } }
})

for (const [name, status, key] of [
  ['admin.apps.approved.list', 'approved', 'approved_apps'],
  ['admin.apps.restricted.list', 'restricted', 'restricted_apps'],
] as const) {
  admin(name, listArgs, R, (c, a) => {
    const db = c.var.world.db
    checkTeam(db, a.team_id)
    const { page, next } = cursorPage(list(db, status), a.limit ?? 100, a.cursor)
    return {
      [key]: page.map((r) => ({
        app: appWire(r.app_id, r.app_name),
        scopes: scopesWire(r.scopes),
        date_updated: r.updated,
        last_resolved_by: { actor_id: r.resolved_by, actor_type: 'user' },
      })),
      response_metadata: { next_cursor: next },
    }
  })
}

/** The app named by `app_id` or `request_id` (one of the two, as Slack requires). */
function target(db: Db, a: { app_id?: string; request_id?: string }) {
  if (!!a.app_id === !!a.request_id) throw new SlackApiError('invalid_arguments')
  if (a.request_id) {
    const r = stmt(db, 'SELECT * FROM slack_app_requests WHERE id = ?').get(a.request_id) as RequestRow | undefined
    if (!r || r.status !== 'pending') throw new SlackApiError('invalid_request_id')
    return { appId: r.app_id, name: r.app_name, scopes: r.scopes }
  }
  const req = stmt(db, 'SELECT * FROM slack_app_requests WHERE app_id = ? ORDER BY created DESC LIMIT 1').get(
    a.app_id,
  ) as RequestRow | undefined
  const app = appById(db, a.app_id!)
  if (!req && !app) throw new SlackApiError('app_not_found')
  const bot = app?.botUser ? userById(db, app.botUser) : undefined
  return {
    appId: a.app_id!,
    name: req?.app_name ?? app?.manifest?.display_information.name ?? bot?.display_name ?? a.app_id!,
    scopes: req?.scopes ?? '[]',
  }
}

for (const [name, status] of [
  ['admin.apps.approve', 'approved'],
  ['admin.apps.restrict', 'restricted'],
] as const) {
  admin(name, z.object({ app_id: opt(), request_id: opt(), team_id: opt(), enterprise_id: opt() }), W, (c, a) =>
    c.var.world.tx((db) => {
      checkTeam(db, a.team_id)
      const t = target(db, a)
      stmt(
        db,
        'INSERT INTO slack_app_resolutions (app_id, app_name, status, scopes, resolved_by, updated) VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE SET status = excluded.status, resolved_by = excluded.resolved_by, updated = excluded.updated',
      ).run(t.appId, t.name, status, t.scopes, requireAdmin(c).id, nowSec(db))
      stmt(db, "UPDATE slack_app_requests SET status = ? WHERE app_id = ? AND status = 'pending'").run(status, t.appId)
      return {}
    }),
  )
}

admin('admin.apps.clearResolution', z.object({ app_id: opt(), team_id: opt(), enterprise_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    checkTeam(db, a.team_id)
    const r = stmt(db, 'DELETE FROM slack_app_resolutions WHERE app_id = ?').run(a.app_id ?? '')
    if (r.changes === 0) throw new SlackApiError('app_not_found')
    return {}
  }),
)

admin('admin.apps.requests.cancel', z.object({ request_id: opt(), team_id: opt(), enterprise_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    checkTeam(db, a.team_id)
    const r = stmt(db, "UPDATE slack_app_requests SET status = 'cancelled' WHERE id = ? AND status = 'pending'").run(
      a.request_id ?? '',
    )
    if (r.changes === 0) throw new SlackApiError('invalid_request_id')
    return {}
  }),
)

admin('admin.apps.uninstall', z.object({ app_id: opt(), team_ids: opt(), enterprise_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    for (const t of (a.team_ids ?? '').split(',').filter(Boolean)) checkTeam(db, t)
    const app = a.app_id ? appById(db, a.app_id) : undefined
    const bot = app?.botUser ? userById(db, app.botUser) : undefined
    if (!app || !bot || bot.deleted) throw new SlackApiError('app_not_found')
    // The app's bot token stops working and its bot user is deactivated.
    stmt(db, "UPDATE world_tokens SET revoked = 1 WHERE user_id = ? AND kind = 'slack_bot'").run(bot.world_user_id)
    stmt(db, 'UPDATE slack_users SET deleted = 1, updated = ? WHERE id = ?').run(nowSec(db), bot.id)
    return {}
  }),
)
