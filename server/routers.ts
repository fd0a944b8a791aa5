import type { OpenAPIHono } from '@hono/zod-openapi'
import type { WorldEnv } from '../envs/core/http.ts'
import type { ServiceProvider } from '../envs/core/service.ts'
import { services } from './registry.ts'

// Each service's routes (their zod request schemas, OpenAPI definitions and handlers) are imported when first
// needed: a served process pays only for the services its worlds are called on (docs/decisions/0293).

type Router = OpenAPIHono<WorldEnv>
const loading = new Map<string, Promise<Router>>()
const loaded = new Map<string, Router>()

/** Imports a service's router once; later calls share the first import. */
export function loadRouter(service: ServiceProvider): Promise<Router> {
  let p = loading.get(service.name)
  if (!p) {
    p = service.loadRouter().then((r) => {
      loaded.set(service.name, r)
      return r
    })
    // A failed import is tried again by the next caller instead of failing forever.
    p.catch(() => loading.delete(service.name))
    loading.set(service.name, p)
  }
  return p
}

/** Imports every service's router. */
export async function loadRouters(): Promise<void> {
  await Promise.all(services.map(loadRouter))
}

/** A service's router if it was imported already. */
export function loadedRouter(service: ServiceProvider): Router | undefined {
  return loaded.get(service.name)
}

/** A service's router, which must have been imported (`await loadRouters()`): throws otherwise. */
export function routerOf(service: ServiceProvider): Router {
  const r = loaded.get(service.name)
  if (!r) throw new Error(`the ${service.name} routes are not loaded yet (await loadRouters() first)`)
  return r
}
