import { createHash, createHmac } from 'node:crypto'
import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { issueTokenKey, type WorldKeys } from '../../core/tokens.ts'
import { worldUsers } from '../../core/world-tables.ts'
import { me, nowSec, parseJson, teamDomain, teamId, userById, worldUserOf, type UserRow } from '../store/core.ts'
import { teamName } from '../store/admin.ts'
import {
  appById,
  authCode,
  redirectAllowed,
  sameSecret,
  checkClient,
  credentials,
  manifestErrors,
  type App,
  type AppRow,
  type Manifest,
} from '../store/apps.ts'
import { userWire } from '../map.ts'

// Apps: manifests (apps.manifest.*), installation and sign-in through OAuth (oauth.v2.access,
// openid.connect.*), and the RTM/teams lookups apps make at start-up.
// Deviation: Slack manages manifests with app configuration tokens (xoxe-); here a member's user token
// does, and only the app's creator may change it.

export const appsRouter = createSlackRouter()
const opt = () => z.string().optional()
const USER = ['slack_user'] as const

const invalidManifest = (errors: { message: string; pointer: string }[]) =>
  new SlackApiError('invalid_manifest', { errors })
function parseManifest(raw: unknown): Manifest {
  if (raw === undefined) throw new SlackApiError('invalid_arguments')
  const { manifest, errors } = manifestErrors(raw)
  if (!manifest) throw invalidManifest(errors)
  return manifest
}
function ownApp(db: Db, id: string | undefined, user: UserRow): AppRow {
  const row = (id ? stmt(db, 'SELECT * FROM slack_apps WHERE id = ?').get(id) : undefined) as AppRow | undefined
  if (!row || row.creator !== user.id) throw new SlackApiError('invalid_app_id')
  return row
}

slackMethod(appsRouter, {
  name: 'apps.manifest.create',
  tokens: USER,
  args: z.object({ manifest: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const manifest = parseManifest(a.manifest)
      const id = slackId(db, 'A')
      stmt(db, 'INSERT INTO slack_apps (id, manifest, creator, created, updated) VALUES (?,?,?,?,?)').run(
        id,
        JSON.stringify(manifest),
        me(c).id,
        nowSec(db),
        nowSec(db),
      )
      const cred = credentials(c.var.keys, db, id)
      const scopes = manifest.oauth_config?.scopes ?? {}
      const query = new URLSearchParams({
        client_id: cred.client_id,
        scope: (scopes.bot ?? []).join(','),
        user_scope: (scopes.user ?? []).join(','),
      })
      return { app_id: id, credentials: cred, oauth_authorize_url: `https://slack.com/oauth/v2/authorize?${query}` }
    }),
})

slackMethod(appsRouter, {
  name: 'apps.manifest.validate',
  tokens: USER,
  args: z.object({ manifest: z.unknown().optional(), app_id: opt() }),
  handler: (c, a) => {
    if (a.app_id) ownApp(c.var.world.db, a.app_id, me(c))
    parseManifest(a.manifest)
    return {}
  },
})

slackMethod(appsRouter, {
  name: 'apps.manifest.update',
  tokens: USER,
  args: z.object({ app_id: opt(), manifest: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const row = ownApp(db, a.app_id, me(c))
      const manifest = parseManifest(a.manifest)
      const before = parseJson<Manifest>(row.manifest, { display_information: { name: '' } }).oauth_config?.scopes ?? {}
      const after = manifest.oauth_config?.scopes ?? {}
      const same = (x?: string[], y?: string[]) =>
        JSON.stringify([...(x ?? [])].sort()) === JSON.stringify([...(y ?? [])].sort())
      stmt(db, 'UPDATE slack_apps SET manifest = ?, updated = ? WHERE id = ?').run(
        JSON.stringify(manifest),
        nowSec(db),
        row.id,
      )
      return { app_id: row.id, permissions_updated: !same(before.bot, after.bot) || !same(before.user, after.user) }
    }),
})

slackMethod(appsRouter, {
  name: 'apps.manifest.export',
  tokens: USER,
  args: z.object({ app_id: opt() }),
  handler: (c, a) => ({
    manifest: parseJson<Manifest>(ownApp(c.var.world.db, a.app_id, me(c)).manifest, {
      display_information: { name: '' },
    }),
  }),
})

