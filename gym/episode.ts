import type { OpenAPIHono } from '@hono/zod-openapi'
import type { WorldEntry, WorldManager } from '../server/worlds.ts'
import { stateBase, stateSince, type StateBase } from '../server/state-since.ts'
import { diffStates, type WorldState } from '../envs/core/diff.ts'
import { nowMs } from '../envs/core/clock.ts'
import { stmt } from '../envs/core/db.ts'
import { WorldLostWrites } from '../envs/core/world.ts'
import { erasedDrive, fileText, revisionTexts } from './file-text.ts'
import type { ActionRow, OracleResult } from '../oracles/types.ts'
import { oracleById } from '../oracles/index.ts'
import { MAX_ANSWER_CHARS, type TaskSpec } from './task.ts'
import { readResponseBody } from './response-body.ts'
import { requestInProcess, type Answer } from '../server/in-process/index.ts'
import { HTTP_TOOL, typedCall, typedTools, toolName, type HttpCall, type ToolDef, type Typed } from './tools.ts'
import type { Sent, SharedPrefix } from './shared-prefix.ts'

/** One tool call. */
export type Action = { tool: string; arguments?: Record<string, unknown> }
/** What step returns (gymnasium-style). */
export type StepResult = {
  observation: string
  terminated: boolean
  truncated: boolean
  info: { step: number; status?: number; error?: string }
}
/** One step as it happened (for the inspector and replays): the call, what the agent saw, the world clock. */
export type StepRecord = { step: number; action: Action; observation: string; status?: number; atMs: number }
/** A full, untruncated response (control side only). */
export type CallResult = { status: number; body: unknown; text: string }

export const DONE_TOOL: ToolDef = {
  type: 'function',
  function: {
    name: 'done',
    description:
      'Call when the task is finished (ends the episode). When the task asks a question, put your final answer in `answer`.',
    parameters: {
      type: 'object',
      properties: {
        summary: { type: 'string' },
        answer: { type: 'string', description: 'Your final answer to the question the task asks (answer tasks only).' },
      },
    },
  },
}

/**
 * Initial states per template snapshot: every episode of one task starts from the same bytes. Each keeps what
 * lets verify() re-dump only the services whose tables the episode changed (server/state-since.ts).
 */
const initialStates = new WeakMap<object, StateBase>()

/** Cuts `text` to `max` characters with a visible marker saying how much was left out. */
export function truncateObservation(text: string, max: number): string {
  if (text.length <= max) return text
  const marker = `…[truncated: ${text.length - max} of ${text.length} chars omitted]`
  return text.slice(0, Math.max(0, max - marker.length)) + marker
}

const STEP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** A step's HTTP method: 400 when it is not an HTTP token at all, 405 when it is one no tool call may use. */
function checkMethod(method: string): CallResult | undefined {
  const upper = method.toUpperCase()
  if (STEP_METHODS.includes(upper)) return undefined
  const error = `method must be one of ${STEP_METHODS.join(', ')}`
  const status = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method) ? 405 : 400
  return {
    status,
    body: { error: { code: status, message: `${error} (got ${JSON.stringify(method.slice(0, 40))})` } },
    text: '',
  }
}

const ACTIONS_SQL =
  'SELECT seq, at_ms AS atMs, user_id AS userId, service, operation_id AS operationId, method, ' +
  'path, query, body, status, wrote FROM world_action_log ORDER BY seq'

/** One agent episode in its own world. */
export class Episode {
  readonly tools: ToolDef[]
  readonly initial: WorldState
  steps = 0
  /** The final answer the agent submitted with `done` (answer tasks); null when none. */
  answer: string | null = null
  terminated = false
  /** Wall-clock ms of the reset and of the last step or call (the gym reaps idle and old episodes). */
  readonly startedAt: number
  lastActiveAt: number
  /** Every step taken, in order. */
  readonly history: StepRecord[] = []
  #typed: Map<string, Typed>
  readonly #base: StateBase
  #closed = false
  #sealed = false

  constructor(
    readonly id: string,
    readonly task: TaskSpec,
    readonly entry: WorldEntry,
    private readonly worlds: WorldManager,
    private readonly app: OpenAPIHono<any>,
    private readonly clock: () => number = Date.now,
    /** The chain of episodes this one shares its world with (validation: gym/shared-prefix.ts). */
    private readonly shared?: SharedPrefix,
  ) {
    this.startedAt = this.lastActiveAt = clock()
    // A fresh world equals its template, so its state is computed once per template (not per episode).
    let base = initialStates.get(entry.baseline)
    if (!base) initialStates.set(entry.baseline, (base = stateBase(entry.world)))
    this.#base = base
    this.initial = base.state
    const typed = task.toolProfile === 'typed' ? typedTools(task.services, { admin: task.tags.includes('admin') }) : []
    this.#typed = new Map(typed.map((t) => [t.def.function.name, t]))
    this.tools = [...(task.toolProfile === 'typed' ? typed.map((t) => t.def) : [HTTP_TOOL]), DONE_TOOL]
  }

