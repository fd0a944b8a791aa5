/**
 * OpenEnv's wire contract (meta-pytorch/OpenEnv `core/env_server`), written from its message definitions:
 * `POST /reset {seed?, episode_id?, …}` and `POST /step {action, timeout_s?, request_id?}` answer exactly
 * `{observation, reward, done}`; `GET /state` → `{episode_id, step_count}`; `GET /health`, `/metadata`, `/schema`;
 * `POST /mcp` (JSON-RPC with OpenEnv's `openenv/session/*` methods); invalid input is 422 `{"detail": …}`.
 * Actions are tool calls in any shape `parseAction` knows, or OpenEnv's MCP actions `{type: "list_tools"}` and
 * `{type: "call_tool", tool_name, arguments}`. The WebSocket session protocol lives in openenv-ws.ts.
 *
 * One `OpenEnv` serves one scope (a key, or the admin): its episodes are named by the client (`episode_id`) or by
 * the gym, in a namespace no other scope sees. HTTP calls name their episode explicitly: nothing is shared by
 * "last reset".
 */
import { Hono, type Context } from 'hono'
import { EpisodeRefused, ProfileRefused, type Gym } from './index.ts'
import { WorldRefused } from '../server/worlds.ts'
import type { Episode } from './episode.ts'
import type { TaskSpec } from './task.ts'
import type { OracleResult } from '../oracles/types.ts'
import { parseAction } from './actions.ts'
import { describeEpisode, initialObservation } from './observation.ts'
import { handleMcpMessage } from './mcp.ts'
import { VERSION } from '../server/app.ts'

/** Which tasks a scope may reset into, and with which tool profile. */
export type OpenEnvScope = {
  tasks?: string[]
  family?: string
  toolProfile?: 'rest' | 'typed'
  maxEpisodes?: number
  /** The agent port's URL: lets a reset with `include_credentials` hand the agent its token and MCP URL. */
  agentBaseUrl?: string
}

/** OpenEnv's StepResponse / ResetResponse. */
export type StepResponse = { observation: Record<string, unknown>; reward: number | null; done: boolean }
/** A FastAPI-style validation error item. */
export type DetailItem = { type: string; loc: (string | number)[]; msg: string; input?: unknown }
/** A refused request: HTTP status and FastAPI's `detail`. */
export class OpenEnvError extends Error {
  constructor(
    readonly status: 404 | 409 | 422 | 429 | 503 | 507,
    readonly detail: string | DetailItem[],
    readonly code = 'VALIDATION_ERROR',
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '))
  }
}

const invalid = (loc: (string | number)[], msg: string, input: unknown, type = 'value_error') =>
  new OpenEnvError(422, [{ type, loc, msg, input }])

type Live = { ep: Episode; name: string; verdict?: OracleResult; seq: number }

const DEFAULT_MAX_EPISODES = 512

/** OpenEnv's Tool model: name, description, input_schema. */
const toolsOf = (ep: Episode) =>
  ep.tools.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    input_schema: t.function.parameters,
  }))

export class OpenEnv {
  readonly #live = new Map<string, Live>()
  #seq = 0
  #cursor = 0

  constructor(
    readonly gym: Gym,
    readonly scope: OpenEnvScope = {},
  ) {}

  /** Tasks this scope may run, in id order. */
  tasks(): TaskSpec[] {
    const allowed = this.scope.tasks ? new Set(this.scope.tasks) : undefined
    return [...this.gym.tasks.values()]
      .filter((t) => (!allowed || allowed.has(t.id)) && (!this.scope.family || t.family === this.scope.family))
      .sort((a, b) => a.id.localeCompare(b.id))
  }

  /** The live episode a client name refers to (episodes closed elsewhere, e.g. reaped, are forgotten). */
  get(name: unknown): Live {
    if (typeof name !== 'string' || !name)
      throw invalid(['body', 'episode_id'], 'Field required: name the episode reset answered with', name, 'missing')
    const live = this.#live.get(name)
    if (!live || !this.gym.get(live.ep.id)) {
      this.#live.delete(name)
      throw new OpenEnvError(
        404,
        `episode "${name}" not found (reset first; episodes end on close, disconnect or expiry)`,
        'SESSION_ERROR',
      )
    }
    return live
  }