slackMethod(appsRouter, {
  name: 'apps.manifest.delete',
  tokens: USER,
  args: z.object({ app_id: opt() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const row = ownApp(db, a.app_id, me(c))
      // Uninstalls too: the app's bot token stops working.
      if (row.bot_user) {
        const bot = userById(db, row.bot_user)
        if (bot)
          stmt(db, "UPDATE world_tokens SET revoked = 1 WHERE user_id = ? AND kind = 'slack_bot'").run(
            bot.world_user_id,
          )
        stmt(db, 'UPDATE slack_users SET deleted = 1 WHERE id = ?').run(row.bot_user)
      }
      stmt(db, 'DELETE FROM slack_apps WHERE id = ?').run(row.id)
      return {}
    }),
})

/** The user a code was issued to, or `invalid_code`. */
function codeUser(keys: WorldKeys, db: Db, app: App, code: string | undefined): UserRow {
  const m = /^A[A-Z0-9]+-(U[A-Z0-9]+)-[0-9a-f]{32}$/.exec(code ?? '')
  const user = m ? userById(db, m[1]!) : undefined
  if (!user || user.is_bot || user.deleted || !sameSecret(code, authCode(keys, app.id, user.id)))
    throw new SlackApiError('invalid_code')
  return user
}
/**
 * A `redirect_uri` given must be one the app's Redirect URLs allow (`redirectAllowed`).
 * Deviation: Slack also requires it to equal the one sent to /oauth/v2/authorize; codes here come from no authorize
 * step (they are derived per app and member), so only the app's settings are checked.
 */
function checkRedirect(app: App, uri: string | undefined) {
  const urls = app.manifest?.oauth_config?.redirect_urls
  if (uri !== undefined && urls && urls.length > 0 && !urls.some((u) => redirectAllowed(uri, u)))
    throw new SlackApiError('bad_redirect_uri')
}
const tokenRow = (db: Db, worldUserId: string, kind: string) =>
  stmt(db, 'SELECT key, scopes FROM world_tokens WHERE user_id = ? AND kind = ? AND revoked = 0').get(
    worldUserId,
    kind,
  ) as { key: string; scopes: string } | undefined

/** Installs a manifest app's bot user on first authorization. */
function installBot(db: Db, app: App): UserRow | undefined {
  if (app.botUser) return userById(db, app.botUser)
  const bot = app.manifest?.features?.bot_user
  if (!bot || !app.row) return undefined
  const wid = `bot-app-${app.id.toLowerCase()}`
  db.insert(worldUsers)
    .values({
      id: wid,
      email: `${wid}@bots.${teamDomain(db)}.test`,
      name: bot.display_name,
      givenName: bot.display_name,
      familyName: '',
      timeZone: 'UTC',
      tokenKey: wid,
    })
    .run()
  const id = slackId(db, 'U')
  stmt(
    db,
    'INSERT INTO slack_users (id, world_user_id, handle, is_bot, bot_id, display_name, updated) VALUES (?, ?, ?, 1, ?, ?, ?)',
  ).run(
    id,
    wid,
    bot.display_name.toLowerCase().replace(/[^a-z0-9._-]/g, '-'),
    `B${app.id.slice(1)}`,
    bot.display_name,
    nowSec(db),
  )
  issueTokenKey(db, wid, 'slack_bot', app.manifest?.oauth_config?.scopes?.bot ?? [])
  stmt(db, 'UPDATE slack_apps SET bot_user = ? WHERE id = ?').run(id, app.id)
  return userById(db, id)
}

const clientArgs = z.object({
  client_id: opt(),
  client_secret: opt(),
  code: opt(),
  redirect_uri: opt(),
  grant_type: opt(),
  refresh_token: opt(),
})

