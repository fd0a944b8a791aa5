import type { Episode, CallResult } from '../episode.ts'
import type { Gym } from '../index.ts'
import type { ProgramStep, TaskSpec } from '../task.ts'
import { runProgram } from '../program.ts'

type Http = { method: string; path: string; query?: Record<string, unknown>; body?: unknown }

/** What an attack may do: everything an agent can (and, for the wrong-account attack, what a stolen token can). */
export class AttackContext {
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

  /** Runs a program (the reference, a near miss, a transformed one) as the actor or as another user. */
  async program(steps: readonly ProgramStep[], as?: string): Promise<void> {
    if (!as || as === this.task.actor) {
      await runProgram(this.ep, steps)
      return
    }
    await runProgram({ steps: 0, call: (a) => this.callAs(as, a.arguments as Http) }, steps)
  }

  /** World users other than the actor. */
  others(): { id: string; email: string }[] {
    return this.gym.worlds.credentials(this.ep.worldId).filter((u) => u.id !== this.task.actor)
  }

  /** The actor's own address. */
  me(): { id: string; email: string } {
    return this.gym.worlds.credentials(this.ep.worldId).find((u) => u.id === this.task.actor)!
  }

  async callAs(userId: string, http: Http): Promise<CallResult> {
    const u = this.gym.worlds.credentials(this.ep.worldId).find((x) => x.id === userId)
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
    const res = await this.gym.app.request(`http://agent.local${http.path}${qs.size ? `?${qs}` : ''}`, {
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
