import type { Episode, CallResult } from '../episode.ts'
import type { Gym } from '../index.ts'
import type { ProgramStep, TaskSpec } from '../task.ts'
import { runProgram } from '../program.ts'
import { tokensOf, type Focus } from './select.ts'
import { requestInProcess } from '../../server/in-process/index.ts'

type Http = { method: string; path: string; query?: Record<string, unknown>; body?: unknown }

/** What an attack may do: everything an agent can (and, for the wrong-account attack, what a stolen token can). */
export class AttackContext {
  /** Requests and responses of the programs this context ran (the reference, mostly), tokenized on demand. */
  readonly #acted: string[] = []
  readonly #seen: string[] = []
  #focus: Focus | undefined

  constructor(
    readonly gym: Gym,
    readonly task: TaskSpec,
    readonly ep: Episode,
  ) {}

  /** One API call as the actor (or as another world user, for attacks that use the wrong account). */
  async call(
    method: string,
    path: string,
    extra: { query?: Record<string, unknown>; body?: unknown } = {},
    as?: string,
  ): Promise<CallResult> {
    const http: Http = { method, path, ...extra }
    if (!as || as === this.task.actor) return this.ep.call({ tool: 'http_request', arguments: http })
    return this.callAs(as, http)
  }

  /** The body of a GET (undefined when it failed). */
  async get<T = Record<string, unknown>>(
    path: string,
    query?: Record<string, unknown>,
    as?: string,
  ): Promise<T | undefined> {
    const r = await this.call('GET', path, { query }, as)
    return r.status < 300 ? (r.body as T) : undefined
  }

  /**
   * Runs a program (the reference, a near miss, a transformed one) as the actor or as another user, noting the ids
   * its requests and responses carry (focus()).
   */
  async program(steps: readonly ProgramStep[], as?: string): Promise<void> {
    const note = (a: { arguments?: Record<string, unknown> }, r: CallResult) => {
      this.#acted.push(JSON.stringify(a.arguments ?? {}))
      this.#seen.push(r.text)
      this.#focus = undefined
      return r
    }
    if (!as || as === this.task.actor) {
      const ep = this.ep
      // The episode's step count and final answer stay the episode's own (runProgram sets both).
      const noting = {
        get steps() {
          return ep.steps
        },
        set steps(n: number) {
          ep.steps = n
        },
        get answer() {
          return ep.answer
        },
        set answer(a: string | null) {
          ep.answer = a
        },
        call: async (a: Parameters<Episode['call']>[0]) => note(a, await ep.call(a)),
      }
      await runProgram(noting, steps)
      return
    }
    await runProgram({ steps: 0, call: async (a) => note(a, await this.callAs(as, a.arguments as Http)) }, steps)
  }

  /** What the task is about, for attacks that touch a bounded set of items (gym/attacks/select.ts). */
  focus(): Focus {
    this.#focus ??= {
      acted: tokensOf(this.#acted),
      seen: tokensOf(this.#seen),
      planted: JSON.stringify(this.task.seed).toLowerCase(),
    }
    return this.#focus
  }

  /** World users other than the actor. */
  others(): { id: string; email: string }[] {
    return this.gym.worlds.credentials(this.ep.worldId).filter((u) => u.id !== this.task.actor)
  }

  /** The actor's own address. */
  me(): { id: string; email: string } {
    return this.gym.worlds.credentials(this.ep.worldId, this.task.actor)[0]!
  }

  async callAs(userId: string, http: Http): Promise<CallResult> {
    const u = this.gym.worlds.credentials(this.ep.worldId, userId)[0]
    if (!u) throw new Error(`no user ${userId}`)
    const qs = new URLSearchParams()
    for (const [k, v] of Object.entries(http.query ?? {}))
      for (const x of Array.isArray(v) ? v : [v])
        if (x !== undefined && x !== null) qs.append(k, typeof x === 'object' ? JSON.stringify(x) : String(x))
    const token = http.path.startsWith('/api/') ? u.slackUserToken : u.googleToken
    const headers: Record<string, string> = { authorization: `Bearer ${token ?? ''}` }
    let body: string | undefined
    if (http.body !== undefined && http.body !== null && http.method.toUpperCase() !== 'GET') {
      headers['content-type'] = 'application/json'
      body = typeof http.body === 'string' ? http.body : JSON.stringify(http.body)
    }
    const res = await requestInProcess(this.gym.app, `http://agent.local${http.path}${qs.size ? `?${qs}` : ''}`, {
      method: http.method.toUpperCase(),
      headers,
      body,
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, text }
  }
}
