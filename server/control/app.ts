import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { snapshotMemory } from '../../envs/core/snapshot-memory.ts'
import { clientSecret, listClients, redirectUrisOf } from '../../envs/identity/store/oauth.ts'
import { timingSafeEqual } from 'node:crypto'
import type { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { bodyLimit } from 'hono/body-limit'
import { asc, gt } from 'drizzle-orm'
import { advanceClock, nowMs, setClock, setTick, setTickLimit, tickLimit, tickMs } from '../../envs/core/clock.ts'
import { diffStates } from '../../envs/core/diff.ts'
import { worldActionLog } from '../../envs/core/world-tables.ts'
import { World, WorldLostWrites } from '../../envs/core/world.ts'
import { services } from '../registry.ts'
import { loadRouters } from '../routers.ts'
import { SeedError } from '../seeding.ts'
import { worldState } from '../state.ts'
import { WorldConflict, WorldNotFound, WorldRefused, type WorldEntry, type WorldManager } from '../worlds.ts'
import type { OpenEnvKeys } from '../../gym/openenv-ws.ts'
import type { Gym } from '../../gym/index.ts'
import { createAgentApp, LIMITS, nestedDeeperThan } from '../app.ts'
import { VERSION } from '../app.ts'
import { MountableRouter } from '../lazy-mount.ts'
import * as s from './schemas.ts'
import { rateLimitRoutes } from './rate-limits.ts'

const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
const errors = { 400: json(s.ErrorBody, 'Bad request'), 404: json(s.ErrorBody, 'No such world or snapshot') }

/** Control paths that never reach the gym (world lifecycle, health, process figures): served without loading it. */
const WITHOUT_GYM = /^\/(healthz|health|stats|worlds(\/.*)?)$/

/** The gym of a control plane and the OpenEnv keys that open it. */
export type GymSide = { gym: Gym; openenvKeys: OpenEnvKeys }

/** Everything about one world the control plane reports. */
export function describeWorld(worlds: WorldManager, entry: WorldEntry) {
  return {
    id: entry.id,
    seed: entry.seedName,
    seedValue: entry.seedValue,
    clock: new Date(nowMs(entry.world.db)).toISOString(),
    tickMs: tickMs(entry.world.db),
    snapshots: [...entry.snapshots.keys()],
    users: worlds.credentials(entry.id),
    bots: worlds.botTokens(entry.id),
    oauthClients: listClients(entry.world.db).map((cl) => ({
      clientId: cl.clientId,
      clientSecret: clientSecret(entry.keys, cl.clientId),
      name: cl.name,
      redirectUris: redirectUrisOf(cl),
    })),
  }
}

/** One line of `GET /worlds`: no users, no tokens. */
export function summarizeWorld(entry: WorldEntry) {
  return {
    id: entry.id,
    seed: entry.seedName,
    seedValue: entry.seedValue,
    clock: new Date(nowMs(entry.world.db)).toISOString(),
    snapshots: [...entry.snapshots.keys()],
  }
}

/**
 * The control plane: world lifecycle, snapshots, clock, state, diff and action log (plus the gym).
 * It listens on its own port and accepts only the admin token; agent tokens are refused.
 */
export function createControlApp(
  worlds: WorldManager,
  opts: {
    adminToken: string
    agentBaseUrl?: string
    gym?: Gym
    openenvKeys?: OpenEnvKeys
    /** Creates the gym on first use (a server passes the one its agent listener shares); default: a new one. */
    loadGym?: () => Promise<GymSide>
  },
) {
  const router = new MountableRouter<any>()
  const app = new OpenAPIHono({
    router,
    defaultHook: (result, c) => {
      if (result.success) return undefined
      return c.json(
        { error: result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') },
        400,
      )
    },
  })
  const expected = Buffer.from(opts.adminToken)

  // Bodies are bounded before any route reads them (the OpenEnv key routes too, which answer before the admin check):
  // at most 64 MiB, and JSON (any body but the inspector's forms) nested at most LIMITS.messageDepth levels, so no
  // parser, validator or error echo recurses through an agent's nesting into a 500.
  app.use(
    '*',
    bodyLimit({
      maxSize: LIMITS.uploadBytes,
      onError: (c) =>
        c.json({ error: `request body exceeds ${LIMITS.uploadBytes} bytes`, reason: 'body_too_large' }, 413),
    }),
  )
  app.use('*', async (c, next) => {
    if (
      !c.req.raw.body ||
      /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header('content-type') ?? '')
    )
      return next()
    const text = await c.req.text()
    if (nestedDeeperThan(text, LIMITS.messageDepth)) {
      return c.json({ error: `JSON nested deeper than ${LIMITS.messageDepth} levels`, reason: 'json_depth' }, 400)
    }
    // The text is kept for the routes' parsers; the OpenEnv key routes pass the raw request on, so it gets it back.
    c.req.raw = new Request(c.req.raw, { body: text })
    return next()
  })

  app.get('/healthz', (c) => c.json({ ok: true }))
  // OpenEnv launchers poll /health; `/openenv/<key>/…` carries its own credential (a per-environment key).
  app.get('/health', (c) => c.json({ status: 'healthy' }))
  // Slot 1 (OpenEnv's key-gated routes, in front of the admin check), 3 (gym) and 4 (inspector) are mounted with
  // the gym, on the first request that can reach them (mountGymOnFirstUse below).
  router.slot = 2
  app.use('*', async (c, next) => {
    // The inspector (/ui) signs browsers in with a cookie and checks it itself.
    if (c.req.path === '/healthz' || c.req.path === '/health' || c.req.path === '/ui' || c.req.path.startsWith('/ui/'))
      return next()
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')
    const given = Buffer.from(m?.[1] ?? c.req.header('x-admin-token') ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return c.json({ error: 'admin token required' }, 401)
    return next()
  })

  // Process figures for operators: worlds, named snapshots, the snapshot images still in memory, the connections kept
  // for gym episodes, and memory.
  app.get('/stats', (c) => {
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage()
    return c.json({
      worlds: worlds.size,
      snapshots: worlds.snapshotStats(),
      snapshotImages: snapshotMemory(),
      episodeConnections: worlds.connectionStats(),
      memory: { rss, heapUsed, external, arrayBuffers },
    })
  })

  // An unknown path answers JSON like every other refusal here (Hono's default is a plain-text body).
  app.notFound((c) => c.json({ error: `no control-plane route ${c.req.method} ${c.req.path}` }, 404))

  app.onError((err, c) => {
    if (err instanceof WorldNotFound) return c.json({ error: err.message }, 404)
    if (err instanceof WorldConflict) return c.json({ error: err.message }, 409)
    if (err instanceof SeedError) return c.json({ error: err.message, issues: err.issues }, 400)
    if (err instanceof WorldRefused) return c.json({ error: err.message, reason: err.reason }, err.status)
    // A batched world that lost answered writes (docs/decisions/0419): nothing is read from it until it is restored.
    if (err instanceof WorldLostWrites) return c.json({ error: err.message, reason: 'lost_writes' }, 409)
    // The JSON validator's own refusals (an empty or malformed body: "Malformed JSON in request body").
    if (err instanceof HTTPException && err.status < 500) return c.json({ error: err.message }, err.status)
    // SQLite or V8 running out of memory for one request: refuse it, keep serving every other world.
    if (
      /out of memory|SQLITE_NOMEM|allocation failed/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`)
    ) {
      return c.json({ error: `out of memory: ${err.message}`, reason: 'memory' }, 507)
    }
    console.error('control error', err)
    return c.json({ error: 'internal error' }, 500)
  })

  app.openapi(
    createRoute({
      operationId: 'worlds.create',
      method: 'post',
      path: '/worlds',
      request: { body: { content: { 'application/json': { schema: s.CreateWorldBody } } } },
      responses: { 201: json(s.WorldInfo, 'Created'), ...errors, 409: json(s.ErrorBody, 'Id taken') },
    }),
    (c) => {
      const body = c.req.valid('json')
      const entry = worlds.create({
        id: body.id,
        seed: body.seed as string | Record<string, unknown>,
        seedValue: body.seedValue,
      })
      return c.json(describeWorld(worlds, entry), 201)
    },
  )
  // Pages of summaries without tokens: a world's users and tokens are at GET /worlds/{id}.
  app.openapi(
    createRoute({
      operationId: 'worlds.list',
      method: 'get',
      path: '/worlds',
      request: { query: s.ListQuery },
      responses: { 200: json(s.WorldPage) },
    }),
    (c) => {
      const { pageSize, pageToken } = c.req.valid('query')
      const all = worlds.list().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      const page = all.filter((e) => !pageToken || e.id > pageToken).slice(0, pageSize)
      const more = page.length === pageSize && all.some((e) => e.id > page[page.length - 1]!.id)
      return c.json(
        {
          worlds: page.map(summarizeWorld),
          total: all.length,
          ...(more ? { nextPageToken: page[page.length - 1]!.id } : {}),
        },
        200,
      )
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.get',
      method: 'get',
      path: '/worlds/{id}',
      request: { params: s.WorldIdParam },
      responses: { 200: json(s.WorldInfo), ...errors },
    }),
    (c) => c.json(describeWorld(worlds, worlds.get(c.req.valid('param').id)), 200),
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.delete',
      method: 'delete',
      path: '/worlds/{id}',
      request: { params: s.WorldIdParam },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    (c) => {
      worlds.delete(c.req.valid('param').id)
      return c.body(null, 204)
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.snapshot',
      method: 'post',
      path: '/worlds/{id}/snapshots',
      request: { params: s.WorldIdParam, body: { content: { 'application/json': { schema: s.SnapshotBody } } } },
      responses: { 201: json(z.object({ name: z.string(), bytes: z.number() }), 'Taken'), ...errors },
    }),
    (c) => {
      const { name } = c.req.valid('json')
      const snap = worlds.snapshot(c.req.valid('param').id, name)
      return c.json({ name, bytes: snap.bytes.length }, 201)
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.snapshots.delete',
      method: 'delete',
      path: '/worlds/{id}/snapshots/{name}',
      request: { params: s.SnapshotParam },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    (c) => {
      const { id, name } = c.req.valid('param')
      worlds.deleteSnapshot(id, name)
      return c.body(null, 204)
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.restore',
      method: 'post',
      path: '/worlds/{id}/restore',
      request: { params: s.WorldIdParam, body: { content: { 'application/json': { schema: s.RestoreBody } } } },
      responses: { 200: json(s.WorldInfo), ...errors },
    }),
    (c) => {
      const { id } = c.req.valid('param')
      worlds.restore(id, c.req.valid('json').name)
      return c.json(describeWorld(worlds, worlds.get(id)), 200)
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.fork',
      method: 'post',
      path: '/worlds/{id}/fork',
      request: { params: s.WorldIdParam, body: { content: { 'application/json': { schema: s.ForkBody } } } },
      responses: { 201: json(s.WorldInfo, 'Forked'), ...errors, 409: json(s.ErrorBody, 'Id taken') },
    }),
    (c) => c.json(describeWorld(worlds, worlds.fork(c.req.valid('param').id, c.req.valid('json').id)), 201),
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.clock',
      method: 'post',
      path: '/worlds/{id}/clock',
      request: { params: s.WorldIdParam, body: { content: { 'application/json': { schema: s.ClockBody } } } },
      responses: { 200: json(s.ClockInfo), ...errors },
    }),
    (c) => {
      const { world } = worlds.get(c.req.valid('param').id)
      const body = c.req.valid('json')
      const from = nowMs(world.db)
      // `now`: the host's wall clock, read here by the control plane (services never read it; decision 0399).
      const target = body.set === 'now' ? Date.now() : body.set ? Date.parse(body.set) : from + (body.advanceMs ?? 0)
      if (target < from) {
        const behind = body.set === 'now' ? ` (the world is ${from - target} ms ahead of the host's clock)` : ''
        return c.json({ error: `the clock never moves backwards${behind}` }, 400)
      }
      world.tx((db) => {
        if (body.tickMs !== undefined) setTick(db, body.tickMs)
        if (body.tickLimitMs !== undefined) setTickLimit(db, body.tickLimitMs ?? undefined)
        if (target > from) {
          if (body.set) setClock(db, target)
          else advanceClock(db, target - from)
          for (const svc of services) svc.onClockAdvance?.(world, from, target)
        }
      })
      const now = nowMs(world.db)
      const cap = tickLimit(world.db)
      return c.json(
        {
          clock: new Date(now).toISOString(),
          clockMs: now,
          tickMs: tickMs(world.db),
          tickLimitMs: cap?.limitMs ?? null,
          tickedMs: cap?.usedMs ?? null,
        },
        200,
      )
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.state',
      method: 'get',
      path: '/worlds/{id}/state',
      request: { params: s.WorldIdParam },
      responses: {
        200: json(
          z.record(z.string(), z.unknown()),
          "World state (version 1): users, clock, and each service's documented dump",
        ),
        ...errors,
      },
    }),
    (c) => c.json(worldState(worlds.get(c.req.valid('param').id).world) as unknown as Record<string, unknown>, 200),
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.diff',
      method: 'get',
      path: '/worlds/{id}/diff',
      request: { params: s.WorldIdParam, query: s.DiffQuery },
      responses: {
        200: json(
          z.object({ against: z.string(), changes: z.array(z.record(z.string(), z.unknown())) }),
          'Entity changes since the baseline or a snapshot',
        ),
        ...errors,
      },
    }),
    (c) => {
      const entry = worlds.get(c.req.valid('param').id)
      const { against } = c.req.valid('query')
      const snap = against === 'baseline' ? entry.baseline : entry.snapshots.get(against)
      if (!snap) throw new WorldNotFound(`world "${entry.id}" has no snapshot "${against}"`)
      const base = World.from(snap)
      try {
        return c.json(
          {
            against,
            changes: diffStates(worldState(base), worldState(entry.world)) as unknown as Record<string, unknown>[],
          },
          200,
        )
      } finally {
        base.close()
      }
    },
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.actions',
      method: 'get',
      path: '/worlds/{id}/actions',
      request: { params: s.WorldIdParam, query: s.LogQuery },
      responses: {
        200: json(z.object({ actions: z.array(z.record(z.string(), z.unknown())) }), 'Agent calls in order'),
        ...errors,
      },
    }),
    (c) => {
      const { world } = worlds.get(c.req.valid('param').id)
      const { since, limit } = c.req.valid('query')
      const rows = world.db
        .select()
        .from(worldActionLog)
        .where(gt(worldActionLog.seq, since))
        .orderBy(asc(worldActionLog.seq))
        .limit(limit)
        .all()
      return c.json({ actions: rows.map((r) => ({ ...r, at: new Date(r.atMs).toISOString() })) }, 200)
    },
  )

  rateLimitRoutes(app, worlds)
  router.slot = 5
  app.doc31('/openapi.json', { openapi: '3.1.0', info: { title: 'workspace-gym control plane', version: VERSION } })
  router.slot = 0

  const loadGym =
    opts.loadGym ??
    (async (): Promise<GymSide> => {
      const [{ createGym }, { OpenEnvKeys }] = await Promise.all([
        import('../../gym/index.ts'),
        import('../../gym/openenv-ws.ts'),
      ])
      const gym = opts.gym ?? createGym({ worlds, app: createAgentApp(worlds) })
      return { gym, openenvKeys: opts.openenvKeys ?? new OpenEnvKeys(gym) }
    })
  mountGymOnFirstUse(app, router, async () => {
    const [side, { gymRouter, openEnvKeyRouter }, { inspectorRouter }] = await Promise.all([
      loadGym(),
      import('../../gym/http.ts'),
      import('../inspector/index.ts'),
      loadRouters(),
    ])
    return [
      [1, '/', openEnvKeyRouter(side.openenvKeys)],
      [3, '/', gymRouter(worlds, { agentBaseUrl: opts.agentBaseUrl, gym: side.gym, openenvKeys: side.openenvKeys })],
      [4, '/ui', inspectorRouter(worlds, side.gym, { adminToken: opts.adminToken })],
    ]
  })
  return app
}

/**
 * The gym, OpenEnv and the inspector (and the services' routes they read: typed tools, coverage) are imported on
 * the first control request other than world lifecycle, health and process figures, and mounted before it is
 * dispatched (docs/decisions/0293). The OpenAPI document is such a request, so it lists every route.
 */
function mountGymOnFirstUse(
  app: OpenAPIHono,
  router: MountableRouter<any>,
  load: () => Promise<[slot: number, path: string, sub: OpenAPIHono<any> | Hono<any>][]>,
) {
  let mounting: Promise<void> | undefined
  let mounted = false
  const mount = () =>
    (mounting ??= load().then(
      (subs) => {
        for (const [slot, path, sub] of subs) {
          router.slot = slot
          app.route(path, sub as never)
        }
        router.slot = 0
        mounted = true
      },
      (e) => {
        mounting = undefined
        throw e
      },
    ))
  const dispatch = app.fetch
  app.fetch = (req: Request, env?: unknown, ctx?: unknown) => {
    if (mounted || WITHOUT_GYM.test(new URL(req.url).pathname)) return dispatch(req, env as never, ctx as never)
    return mount().then(() => dispatch(req, env as never, ctx as never))
  }
}
