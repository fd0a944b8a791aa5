import { OpenAPIHono } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { WorldManager } from '../server/worlds.ts'
import { createAgentApp } from '../server/app.ts'
import { createGym, type Gym } from './index.ts'
import type { Episode, Action } from './episode.ts'
import { publicTask, TaskSpec } from './task.ts'
import { mcpHandler } from './mcp.ts'
import { parseAction } from './actions.ts'

export { parseAction } from './actions.ts'

type Opts = { agentBaseUrl?: string; gym?: Gym }

/** What reset answers: everything the agent needs, nothing of the answers. */
export function describeEpisode(ep: Episode, agentBaseUrl: string) {
  const me = ep.credentials()
  return {
    episodeId: ep.id,
    worldId: ep.worldId,
    task: publicTask(ep.task),
    instruction: ep.instruction,
    tools: ep.tools,
    baseUrls: { google: agentBaseUrl, slack: `${agentBaseUrl}/api/`, mcp: `/gym/episodes/${ep.id}/mcp` },
    user: { id: me.id, email: me.email, name: me.name },
    tokens: { google: me.googleToken ?? null, slack: me.slackUserToken ?? null },
    observation: initialObservation(ep),
    maxSteps: ep.task.maxSteps,
  }
}

/** The first observation: who the agent is, what time it is, and the instruction. */
export function initialObservation(ep: Episode): string {
  const me = ep.credentials()
  return `You are ${me.name} <${me.email}>. Current time: ${new Date(ep.initial.clockMs).toISOString()}.\n\nTask: ${ep.instruction}`
}

async function body(c: Context): Promise<Record<string, unknown>> {
  try {
    const b = await c.req.json()
    return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Gym routes on the control listener (`/gym/*` and the OpenEnv-style `/reset`, `/step`, `/state`). */
export function gymRouter(worlds: WorldManager, opts: Opts = {}): OpenAPIHono<any> {
  const gym = opts.gym ?? createGym({ worlds, app: createAgentApp(worlds) })
  const base = (opts.agentBaseUrl ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
  const app = new OpenAPIHono<any>()
  let last: string | undefined

  const reset = async (c: Context) => {
    const b = await body(c)
    const taskId = (b.taskId ?? b.task_id) as string | undefined
    let task: TaskSpec | undefined
    if (b.task) {
      const parsed = TaskSpec.safeParse(b.task)
      if (!parsed.success) return { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), status: 400 as const }
      task = parsed.data
    } else if (taskId) task = gym.tasks.get(taskId)
    else task = gym.tasks.values().next().value
    if (!task) return { error: `unknown task "${taskId}"`, status: 404 as const }
    if (b.toolProfile === 'rest' || b.toolProfile === 'typed') task = { ...task, toolProfile: b.toolProfile }
    const seed = typeof b.seed === 'number' ? b.seed : undefined
    const ep = gym.reset(task, { seed })
    last = ep.id
    return { ep }
  }
  const episode = (id: string | undefined) => (id ? gym.get(id) : undefined)

  app.get('/gym/tasks', (c) => {
    const family = c.req.query('family')
    return c.json({ tasks: [...gym.tasks.values()].filter((t) => !family || t.family === family).map(publicTask) })
  })
  app.post('/gym/reset', async (c) => {
    const r = await reset(c)
    if (!r.ep) return c.json({ error: r.error }, r.status)
    return c.json(describeEpisode(r.ep, base), 201)
  })
  app.get('/gym/episodes', (c) => c.json({ episodes: [...gym.episodes.values()].map((e) => ({ episodeId: e.id, taskId: e.task.id, steps: e.steps })) }))
  app.get('/gym/episodes/:id', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return c.json({ error: 'no such episode' }, 404)
    return c.json({ ...describeEpisode(ep, base), steps: ep.steps, terminated: ep.terminated, truncated: ep.truncated })
  })
  app.post('/gym/episodes/:id/step', async (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return c.json({ error: 'no such episode' }, 404)
    const b = await body(c)
    const action = parseAction(b.action ?? b)
    if (typeof action === 'string') return c.json({ error: action }, 400)
    return c.json(await ep.step(action))
  })
  app.post('/gym/episodes/:id/verify', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return c.json({ error: 'no such episode' }, 404)
    return c.json(ep.verify())
  })
  app.delete('/gym/episodes/:id', (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return c.json({ error: 'no such episode' }, 404)
    ep.close()
    return c.body(null, 204)
  })
  app.all('/gym/episodes/:id/mcp', async (c) => {
    const ep = episode(c.req.param('id'))
    if (!ep) return c.json({ error: 'no such episode' }, 404)
    return mcpHandler(ep, c)
  })

  // OpenEnv-style: one current episode unless episode_id is given.
  const openEnvObs = (ep: Episode, text: string) => ({ episode_id: ep.id, instruction: ep.instruction, tools: ep.tools, text })
  app.post('/reset', async (c) => {
    const r = await reset(c)
    if (!r.ep) return c.json({ error: r.error }, r.status)
    const d = describeEpisode(r.ep, base)
    return c.json({ observation: openEnvObs(r.ep, d.observation), reward: null, done: false, info: { baseUrls: d.baseUrls, tokens: d.tokens, user: d.user } })
  })
  app.post('/step', async (c) => {
    const b = await body(c)
    const ep = episode((b.episode_id ?? b.episodeId ?? last) as string | undefined)
    if (!ep) return c.json({ error: 'no current episode: POST /reset first' }, 404)
    const action = parseAction(b.action)
    if (typeof action === 'string') return c.json({ error: action }, 400)
    const r = await ep.step(action)
    const done = r.terminated || r.truncated
    const verdict = done ? ep.verify() : undefined
    return c.json({ observation: openEnvObs(ep, r.observation), reward: verdict ? verdict.reward : 0, done, info: { ...r.info, terminated: r.terminated, truncated: r.truncated, ...(verdict ? { passed: verdict.passed, violations: verdict.violations } : {}) } })
  })
  app.get('/state', (c) => {
    const ep = episode(c.req.query('episode_id') ?? last)
    if (!ep) return c.json({ error: 'no current episode' }, 404)
    return c.json({ episode_id: ep.id, task_id: ep.task.id, step_count: ep.steps, done: ep.terminated || ep.truncated })
  })
  return app
}
