import type { OpenAPIHono } from '@hono/zod-openapi'
import { z } from 'zod'

// Hono's zod validator parses every request part with `safeParseAsync`, which costs several times a synchronous
// parse even when the schema has nothing asynchronous. Route schemas here are pure (no async refinements or
// transforms), so their validators parse synchronously first; a schema that does reach something asynchronous
// makes zod throw `$ZodAsyncError` before any result exists, and then the original asynchronous parse runs.
// Results are the same objects either way (same data, same issues), so responses do not change.

const patched = new WeakSet<object>()

type Parser = { safeParse: z.ZodType['safeParse']; safeParseAsync: z.ZodType['safeParseAsync'] }

/** Makes one schema's `safeParseAsync` try the synchronous parse first (once per schema; idempotent). */
export function preferSyncParse(schema: unknown): void {
  if (!(schema instanceof z.ZodType) || patched.has(schema)) return
  patched.add(schema)
  const s = schema as unknown as Parser
  const original = s.safeParseAsync
  s.safeParseAsync = async (data, params) => {
    try {
      return s.safeParse(data, params)
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return original(data, params)
      throw error
    }
  }
}

type RequestParts = { query?: unknown; params?: unknown; headers?: unknown; cookies?: unknown; body?: unknown }

/** The request schemas of a route: query, path, header and cookie parameters and each body media type's. */
function requestSchemas(request: RequestParts | undefined): unknown[] {
  if (!request) return []
  const content = (request.body as { content?: Record<string, { schema?: unknown }> } | undefined)?.content ?? {}
  const bodies = Object.values(content).map((media) => media?.schema)
  return [request.query, request.params, request.headers, request.cookies, ...bodies]
}

/** Every route this router declares from now on validates its request synchronously first (see above). */
export function withSyncValidation<R extends OpenAPIHono<any>>(router: R): R {
  const declare = router.openapi
  router.openapi = ((route: { request?: RequestParts }, ...rest: unknown[]) => {
    for (const schema of requestSchemas(route.request)) preferSyncParse(schema)
    return (declare as (...a: unknown[]) => unknown)(route, ...rest)
  }) as R['openapi']
  return router
}
