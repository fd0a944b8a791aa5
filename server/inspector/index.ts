import { Hono, type Context } from 'hono'
import { advanceClock, nowMs } from '../../envs/core/clock.ts'
import { findUserById } from '../../envs/core/users.ts'
import type { WorldUserRow } from '../../envs/core/world-tables.ts'
import type { Gym } from '../../gym/index.ts'
import { services } from '../registry.ts'
import { SeedError } from '../seeding.ts'
import { WorldConflict, WorldNotFound, type WorldEntry, type WorldManager } from '../worlds.ts'
import { clearSessionCookie, isSignedIn, sameOrigin, sameSecret, setSessionCookie } from './auth.ts'
import { h, href, page, type Crumb, type Raw } from './html.ts'
import { CSS, JS } from './static.ts'
import { calendarView } from './views/calendar.ts'
import { docsView, driveFileView, driveView } from './views/drive.ts'
import { episodesTable, episodeView, tasksView } from './views/episodes.ts'
import { gmailThreadView, gmailView } from './views/gmail.ts'
import { slackView } from './views/slack.ts'
import { SERVICES, worldsTable, worldView } from './views/worlds.ts'

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
    "img-src 'self' data:; frame-src 'self' about:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin', // no-referrer would make form posts send `Origin: null`
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
}
const SNAPSHOT_NAME = /^[A-Za-z0-9_.-]{1,100}$/

class NotFound extends Error {}
class BadInput extends Error {}

function loginPage(error = ''): string {
  return h`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · workspace-gym inspector</title>
<link rel="stylesheet" href="/ui/static/app.css"></head><body><form class="login" method="post" action="/ui/login">
<h1>workspace-gym inspector</h1><p class="muted">Sign in with the control plane's admin token.</p>
${error ? h`<p class="bad">${error}</p>` : ''}
<p><input type="password" name="token" autocomplete="current-password" size="36" autofocus></p><button>Sign
  in</button></form></body></html>`.html
}

/**
 * The web inspector, mounted at `/ui` on the control listener. Pages are rendered on the server from the world's
 * tables and the gym's episodes; viewing never goes through agent routes, so it never ticks a clock, marks mail
 * read or writes the action log. The few POST forms (create, fork, snapshot, restore, clock, open task) are the
 * control plane's own operations.
 */