slackMethod(appsRouter, {
  name: 'oauth.v2.access',
  noAuth: true,
  args: clientArgs,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = checkClient(c.var.keys, db, a.client_id, a.client_secret)
      if (a.grant_type === 'refresh_token') return refreshGrant(c.var.keys, db, app, a.refresh_token)
      if (a.grant_type !== undefined && a.grant_type !== 'authorization_code')
        throw new SlackApiError('unsupported_grant_type')
      checkRedirect(app, a.redirect_uri)
      const user = codeUser(c.var.keys, db, app, a.code)
      const bot = installBot(db, app)
      const userToken = tokenRow(db, user.world_user_id, 'slack_user')
      const team = { id: teamId(db), name: teamName(db) }
      const out: Record<string, unknown> = { app_id: app.id }
      if (bot) {
        const t = tokenRow(db, bot.world_user_id, 'slack_bot')
        if (t)
          Object.assign(out, {
            access_token: c.var.keys.token('slack_bot', t.key),
            token_type: 'bot',
            scope: t.scopes,
            bot_user_id: bot.id,
          })
      }
      Object.assign(out, {
        authed_user: {
          id: user.id,
          ...(userToken
            ? {
                scope: userToken.scopes,
                access_token: c.var.keys.token('slack_user', userToken.key),
                token_type: 'user',
              }
            : {}),
        },
        team,
        enterprise: null,
        is_enterprise_install: false,
      })
      return out
    }),
})

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url')
slackMethod(appsRouter, {
  name: 'openid.connect.token',
  noAuth: true,
  args: clientArgs,
  handler: (c, a) => {
    const db = c.var.world.db
    const app = checkClient(c.var.keys, db, a.client_id, a.client_secret)
    if (a.grant_type !== undefined && a.grant_type !== 'authorization_code')
      throw new SlackApiError('unsupported_grant_type')
    checkRedirect(app, a.redirect_uri)
    const user = codeUser(c.var.keys, db, app, a.code)
    const token = tokenRow(db, user.world_user_id, 'slack_user')
    if (!token) throw new SlackApiError('invalid_code')
    const now = nowSec(db)
    // Deviation: the id_token is signed HS256 with the client secret (Slack signs RS256 with its published keys).
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'workspace-gym' }))
    const payload = b64url(
      JSON.stringify({
        iss: 'https://slack.com',
        aud: a.client_id,
        iat: now,
        exp: now + 3600,
        auth_time: now,
        ...claims(db, user),
      }),
    )
    const sig = createHmac('sha256', credentials(c.var.keys, db, app.id).client_secret)
      .update(`${header}.${payload}`)
      .digest('base64url')
    return {
      access_token: c.var.keys.token('slack_user', token.key),
      token_type: 'Bearer',
      id_token: `${header}.${payload}.${sig}`,
    }
  },
})

/** OpenID claims about a member. */
function claims(db: Db, u: UserRow) {
  const w = worldUserOf(db, u)
  const profile = userWire(db, u).profile as Record<string, string>
  return {
    sub: u.id,
    'https://slack.com/user_id': u.id,
    'https://slack.com/team_id': teamId(db),
    email: w?.email ?? '',
    email_verified: true,
    date_email_verified: u.updated,
    name: w?.name ?? u.handle,
    picture: profile.image_512,
    given_name: w?.givenName ?? '',
    family_name: w?.familyName ?? '',
    locale: 'en-US',
    'https://slack.com/team_name': teamName(db),
    'https://slack.com/team_domain': teamDomain(db),
    'https://slack.com/user_image_24': profile.image_24,
    'https://slack.com/user_image_192': profile.image_192,
    'https://slack.com/user_image_512': profile.image_512,
  }
}

slackMethod(appsRouter, {
  name: 'openid.connect.userInfo',
  scopes: { user: ['openid'] },
  tokens: USER,
  args: z.object({}).passthrough(),
  handler: (c) => claims(c.var.world.db, me(c)),
})

// Deviation: no RTM websocket is served; the URL has Slack's shape and is stable per world and caller.
slackMethod(appsRouter, {
  name: 'rtm.connect',
  args: z.object({ batch_presence_aware: slackBool().optional(), presence_sub: slackBool().optional() }),
  handler: (c) => {
    const db = c.var.world.db
    const u = me(c)
    const hex = createHash('sha256')
      .update(`rtm:${teamId(db)}:${u.id}`)
      .digest('hex')
      .slice(0, 32)
    return {
      url: `wss://wss-primary.slack.com/websocket/${hex}`,
      team: { id: teamId(db), name: teamName(db), domain: teamDomain(db) },
      self: { id: u.id, name: u.handle },
    }
  },
})

