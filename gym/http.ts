import { OpenAPIHono } from '@hono/zod-openapi'
import { familyById, instance } from '../tasks-lite/corpus.ts'
import { Hono } from 'hono'
import type { Context } from 'hono'
import { createAgentApp } from '../server/app.ts'
import { createGym, EpisodeRefused, ProfileRefused, type Gym } from './index.ts'
import { WorldRefused, type WorldManager } from '../server/worlds.ts'
import type { Episode } from './episode.ts'
import { publicTask, TaskSpec } from './task.ts'
import { describeEpisode } from './observation.ts'
import { mcpHandler } from './mcp.ts'
import { parseAction } from './actions.ts'
import { OpenEnv, openEnvApp, type OpenEnvScope } from './openenv.ts'
import { OpenEnvKeys } from './openenv-ws.ts'
import { formatTools, TOOL_FORMATS, type ToolFormat } from './tool-formats.ts'

export { parseAction } from './actions.ts'
export { describeEpisode, initialObservation } from './observation.ts'

type Opts = { agentBaseUrl?: string; gym?: Gym; openenvKeys?: OpenEnvKeys }

async function body(c: Context): Promise<Record<string, unknown>> {
  try {
    const b = await c.req.json()
    return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Highest instance seed `reset({family, seed})` generates. */
const MAX_INSTANCE_SEED = 1_000_000

/** Gym routes on the control listener (`/gym/*` and OpenEnv's contract at the root), behind the admin token. */
export function gymRouter(worlds: WorldManager, opts: Opts = {}): OpenAPIHono<any> {
  const gym = opts.gym ?? createGym({ worlds, app: createAgentApp(worlds) })
  const base = (opts.agentBaseUrl ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
  const app = new OpenAPIHono<any>()

  const reset = async (c: Context) => {
    const b = await body(c)
    const taskId = (b.taskId ?? b.task_id) as string | undefined
    let task: TaskSpec | undefined
    if (b.task) {
      const parsed = TaskSpec.safeParse(b.task)
      if (!parsed.success)
        return {
          error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          status: 400 as const,
        }
      task = parsed.data
    } else if (typeof b.family === 'string') {
      // `{family, seed}`: any instance of a family, generated on demand (the corpus holds seeds 1..PER_FAMILY).
      const f = familyById(b.family)
      if (!f) return { error: `unknown family "${b.family}"`, status: 404 as const }
      const n = b.seed ?? 1
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_INSTANCE_SEED) {
        return { error: `seed: an integer from 1 to ${MAX_INSTANCE_SEED}`, status: 400 as const }
      }
      task = gym.tasks.get(`${f.id}-${n}`) ?? instance(f, n)
    } else if (taskId) task = gym.tasks.get(taskId)
    else task = gym.tasks.values().next().value
    if (!task) return { error: `unknown task "${taskId}"`, status: 404 as const }
    if (b.toolProfile === 'rest' || b.toolProfile === 'typed') task = { ...task, toolProfile: b.toolProfile }
    // With `family`, `seed` picked the instance; otherwise it overrides the world's seed value.
    const seed = typeof b.seed === 'number' && typeof b.family !== 'string' ? b.seed : undefined
    let ep: Episode
    try {
      ep = gym.reset(task, { seed })
    } catch (e) {
      if (e instanceof EpisodeRefused || e instanceof WorldRefused || e instanceof ProfileRefused) {
        return { error: e.message, reason: e.reason, status: e.status }
      }
      throw e
    }
    return { ep }
  }
  const episode = (id: string | undefined) => (id ? gym.get(id) : undefined)
  const gone = (c: Context) =>
    gym.expired(c.req.param('id') ?? '')
      ? c.json({ error: 'episode expired', reason: 'expired' }, 410)
      : c.json({ error: 'no such episode' }, 404)
  // Idle and over-age episodes are reaped on each reset and once a minute (the timer never keeps the process alive).
  setInterval(() => gym.reap(), 60_000).unref()

  app.get('/gym/tasks', (c) => {
    const family = c.req.query('family')
    return c.json({ tasks: [...gym.tasks.values()].filter((t) => !family || t.family === family).map(publicTask) })
  })
  app.post('/gym/reset', async (c) => {
    const r = await reset(c)
    if (!r.ep) return c.json({ error: r.error, ...('reason' in r ? { reason: r.reason } : {}) }, r.status)
    return c.json(describeEpisode(r.ep, base), 201)
  })
  app.get('/gym/episodes', (c) =>
    c.json({
      episodes: [...gym.episodes.values()].map((e) => ({ episodeId: e.id, taskId: e.task.id, steps: e.steps })),
    }),
  )
  app.get('/gym/episodes/:id', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return gone(c)
    return c.json({
      ...describeEpisode(ep, base),
      steps: ep.steps,
      terminated: ep.terminated,
      truncated: ep.truncated,
      answer: ep.answer,
    })
  })
  app.post('/gym/episodes/:id/step', async (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return gone(c)
    const b = await body(c)
    const action = parseAction(b.action ?? b)
    if (typeof action === 'string') return c.json({ error: action }, 400)
    return c.json(await ep.step(action))
  })
  app.get('/gym/episodes/:id/tools', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return c.json({ error: 'no such episode' }, 404)
    const format = (c.req.query('format') ?? 'openai') as ToolFormat
    if (!TOOL_FORMATS.includes(format)) {
      return c.json({ error: `format must be one of ${TOOL_FORMATS.join(', ')}` }, 400)
    }
    return c.json({ format, tools: formatTools(ep.tools, format) })
  })
  app.post('/gym/episodes/:id/verify', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return gone(c)
    return c.json(ep.verify())
  })
  app.delete('/gym/episodes/:id', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return gone(c)
    ep.close()
    return c.body(null, 204)
  })
  app.all('/gym/episodes/:id/mcp', async (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return gone(c)
    return mcpHandler(ep, c)
  })

  // OpenEnv's contract for operators (admin token): /reset, /step, /state, /close, /mcp, /metadata, /schema, /health.
  const adminEnv = openEnvApp(new OpenEnv(gym, { agentBaseUrl: base }))
  app.route('/', adminEnv)
  // The same contract for trainers without the admin token: one scope per key (`/openenv/<key>/…`).
  const keys = opts.openenvKeys ?? new OpenEnvKeys(gym, { agentBaseUrl: base })
  app.post('/gym/openenv/keys', async (c) => {
    const b = await body(c)
    const scope: OpenEnvScope = {}
    if (Array.isArray(b.tasks)) {
      const unknown = b.tasks.filter((t) => typeof t !== 'string' || !gym.tasks.has(t))
      if (unknown.length) return c.json({ error: `unknown tasks: ${unknown.join(', ')}` }, 400)
      scope.tasks = b.tasks as string[]
    }
    if (typeof b.family === 'string') scope.family = b.family
    if (b.toolProfile === 'rest' || b.toolProfile === 'typed') scope.toolProfile = b.toolProfile
    if (Number.isInteger(b.maxEpisodes) && (b.maxEpisodes as number) > 0) scope.maxEpisodes = b.maxEpisodes as number
    const key = keys.add(scope)
    const path = `/openenv/${key}`
    return c.json({ key, path, baseUrl: `${new URL(c.req.url).origin}${path}`, scope: keys.find(key)!.scope }, 201)
  })
  app.delete('/gym/openenv/keys/:key', (c) =>
    keys.revoke(c.req.param('key')) ? c.body(null, 204) : c.json({ error: 'no such key' }, 404),
  )
  return app
}

/**
 * The key-gated OpenEnv routes (`/openenv/<key>/reset` …). Mount in front of the admin check: the key is the
 * credential, and it opens nothing but its own scope's episodes.
 */
export function openEnvKeyRouter(keys: OpenEnvKeys): Hono {
  const app = new Hono()
  app.all('/openenv/:key/*', (c) => {
    const key = c.req.param('key')
    const entry = keys.find(key)
    if (!entry) return c.json({ detail: 'Not Found' }, 404)
    const url = new URL(c.req.url)
    url.pathname = url.pathname.slice(`/openenv/${key}`.length) || '/'
    return entry.app.fetch(new Request(url, c.req.raw))
  })
  return app
}
