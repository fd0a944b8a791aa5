import { WorldManager, type WorldEntry } from '../../../server/worlds.ts'
import { createAgentApp } from '../../../server/app.ts'
import type { Snapshot } from '../world.ts'

/**
 * Templates built by any harness in this process: building a seed costs up to seconds (demo), cloning its bytes
 * milliseconds, and test files that share a worker (vitest `isolate: false`) share this map too.
 */
const templates = new Map<string, Snapshot>()

export type Harness = {
  worlds: WorldManager
  app: ReturnType<typeof createAgentApp>
  entry: WorldEntry
  /** Google token of a user (by world user id; the first user when omitted). */
  google(userId?: string): string
  /** Slack user token of a user. */
  slack(userId?: string): string
  /** One call to the agent app, in process. `json` bodies are serialised; `form` bodies url-encoded. */
  call(
    method: string,
    path: string,
    opts?: CallOptions,
  ): Promise<{ status: number; body: any; text: string; headers: Headers }>
}

export type CallOptions = {
  token?: string | null
  json?: unknown
  form?: Record<string, string>
  body?: string | Uint8Array
  headers?: Record<string, string>
}

/**
 * A fresh world plus the agent app over it, for tests. Seeds are by name (`demo`, `empty`) or
 * inline documents; every call gets its own WorldManager and world (cloned from a shared template), so tests
 * never share state.
 */
export function harness(seed: string | Record<string, unknown> = 'empty', seedValue = 1): Harness {
  const worlds = new WorldManager({ templates })
  const entry = worlds.create({ id: 'test', seed, seedValue })
  const app = createAgentApp(worlds)
  const creds = () => worlds.credentials(entry.id)
  const tokenOf = (userId: string | undefined, kind: 'googleToken' | 'slackUserToken') => {
    const users = creds()
    const u = userId ? users.find((x) => x.id === userId) : users[0]
    if (!u?.[kind]) throw new Error(`no ${kind} for ${userId ?? 'first user'}`)
    return u[kind]!
  }
  return {
    worlds,
    app,
    entry,
    google: (userId) => tokenOf(userId, 'googleToken'),
    slack: (userId) => tokenOf(userId, 'slackUserToken'),
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers }
      const isSlack = path.startsWith('/api/')
      const token =
        opts.token === undefined
          ? isSlack
            ? tokenOf(undefined, 'slackUserToken')
            : tokenOf(undefined, 'googleToken')
          : opts.token
      if (token) headers.authorization = `Bearer ${token}`
      let body: string | Uint8Array | undefined = opts.body
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json)
        headers['content-type'] ??= 'application/json'
      } else if (opts.form) {
        body = new URLSearchParams(opts.form).toString()
        headers['content-type'] ??= 'application/x-www-form-urlencoded'
      }
      const res = await app.request(path, { method, headers, body })
      const text = await res.text()
      let parsed: unknown = undefined
      try {
        parsed = text ? JSON.parse(text) : undefined
      } catch {
        parsed = undefined
      }
      return { status: res.status, body: parsed, text, headers: res.headers }
    },
  }
}