slackMethod(appsRouter, {
  name: 'auth.teams.list',
  args: z.object({ cursor: opt(), limit: slackInt().optional(), include_icon: slackBool().optional() }),
  handler: (c, a) => {
    const db = c.var.world.db
    me(c)
    const team: Record<string, unknown> = { id: teamId(db), name: teamName(db) }
    if (a.include_icon)
      team.icon = { image_default: true, image_34: 'https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-34.png' }
    return { teams: [team], response_metadata: { next_cursor: '' } }
  },
})

// apps.uninstall: the app removes itself from the workspace; its bot token and the calling token stop working.
slackMethod(appsRouter, {
  name: 'apps.uninstall',
  args: z.object({ client_id: opt(), client_secret: opt() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = checkClient(c.var.keys, db, a.client_id, a.client_secret)
      const caller = me(c)
      const bot = app.botUser ? userById(db, app.botUser) : undefined
      // Only a token of this app (its bot, or the member who installed it) may uninstall it.
      if (caller.is_bot && caller.id !== bot?.id) throw new SlackApiError('invalid_client_id')
      if (bot) {
        stmt(db, "UPDATE world_tokens SET revoked = 1 WHERE user_id = ? AND kind = 'slack_bot'").run(bot.world_user_id)
        stmt(db, 'UPDATE slack_users SET deleted = 1, updated = ? WHERE id = ?').run(nowSec(db), bot.id)
      }
      if (app.row) stmt(db, 'UPDATE slack_apps SET bot_user = NULL WHERE id = ?').run(app.id)
      return {}
    }),
})

// Token rotation. Deviation: world tokens never expire; exchange keeps the same access token, reports
// Slack's 12-hour `expires_in`, and hands out a deterministic refresh token (`xoxe-1-<hex>`) that
// oauth.v2.access (grant_type=refresh_token) trades back for that token.
const refreshFor = (keys: WorldKeys, key: string) => `xoxe-1-${keys.derive(`slack-refresh\u0000${key}`, 48)}`
const tokensOfApp = (db: Db, app: App, userOk: boolean) => {
  const rows = stmt(db, 'SELECT key, user_id, kind, scopes FROM world_tokens WHERE revoked = 0').all() as {
    key: string
    user_id: string
    kind: 'slack_user' | 'slack_bot'
    scopes: string
  }[]
  const bot = app.botUser ? userById(db, app.botUser) : undefined
  return rows.filter(
    (r) => (r.kind === 'slack_bot' && bot && r.user_id === bot.world_user_id) || (userOk && r.kind === 'slack_user'),
  )
}
function rotated(
  keys: WorldKeys,
  db: Db,
  t: { key: string; user_id: string; kind: 'slack_user' | 'slack_bot'; scopes: string },
) {
  const u = stmt(db, 'SELECT id FROM slack_users WHERE world_user_id = ?').get(t.user_id) as { id: string } | undefined
  return {
    access_token: keys.token(t.kind, t.key),
    token_type: t.kind === 'slack_bot' ? 'bot' : 'user',
    scope: t.scopes,
    expires_in: 43200,
    refresh_token: refreshFor(keys, t.key),
    ...(t.kind === 'slack_bot' ? { bot_user_id: u?.id } : { user_id: u?.id }),
    team: { id: teamId(db), name: teamName(db) },
    enterprise: null,
    is_enterprise_install: false,
  }
}
function refreshGrant(keys: WorldKeys, db: Db, app: App, refresh: string | undefined) {
  const t = tokensOfApp(db, app, true).find((r) => sameSecret(refresh, refreshFor(keys, r.key)))
  if (!t) throw new SlackApiError('invalid_refresh_token')
  return { app_id: app.id, ...rotated(keys, db, t) }
}

slackMethod(appsRouter, {
  name: 'oauth.v2.exchange',
  noAuth: true,
  args: z.object({ client_id: opt(), client_secret: opt(), token: opt() }),
  handler: (c, a) => {
    const db = c.var.world.db
    const app = checkClient(c.var.keys, db, a.client_id, a.client_secret)
    const key = c.var.keys.check(a.token ?? '')?.key
    const t = key ? tokensOfApp(db, app, true).find((r) => r.key === key) : undefined
    if (!t) throw new SlackApiError('invalid_token')
    return { app_id: app.id, ...rotated(c.var.keys, db, t) }
  },
})