  get worldId() {
    return this.entry.id
  }
  get instruction() {
    return this.task.instruction
  }
  get truncated() {
    return this.steps >= this.task.maxSteps
  }

  #me: ReturnType<WorldManager['credentials']>[number] | undefined

  /** The acting user's tokens (for direct REST calls on the agent port), read once per episode; none once sealed. */
  credentials() {
    const me = this.actor()
    if (!me) throw new Error(`task actor "${this.task.actor}" is not a user of the world`)
    return this.#sealed ? { ...me, googleToken: undefined, slackUserToken: undefined } : me
  }

  /**
   * The acting user as credentials() reads it (before sealing drops the tokens), or undefined when the actor is none
   * of the world's users. The episodes of a chain read it once for all: it never touches the world again.
   */
  actor(): ReturnType<WorldManager['credentials']>[number] | undefined {
    const read = () => this.worlds.credentials(this.entry.id, this.task.actor)[0]
    this.#me ??= this.shared ? this.shared.credentials(read) : read()
    return this.#me
  }

  /** True once the episode is over (done, out of steps, closed or expired): its tokens no longer work. */
  get sealed() {
    return this.#sealed
  }

  /**
   * Ends the agent's access: the world's secret is replaced, so every token, OAuth secret and upload URL the
   * agent saw stops working at once, on every route. The world stays readable for verify until close().
   */
  seal(): void {
    if (this.#sealed || this.#closed) return
    this.#sealed = true
    this.#me = undefined
    this.worlds.rotateKeys(this.entry.id)
  }

  /** Executes one tool call in-process and returns the full response. */
  async call(action: Action): Promise<CallResult> {
    if (this.#sealed || this.#closed) return { status: 409, body: { error: 'episode is over' }, text: '' }
    this.lastActiveAt = this.clock()
    const args = action.arguments ?? {}
    let http: HttpCall
    if (action.tool === 'http_request' && this.task.toolProfile === 'rest') http = args as HttpCall
    else {
      const t = this.#typed.get(action.tool) ?? this.#typed.get(toolName(action.tool))
      if (!t) return { status: 400, body: { error: `unknown tool "${action.tool}"` }, text: '' }
      try {
        http = typedCall(t, args)
      } catch (e) {
        return { status: 400, body: { error: (e as Error).message }, text: '' }
      }
    }
    if (typeof http.method !== 'string' || typeof http.path !== 'string' || !http.path.startsWith('/'))
      return { status: 400, body: { error: 'http_request needs method and a path starting with /' }, text: '' }
    // A query that is not an object of parameters (a string, number or list) is the action's fault: 400, where
    // `'access_token' in query` threw and /mcp answered a plain-text 500 (docs/decisions/0387).
    const query = http.query as unknown
    if (query !== undefined && query !== null && (typeof query !== 'object' || Array.isArray(query)))
      return { status: 400, body: { error: 'http_request query must be an object of parameters' }, text: '' }
    const refused = checkMethod(http.method)
    if (refused) return refused
    const qs = new URLSearchParams()
    for (const [k, v] of Object.entries(http.query ?? {}))
      for (const x of Array.isArray(v) ? v : [v])
        if (x !== undefined && x !== null) qs.append(k, typeof x === 'object' ? JSON.stringify(x) : String(x))
    const me = this.credentials()
    const token = http.path.startsWith('/api/') ? me.slackUserToken : me.googleToken
    // A call that brings its own Google credential (`access_token`, e.g. a token minted through domain-wide
    // delegation) is sent with that one only, as a client holding two credentials would choose one.
    const ownCredential = http.query !== undefined && http.query !== null && 'access_token' in http.query
    const headers: Record<string, string> = ownCredential ? {} : { authorization: `Bearer ${token ?? ''}` }
    let body: string | undefined
    if (http.body !== undefined && http.body !== null && http.method.toUpperCase() !== 'GET') {
      headers['content-type'] = 'application/json'
      body = typeof http.body === 'string' ? http.body : JSON.stringify(http.body)
    }
    const url = `http://agent.local${http.path}${qs.size ? `?${qs}` : ''}`
    const method = http.method.toUpperCase()
    const send = async (): Promise<Sent> => {
      let res: Answer
      try {
        res = await requestInProcess(this.app, url, { method, headers, body })
      } catch (e) {
        // A request the fetch layer cannot even build (bad URL, header) is the action's fault: 400, never a 5xx.
        const message = `request refused: ${(e as Error).message}`
        return { result: { status: 400, body: { error: { code: 400, message } }, text: '' }, json: false }
      }
      const { body: parsed, text, json } = await readResponseBody(res)
      return { result: { status: res.status, body: parsed, text }, json }
    }
    if (!this.shared) return (await send()).result
    return this.shared.request(JSON.stringify([method, url, headers, body]), send)
  }

  /** One agent step: a tool call → observation (truncated to the task's budget). */
  async step(action: Action): Promise<StepResult> {
    if (this.#closed) throw new Error('episode is closed')
    if (this.terminated || this.truncated)
      return {
        observation: 'episode is over',
        terminated: this.terminated,
        truncated: this.truncated,
        info: { step: this.steps, error: 'episode is over' },
      }
    this.steps++
    this.lastActiveAt = this.clock()
    if (action.tool === 'done') {
      const answer = action.arguments?.answer
      if (typeof answer === 'string') this.answer = answer.slice(0, MAX_ANSWER_CHARS)
      this.terminated = true
      this.#record(action, 'ok')
      this.seal()
      return { observation: 'ok', terminated: true, truncated: false, info: { step: this.steps } }
    }
    const r = await this.call(action)
    const observation = truncateObservation(
      JSON.stringify({ status: r.status, body: r.body }),
      this.task.maxObservationChars,
    )
    this.#record(action, observation, r.status)
    if (this.truncated) this.seal()
    return { observation, terminated: false, truncated: this.truncated, info: { step: this.steps, status: r.status } }
  }

  #record(action: Action, observation: string, status?: number): void {
    const atMs = nowMs(this.entry.world.db)
    this.history.push({ step: this.steps, action, observation, ...(status === undefined ? {} : { status }), atMs })
  }

  /** Action log rows of this episode's world (a new list of new rows each call). */
  actions(): ActionRow[] {
    return stmt(this.entry.world.db, ACTIONS_SQL).all() as ActionRow[]
  }

  /** Runs the task's oracle on the world as it is now. */
  verify(): OracleResult & { steps: number } {
    // A world that lost writes (its batch or its hold rolled back by SQLite) is not what the agent left: no verdict.
    const lost = this.entry.world.lostWrites
    if (lost !== undefined) throw new WorldLostWrites(lost)
    const oracle = oracleById(this.task.oracle.id)
    const final = stateSince(this.entry.world, this.#base)
    const diff = diffStates(this.initial, final)
    const actions = this.actions()
    this.lastVerified = { final, diff, actions: actions.slice() }
    const { params } = this.task.oracle
    // Read only when an oracle asks (a file past the dump's first MiB): `world.db` is a use of the held world.
    const whole = (service: 'drive' | 'slack', id: string) => fileText(this.entry.world.db, service, id)
    const earlier = (fileId: string, userId: string, sinceMs: number) =>
      revisionTexts(this.entry.world.db, fileId, userId, sinceMs)
    // Read once, when an oracle asks (an episode that deleted a Drive file).
    let gone: ReturnType<typeof erasedDrive> | undefined
    const erased = () => (gone ??= erasedDrive(this.entry.world.db))
    // One literal (no `{ ...input, … }`): every oracle reads this object, and a literal that starts with a spread
    // gets a hidden class of its own each time in Node 20's V8 (docs/decisions/0446).
    const { initial, answer } = this
    const result = oracle({
      initial,
      final,
      diff,
      actions,
      params,
      answer,
      fileText: whole,
      revisionTexts: earlier,
      erasedDrive: erased,
    })
    return Object.assign({}, result, { steps: this.steps })
  }

  /**
   * The state, diff and action log the last verify() judged (validation reuses them instead of dumping the world
   * or reading the log again: gym/attacks outcomeOf).
   */
  lastVerified: { final: WorldState; diff: ReturnType<typeof diffStates>; actions: readonly ActionRow[] } | undefined

  /** Frees the episode's world. */
  close(): void {
    if (this.#closed) return
    this.#sealed = true
    this.#closed = true
    // A shared world outlives its episodes (the chain deletes it when the task is done).
    if (this.shared) return
    // The world may be gone already (deleted through the control plane, or its manager closed): the reaper's
    // timer must never throw for that, or a server would die of an uncaught exception.
    if (this.worlds.find(this.entry.id) === this.entry) this.worlds.delete(this.entry.id)
  }
}