  /**
   * Starts an episode. `data`: `seed` (picks the task: seed mod the scope's task count), `episode_id`, `task_id`,
   * `tool_profile`.
   */
  reset(data: Record<string, unknown>): { live: Live; response: StepResponse } {
    const { seed, episode_id: name } = data
    const taskId = data.task_id ?? data.taskId
    const profile = data.tool_profile ?? data.toolProfile ?? this.scope.toolProfile
    if (seed !== undefined && seed !== null && (!Number.isInteger(seed) || (seed as number) < 0))
      throw invalid(['body', 'seed'], 'Input should be a non-negative integer', seed)
    if (name !== undefined && name !== null && (typeof name !== 'string' || !name || name.length > 255))
      throw invalid(['body', 'episode_id'], 'Input should be a string of 1 to 255 characters', name)
    if (taskId !== undefined && typeof taskId !== 'string')
      throw invalid(['body', 'task_id'], 'Input should be a string', taskId)
    if (profile !== undefined && profile !== 'rest' && profile !== 'typed')
      throw invalid(['body', 'tool_profile'], "Input should be 'rest' or 'typed'", profile)
    const tasks = this.tasks()
    let task: TaskSpec | undefined
    if (taskId) task = tasks.find((t) => t.id === taskId)
    else if (typeof seed === 'number') task = tasks[seed % Math.max(1, tasks.length)]
    else task = tasks[this.#cursor++ % Math.max(1, tasks.length)]
    if (!task)
      throw new OpenEnvError(
        404,
        taskId ? `unknown task "${String(taskId)}"` : 'this environment has no tasks',
        'FACTORY_ERROR',
      )
    if (typeof name === 'string') this.close(name)
    this.#makeRoom()
    let ep: Episode
    try {
      ep = this.gym.reset(profile ? { ...task, toolProfile: profile as 'rest' | 'typed' } : task)
    } catch (e) {
      // Past a capacity limit (live episodes, worlds, memory): the limit's status and reason, never a 500.
      if (e instanceof EpisodeRefused || e instanceof WorldRefused) {
        throw new OpenEnvError(e.status === 400 ? 422 : e.status, `${e.reason}: ${e.message}`, 'CAPACITY_ERROR')
      }
      if (e instanceof ProfileRefused) throw new OpenEnvError(422, `${e.reason}: ${e.message}`, 'FACTORY_ERROR')
      throw e
    }
    const live: Live = { ep, name: typeof name === 'string' ? name : ep.id, seq: ++this.#seq }
    this.#live.set(live.name, live)
    const observation: Record<string, unknown> = {
      episode_id: live.name,
      task_id: task.id,
      instruction: ep.instruction,
      text: initialObservation(ep),
      tools: toolsOf(ep),
      max_steps: ep.task.maxSteps,
      step_count: 0,
    }
    if (data.include_credentials === true && this.scope.agentBaseUrl) observation.credentials = this.#credentials(ep)
    return { live, response: { observation, reward: null, done: false } }
  }

  /** The episode's own credentials, for agents that call the APIs or the agent-side MCP endpoint directly. */
  #credentials(ep: Episode) {
    const d = describeEpisode(ep, this.scope.agentBaseUrl!.replace(/\/$/, ''))
    return { user: d.user, tokens: d.tokens, base_urls: d.baseUrls }
  }

  /** One action on an episode. */
  async step(live: Live, action: unknown): Promise<StepResponse> {
    const ep = live.ep
    const over = () => ep.terminated || ep.truncated
    // The oracle judges once, when the episode is over (however it ended: step, MCP `done`, max steps).
    const reward = () => (over() ? (live.verdict ??= ep.verify()).reward : 0)
    if (action && typeof action === 'object' && (action as Record<string, unknown>).type === 'list_tools') {
      return {
        observation: { episode_id: live.name, step_count: ep.steps, tools: toolsOf(ep) },
        reward: over() ? reward() : 0,
        done: over(),
      }
    }
    const parsed = parseAction(action)
    if (typeof parsed === 'string') throw invalid(['body', 'action'], parsed, action)
    if (over()) {
      const error = { error_type: 'execution_error', message: 'the episode is over: reset to start another' }
      return {
        observation: { episode_id: live.name, step_count: ep.steps, tool_name: parsed.tool, result: null, error },
        reward: reward(),
        done: true,
      }
    }
    const known = ep.tools.some((t) => t.function.name === parsed.tool)
    const r = await ep.step(parsed)
    const isError = (r.info.status ?? 200) >= 400 || !!r.info.error
    const observation: Record<string, unknown> = {
      episode_id: live.name,
      step_count: ep.steps,
      tool_name: parsed.tool,
      result: { content: [{ type: 'text', text: r.observation }], isError },
      error: known ? null : { error_type: 'tool_not_found', message: `unknown tool "${parsed.tool}"` },
    }
    if (r.truncated) observation.truncated = true
    return { observation, reward: reward(), done: over() }
  }

  /** OpenEnv's State: episode id and step count (plus the task and whether it is over). */
  state(live: Live) {
    return {
      episode_id: live.name,
      step_count: live.ep.steps,
      task_id: live.ep.task.id,
      done: live.ep.terminated || live.ep.truncated,
    }
  }

  /** Ends an episode and frees its world (no-op for unknown names). */
  close(name: string): void {
    const live = this.#live.get(name)
    if (!live) return
    this.#live.delete(name)
    if (this.gym.get(live.ep.id)) live.ep.close()
  }

  /** Ends every episode of this scope. */
  closeAll(): void {
    for (const name of [...this.#live.keys()]) this.close(name)
  }

  get size() {
    return this.#live.size
  }

  /** At capacity, the oldest finished episode makes room; with none finished the reset is refused (503). */
  #makeRoom() {
    const max = this.scope.maxEpisodes ?? DEFAULT_MAX_EPISODES
    for (const [name, l] of this.#live) if (!this.gym.get(l.ep.id)) this.#live.delete(name)
    if (this.#live.size < max) return
    const done = [...this.#live.values()]
      .filter((l) => l.ep.terminated || l.ep.truncated)
      .sort((a, b) => a.seq - b.seq)[0]
    if (!done) throw new OpenEnvError(503, `capacity reached: ${max} live episodes`, 'CAPACITY_REACHED')
    this.close(done.name)
  }

  /** OpenEnv's HTTP `/mcp`: JSON-RPC with `openenv/session/create|close` and MCP methods on `params.session_id`. */
  async mcp(msg: unknown): Promise<Record<string, unknown>> {
    const m = (msg && typeof msg === 'object' && !Array.isArray(msg) ? msg : {}) as Record<string, unknown>
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null
    const err = (code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message, data: null } })
    if (m.jsonrpc !== '2.0' || typeof m.method !== 'string') return err(-32600, 'Invalid Request')
    const params = (m.params ?? {}) as Record<string, unknown>
    if (!params || typeof params !== 'object' || Array.isArray(params)) return err(-32602, 'Params must be an object')
    try {
      if (m.method === 'openenv/session/create') {
        const { live } = this.reset(params)
        return { jsonrpc: '2.0', id, result: { session_id: live.name } }
      }
      if (m.method === 'openenv/session/close') {
        if (typeof params.session_id !== 'string') return err(-32602, "Invalid params - 'session_id' is required")
        this.get(params.session_id)
        this.close(params.session_id)
        return { jsonrpc: '2.0', id, result: { session_id: params.session_id, closed: true } }
      }
      if (typeof params.session_id !== 'string')
        return err(-32602, "Invalid params - 'session_id' is required (create one with openenv/session/create)")
      const live = this.get(params.session_id)
      const { session_id: _s, ...rest } = params
      const reply = await handleMcpMessage(live.ep, { jsonrpc: '2.0', id: id ?? 0, method: m.method, params: rest })
      return { ...(reply as Record<string, unknown>), id }
    } catch (e) {
      if (e instanceof OpenEnvError) return err(e.status === 404 ? -32602 : -32000, e.message)
      throw e
    }
  }
}

/** OpenEnv's EnvironmentMetadata. */
export const METADATA = {
  name: 'workspace-gym',
  description:
    'Gmail, Calendar, Drive, Docs and Slack worlds: tasks an assistant solves through the real Web APIs, ' +
    'judged by oracles.',
  readme_content: null,
  version: VERSION,
  author: null,
  documentation_url: null,
}

const TOOL_CALL_SCHEMA = {
  title: 'CallToolAction',
  type: 'object',
  properties: {
    type: { const: 'call_tool' },
    tool_name: { type: 'string', description: 'Name of a tool from reset or list_tools' },
    arguments: { type: 'object', additionalProperties: true },
  },
  required: ['type', 'tool_name'],
}

/** OpenEnv's SchemaResponse: action, observation and state schemas. */
export const SCHEMAS = {
  action: {
    title: 'WorkspaceAction',
    description:
      'A tool call. Also accepted: {tool, arguments}, OpenAI {function: {name, arguments}}, ' +
      'Anthropic {type: "tool_use", name, input}, Gemini {functionCall: {name, args}}.',
    anyOf: [
      TOOL_CALL_SCHEMA,
      { title: 'ListToolsAction', type: 'object', properties: { type: { const: 'list_tools' } }, required: ['type'] },
    ],
  },
  observation: {
    title: 'WorkspaceObservation',
    type: 'object',
    properties: {
      episode_id: { type: 'string' },
      step_count: { type: 'integer' },
      instruction: { type: 'string', description: 'At reset: the task' },
      text: { type: 'string', description: 'At reset: identity, current time and task' },
      tools: {
        type: 'array',
        description: 'At reset and for list_tools: {name, description, input_schema}',
        items: { type: 'object' },
      },
      tool_name: { type: 'string' },
      result: { description: 'MCP CallToolResult: {content: [{type: "text", text}], isError}' },
      error: { description: 'Framework error: {error_type, message}', anyOf: [{ type: 'object' }, { type: 'null' }] },
    },
    required: ['episode_id'],
  },
  state: {
    title: 'WorkspaceState',
    type: 'object',
    properties: {
      episode_id: { type: 'string' },
      step_count: { type: 'integer', minimum: 0 },
      task_id: { type: 'string' },
      done: { type: 'boolean' },
    },
    required: ['episode_id', 'step_count'],
  },
}

async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const text = await c.req.text()
  if (!text.trim()) return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const badJson = (c: Context) =>
  c.json({ detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {} }] }, 422)
const refused = (c: Context, e: unknown) => {
  if (e instanceof OpenEnvError) return c.json({ detail: e.detail }, e.status)
  throw e
}

/** OpenEnv's HTTP routes over one scope (mounted at `/openenv/<key>` or, for the admin, the control root). */
export function openEnvApp(env: OpenEnv): Hono {
  const app = new Hono()
  app.get('/health', (c) => c.json({ status: 'healthy' }))
  app.get('/metadata', (c) => c.json(METADATA))
  app.get('/schema', (c) => c.json(SCHEMAS))
  app.post('/reset', async (c) => {
    const body = await readJson(c)
    if (!body.ok) return badJson(c)
    const data = body.value ?? {}
    if (typeof data !== 'object' || Array.isArray(data) || data === null)
      return c.json(
        { detail: [{ type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: data }] },
        422,
      )
    try {
      return c.json(env.reset(data as Record<string, unknown>).response)
    } catch (e) {
      return refused(c, e)
    }
  })
  app.post('/step', async (c) => {
    const body = await readJson(c)
    if (!body.ok) return badJson(c)
    const b = body.value as Record<string, unknown> | undefined
    if (!b || typeof b !== 'object' || Array.isArray(b))
      return c.json(
        { detail: [{ type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: b ?? null }] },
        422,
      )
    const detail: DetailItem[] = []
    if (!b.action || typeof b.action !== 'object' || Array.isArray(b.action))
      detail.push({
        type: b.action === undefined ? 'missing' : 'dict_type',
        loc: ['body', 'action'],
        msg: b.action === undefined ? 'Field required' : 'Input should be a valid dictionary',
        input: b.action ?? b,
      })
    if (b.timeout_s !== undefined && b.timeout_s !== null && !(typeof b.timeout_s === 'number' && b.timeout_s > 0))
      detail.push({
        type: 'greater_than',
        loc: ['body', 'timeout_s'],
        msg: 'Input should be greater than 0',
        input: b.timeout_s,
      })
    if (
      b.request_id !== undefined &&
      b.request_id !== null &&
      !(typeof b.request_id === 'string' && b.request_id.length <= 255)
    )
      detail.push({
        type: 'string_type',
        loc: ['body', 'request_id'],
        msg: 'Input should be a string of at most 255 characters',
        input: b.request_id,
      })
    if (detail.length) return c.json({ detail }, 422)
    try {
      return c.json(await env.step(env.get(b.episode_id), b.action))
    } catch (e) {
      return refused(c, e)
    }
  })
  app.get('/state', (c) => {
    try {
      return c.json(env.state(env.get(c.req.query('episode_id'))))
    } catch (e) {
      return refused(c, e)
    }
  })
  app.post('/close', async (c) => {
    const body = await readJson(c)
    const b = (body.ok ? body.value : undefined) as Record<string, unknown> | undefined
    try {
      const live = env.get(b?.episode_id)
      env.close(live.name)
      return c.json({ episode_id: live.name, closed: true })
    } catch (e) {
      return refused(c, e)
    }
  })
  app.post('/mcp', async (c) => {
    const body = await readJson(c)
    if (!body.ok)
      return c.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: null } })
    return c.json(await env.mcp(body.value))
  })
  app.all('/mcp', (c) =>
    c.json(
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Method not allowed: POST JSON-RPC here', data: null },
      },
      405,
      { allow: 'POST' },
    ),
  )
  return app
}
