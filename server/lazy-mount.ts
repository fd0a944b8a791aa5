import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Result, Router } from 'hono/router'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'
import type { ServiceProvider } from '../envs/core/service.ts'
import { loadRouter } from './routers.ts'
import { pathOfUrl } from '../envs/core/request-url.ts'

// The agent app mounts a service's routes when the first request for one of its paths arrives, before that
// request is dispatched, so the first call answers exactly as every later one (docs/decisions/0293).

type Route<T> = { slot: number; seq: number; method: string; path: string; handler: T }

/** Match results kept per router (a few hundred distinct request paths; past this the memo starts over). */
const MATCHED_CAP = 512

/**
 * Hono's default router (a RegExpRouter, or a TrieRouter for paths it cannot compile), rebuilt when routes are
 * added after requests were matched. Each route carries a slot (the app's own routes, then the services in
 * registry order), so the handlers a path matches come in the order an app that mounted everything at once
 * would give them, whatever order the services were mounted in.
 */
export class MountableRouter<T> implements Router<T> {
  name = 'MountableRouter'
  /** Slot of the routes added next. */
  slot = 0
  readonly #routes: Route<T>[] = []
  #active: Router<T> | undefined
  /**
   * The result of each method and path matched since the last route was added. A result is a pure function of
   * the routes, the method and the path, and Hono only reads it (the trie router builds fresh parameter objects
   * on every search, so a kept one is never written again): the memo can only give the same answer sooner.
   */
  readonly #matched = new Map<string, Result<T>>()

  add(method: string, path: string, handler: T): void {
    this.#routes.push({ slot: this.slot, seq: this.#routes.length, method, path, handler })
    this.#active = undefined
    this.#matched.clear()
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}` // a method has no space
    const kept = this.#matched.get(key)
    if (kept) return kept
    if (!this.#active) {
      const active = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] })
      const ordered = [...this.#routes].sort((a, b) => a.slot - b.slot || a.seq - b.seq)
      for (const r of ordered) active.add(r.method, r.path, r.handler)
      this.#active = active
    }
    const result = this.#active.match(method, path)
    if (this.#matched.size >= MATCHED_CAP) this.#matched.clear()
    this.#matched.set(key, result)
    return result
  }
}

/** The first path segment's owner: which services a request needs mounted before it is dispatched. */
export type NeedsOf = (path: string) => readonly ServiceProvider[]

/**
 * Wraps `app.fetch` (which `app.request` and the listener call) so that the services a request needs are mounted
 * first. Returns a function that mounts every service (what the OpenAPI document and tests need).
 */
export function mountOnFirstUse(
  app: OpenAPIHono<any>,
  router: MountableRouter<unknown>,
  services: readonly ServiceProvider[],
  needs: NeedsOf,
): () => Promise<void> {
  const mounted = new Set<string>()
  const mount = async (wanted: readonly ServiceProvider[]) => {
    await Promise.all(
      wanted.map(async (s) => {
        const r = await loadRouter(s)
        if (mounted.has(s.name)) return
        router.slot = 1 + services.indexOf(s)
        try {
          app.route('/', r)
        } finally {
          router.slot = 0
        }
        mounted.add(s.name)
      }),
    )
  }
  const dispatch = app.fetch
  app.fetch = (req: Request, env?: unknown, ctx?: unknown) => {
    if (mounted.size === services.length) return dispatch(req, env as never, ctx as never)
    const missing = needs(pathOfUrl(req.url)).filter((s) => !mounted.has(s.name))
    if (missing.length === 0) return dispatch(req, env as never, ctx as never)
    return mount(missing).then(() => dispatch(req, env as never, ctx as never))
  }
  return () => mount(services)
}