export function inspectorRouter(worlds: WorldManager, gym: Gym, opts: { adminToken: string }): Hono {
  const app = new Hono()
  const send = (c: Context, title: string, crumbs: Crumb[], body: Raw, status: 200 | 400 | 404 = 200) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v)
    return c.html(page(title, [{ label: 'Worlds', href: '/ui' }, ...crumbs], body), status)
  }

  const asset = (type: string) => ({ 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache' })
  app.get('/static/app.css', (c) => c.body(CSS, 200, asset('text/css')))
  app.get('/static/app.js', (c) => c.body(JS, 200, asset('text/javascript')))
  app.get('/login', (c) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v)
    return c.html(loginPage())
  })
  app.post('/login', async (c) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v)
    if (!sameOrigin(c)) return c.html(loginPage('Cross-site sign-in refused.'), 403)
    const form = await c.req.parseBody()
    const token = typeof form.token === 'string' ? form.token : ''
    if (!sameSecret(token, opts.adminToken)) return c.html(loginPage('Wrong token.'), 401)
    setSessionCookie(c, opts.adminToken)
    return c.redirect('/ui', 303)
  })
  app.post('/logout', (c) => {
    clearSessionCookie(c)
    return c.redirect('/ui/login', 303)
  })

  app.use('*', async (c, next) => {
    if (!isSignedIn(c, opts.adminToken)) {
      if (c.req.method === 'GET') return c.redirect('/ui/login', 303)
      return c.text('sign in first', 401)
    }
    if (c.req.method !== 'GET' && !sameOrigin(c)) return c.text('cross-site request refused', 403)
    return next()
  })

  app.onError((err, c) => {
    if (err instanceof NotFound || err instanceof WorldNotFound) {
      return send(c, 'Not found', [], h`<p class="bad">${err.message}</p>`, 404)
    }
    if (err instanceof BadInput || err instanceof WorldConflict || err instanceof SeedError) {
      return send(c, 'Refused', [], h`<p class="bad">${err.message}</p>`, 400)
    }
    console.error('inspector error', err)
    return c.text('internal error', 500)
  })

  const world = (c: Context): WorldEntry => worlds.get(c.req.param('id')!)
  const user = (e: WorldEntry, c: Context): WorldUserRow => {
    const u = findUserById(e.world.db, c.req.param('user')!)
    if (!u) throw new NotFound(`world "${e.id}" has no user "${c.req.param('user')}"`)
    return u
  }
  const form = async (c: Context) => {
    const body = await c.req.parseBody()
    return (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : '')
  }
  const userCrumbs = (e: WorldEntry, u: WorldUserRow, svc: string): Crumb[] => [
    { label: e.id, href: href('worlds', e.id) },
    { label: u.email },
    ...SERVICES.map((s) => ({ label: s === svc ? `[${s}]` : s, href: href('worlds', e.id, 'u', u.id, s) })),
  ]

  app.get('/', (c) => {
    const epIds = new Set(gym.episodes.keys())
    return send(c, 'Worlds', [], h`<h1>Worlds</h1>${worldsTable(worlds, epIds)}<h2>Episodes</h2>${episodesTable(gym)}`)
  })
  app.post('/worlds', async (c) => {
    const f = await form(c)
    const seedValue = f('seedValue') ? Number(f('seedValue')) : 1
    if (!Number.isInteger(seedValue)) throw new BadInput('seed value must be an integer')
    const e = worlds.create({ seed: f('seed') || 'demo', seedValue, ...(f('id') ? { id: f('id') } : {}) })
    return c.redirect(href('worlds', e.id), 303)
  })
  app.get('/worlds/:id', (c) => {
    const e = world(c)
    return send(c, e.id, [{ label: e.id }], worldView(e))
  })
  app.post('/worlds/:id/fork', async (c) => {
    const f = await form(c)
    const e = worlds.fork(world(c).id, f('id') || undefined)
    return c.redirect(href('worlds', e.id), 303)
  })
  app.post('/worlds/:id/snapshots', async (c) => {
    const name = (await form(c))('name') || 'default'
    if (!SNAPSHOT_NAME.test(name) || name === 'baseline') {
      throw new BadInput(`snapshot name must match ${SNAPSHOT_NAME} and not be "baseline"`)
    }
    worlds.snapshot(world(c).id, name)
    return c.redirect(href('worlds', c.req.param('id')), 303)
  })
  app.post('/worlds/:id/restore', async (c) => {
    worlds.restore(world(c).id, (await form(c))('name') || 'baseline')
    return c.redirect(href('worlds', c.req.param('id')), 303)
  })
  app.post('/worlds/:id/clock', async (c) => {
    const ms = Number((await form(c))('advance'))
    const valid = Number.isInteger(ms) && ms > 0 && ms <= 366 * 86_400_000
    if (!valid) throw new BadInput('advance must be 1 ms to 366 days')
    const e = world(c)
    const from = nowMs(e.world.db)
    e.world.tx((db) => {
      advanceClock(db, ms)
      for (const svc of services) svc.onClockAdvance?.(e.world, from, from + ms)
    })
    return c.redirect(href('worlds', e.id), 303)
  })

  app.get('/worlds/:id/u/:user/gmail', (c) => {
    const e = world(c)
    const u = user(e, c)
    const body = gmailView(e.world, e.id, u, c.req.query('q') ?? '', c.req.query('label') ?? '')
    return send(c, `Gmail · ${u.email}`, userCrumbs(e, u, 'gmail'), body)
  })
  app.get('/worlds/:id/u/:user/gmail/t/:thread', (c) => {
    const e = world(c)
    const u = user(e, c)
    const body = gmailThreadView(e.world, e.id, u, c.req.param('thread'))
    if (!body) throw new NotFound(`no thread "${c.req.param('thread')}" in ${u.email}'s mailbox`)
    return send(c, `Thread · ${u.email}`, userCrumbs(e, u, 'gmail'), body)
  })
  app.get('/worlds/:id/u/:user/calendar', (c) => {
    const e = world(c)
    const u = user(e, c)
    const body = calendarView(e.world, e.id, u, c.req.query('week'))
    return send(c, `Calendar · ${u.email}`, userCrumbs(e, u, 'calendar'), body)
  })
  app.get('/worlds/:id/u/:user/drive', (c) => {
    const e = world(c)
    const u = user(e, c)
    return send(c, `Drive · ${u.email}`, userCrumbs(e, u, 'drive'), driveView(e.world, e.id, u))
  })
  app.get('/worlds/:id/u/:user/drive/f/:file', (c) => {
    const e = world(c)
    const u = user(e, c)
    const body = driveFileView(e.world, e.id, u, c.req.param('file'))
    if (!body) throw new NotFound(`no file "${c.req.param('file')}"`)
    return send(c, `Drive · ${u.email}`, userCrumbs(e, u, 'drive'), body)
  })
  app.get('/worlds/:id/u/:user/docs', (c) => {
    const e = world(c)
    const u = user(e, c)
    return send(c, `Docs · ${u.email}`, userCrumbs(e, u, 'docs'), docsView(e.world, e.id, u))
  })
  app.get('/worlds/:id/u/:user/slack', (c) => {
    const e = world(c)
    const u = user(e, c)
    const body = slackView(e.world, e.id, u, c.req.query('channel') ?? '')
    return send(c, `Slack · ${u.email}`, userCrumbs(e, u, 'slack'), body)
  })

  app.get('/episodes/:ep', (c) => {
    const ep = gym.get(c.req.param('ep'))
    if (!ep) throw new NotFound(`no episode "${c.req.param('ep')}" (closed episodes are gone with their world)`)
    return send(c, `Episode ${ep.id}`, [{ label: `episode ${ep.id}` }], episodeView(ep))
  })
  app.get('/tasks', (c) => send(c, 'Tasks', [{ label: 'tasks' }], tasksView(gym, c.req.query('family') ?? '')))
  app.post('/tasks/:task/open', (c) => {
    const task = gym.tasks.get(c.req.param('task'))
    if (!task) throw new NotFound(`no task "${c.req.param('task')}"`)
    return c.redirect(href('episodes', gym.reset(task).id), 303)
  })
  return app
}
