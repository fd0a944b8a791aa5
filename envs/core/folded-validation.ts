import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler, Next } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { z } from 'zod'
import { parseNow, preferSyncParse } from './sync-parse.ts'

// @hono/zod-openapi's `openapi()` puts one validator middleware per request part in front of a route's handler
// (query, path parameters, a media-type gate, the JSON body), each an async middleware of its own with its own
// awaits, all sharing hono's validator function literal (docs/decisions/0348). `foldValidators` registers the same
// route with one middleware that checks the same parts in the same order, with the same values, hook calls and
// errors: the library's own gate still decides every request that comes without a Content-Type (it reads the
// body), and a route shaped otherwise (header or cookie parameters, a body that is not one JSON media type) is
// registered by the library as before.

export type Hook = (result: unknown, c: Context) => unknown
type ParseResult = { success: boolean; data?: unknown; error?: unknown }
type Part = { target: 'query' | 'param'; schema: z.ZodType }
export type RouteConfigLike = {
  method: string
  path: string
  middleware?: unknown
  request?: { query?: unknown; params?: unknown; headers?: unknown; cookies?: unknown; body?: unknown }
}
type BodyConfig = { required?: boolean; content?: Record<string, { schema?: unknown } | undefined> }

/** What one folded middleware checks: the query and path parts, then a JSON body (required or optional). */
type Plan = { parts: Part[]; body: { schema: z.ZodType; required: boolean } | undefined; middleware: number }

/** A zod schema as @hono/zod-openapi tells one (it has the four parse methods). */
const isZod = (x: unknown): x is z.ZodType =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as z.ZodType).parse === 'function' &&
  typeof (x as z.ZodType).safeParse === 'function' &&
  typeof (x as z.ZodType).parseAsync === 'function' &&
  typeof (x as z.ZodType).safeParseAsync === 'function'

/** The plan for a route, or undefined when the library should register it itself. */
function planOf(route: RouteConfigLike): Plan | undefined {
  const request = route.request
  if (request?.headers || request?.cookies) return undefined
  const parts: Part[] = []
  if (request?.query) parts.push({ target: 'query', schema: request.query as z.ZodType })
  if (request?.params) parts.push({ target: 'param', schema: request.params as z.ZodType })
  const middleware = route.middleware ? (Array.isArray(route.middleware) ? route.middleware.length : 1) : 0
  const content = (request?.body as BodyConfig | undefined)?.content
  if (!content) return { parts, body: undefined, middleware }
  const types = Object.keys(content)
  if (types.length !== 1 || types[0] !== 'application/json') return undefined
  const schema = content['application/json']?.schema
  if (!isZod(schema)) return undefined
  return { parts, body: { schema, required: !!(request?.body as BodyConfig).required }, middleware }
}

/** `application/json`, `application/*+json` with any parameters: what the gate of a JSON media type accepts. */
const GATE_JSON = /^application\/([a-z.-]+\+)?json(;\s*[a-z0-9-]+=([^;]+))*$/i
/** A JSON content type as the library tells an optional body's (a prefix). */
const JSON_PREFIX = /^application\/([a-z.-]+\+)?json/i
/** The media type (before any parameter, trimmed, lower case) for which hono's validator reads a JSON body. */
const READS_JSON = /^application\/([\w.-]+\+)?json$/i

const NOTHING: Next = async () => {}

/**
 * The validated value of one part, as @hono/zod-validator answers it: the hook's Response (or `response`) when it
 * gives one, a 400 with the result on failure, else the parsed data.
 */
function answerOf(hooked: unknown, result: ParseResult, c: Context): unknown {
  if (hooked) {
    if (hooked instanceof Response) return hooked
    if ('response' in (hooked as object)) return (hooked as { response: unknown }).response
  }
  if (!result.success) return c.json(result, 400)
  return result.data
}

/** Parses `value` (synchronously when the schema allows), calls the hook and stores the part's validated data. */
async function checkPart(c: Context, target: string, schema: z.ZodType, value: unknown, hook: Hook) {
  const result = (parseNow(schema, value) ?? (await schema.safeParseAsync(value))) as ParseResult
  let hooked = hook({ data: value, ...result, target }, c)
  if (isThenable(hooked)) hooked = await hooked
  const answer = answerOf(hooked, result, c)
  if (answer instanceof Response) return answer
  c.req.addValidatedData(target as 'json', answer as never)
  return undefined
}

/** The same check without a promise when the parse and the hook need none (most requests). */
function checkPartNow(c: Context, target: string, schema: z.ZodType, value: unknown, hook: Hook) {
  const result = parseNow(schema, value) as ParseResult | undefined
  if (!result) return checkPart(c, target, schema, value, hook)
  const hooked = hook({ data: value, ...result, target }, c)
  if (isThenable(hooked)) return finishPart(c, target, result, hooked)
  const answer = answerOf(hooked, result, c)
  if (answer instanceof Response) return answer
  c.req.addValidatedData(target as 'json', answer as never)
  return undefined
}

/** What `await` would wait for (a promise or any other thenable). */
function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (
    (typeof x === 'object' || typeof x === 'function') &&
    x !== null &&
    typeof (x as PromiseLike<unknown>).then === 'function'
  )
}

async function finishPart(c: Context, target: string, result: ParseResult, hooked: PromiseLike<unknown>) {
  const answer = answerOf(await hooked, result, c)
  if (answer instanceof Response) return answer
  c.req.addValidatedData(target as 'json', answer as never)
  return undefined
}

/** The query as hono's validator hands it over: a key given once is a string, given more often an array. */
function queryValue(c: Context) {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => (v.length === 1 ? [k, v[0]] : [k, v])))
}

/**
 * One middleware for the plan's parts. `gate` is the library's own media-type gate of the route; the hook is the
 * route's, else the router's default hook read per request. The hook is read as a value, not through a function
 * of the route: one literal serves every route, and V8 optimizes its code for the function it calls there, so a
 * per-route function threw that code away at the second route called (docs/decisions/0426).
 */
function foldedMiddleware(
  plan: Plan,
  gate: MiddlewareHandler | undefined,
  routeHook: Hook | undefined,
  router: Routable,
): MiddlewareHandler {
  const { parts, body } = plan
  return async (c, next) => {
    const hook = routeHook ?? router.defaultHook!
    for (const part of parts) {
      const value = part.target === 'query' ? queryValue(c) : c.req.param()
      let answer = checkPartNow(c, part.target, part.schema, value, hook)
      if (answer instanceof Promise) answer = await answer
      if (answer) return answer
    }
    if (!body) return next()
    const type = c.req.header('content-type')
    if (!type) await gate!(c, NOTHING)
    else if (!GATE_JSON.test(type)) throw new HTTPException(415, { message: 'Unsupported Media Type' })
    if (!body.required && !(type && JSON_PREFIX.test(type))) {
      c.req.addValidatedData('json', {} as never)
      return next()
    }
    let value: unknown = {}
    if (type && READS_JSON.test(type.split(';')[0]!.trim().toLowerCase())) {
      try {
        value = await c.req.json()
      } catch {
        throw new HTTPException(400, { message: 'Malformed JSON in request body' })
      }
    }
    let answer = checkPartNow(c, 'json', body.schema, value, hook)
    if (answer instanceof Promise) answer = await answer
    if (answer) return answer
    return next()
  }
}

export type OpenApi = (route: RouteConfigLike, handler: unknown, hook?: Hook) => unknown
export type Routable = { on: (...args: unknown[]) => unknown; defaultHook?: Hook }

/**
 * Declares `route` through `declare` (the router's own `openapi`: the OpenAPI registry, the method and path as
 * it registers them), with the validators it would put in front of the handler replaced by one folded middleware.
 * Validation answers as before: the per-route hook, else the router's default hook, read per request as the
 * library reads it. A router without a default hook, or a route the plan does not cover, is declared as before.
 */
export function declareFolded(
  router: Routable,
  declare: OpenApi,
  route: RouteConfigLike,
  handler: unknown,
  hook?: Hook,
) {
  const plan = planOf(route)
  if (!plan || (!hook && !router.defaultHook)) return declare(route, handler, hook)
  const validators = plan.parts.length + (plan.body ? 2 : 0)
  const on = router.on
  router.on = (methods: unknown, paths: unknown, ...handlers: unknown[]) => {
    router.on = on
    // [...route middleware, ...validators, handler]: anything else is registered as the library gave it.
    if (handlers.length !== plan.middleware + validators + 1) return on(methods, paths, ...handlers)
    const mine = handlers.slice(plan.middleware, -1) as MiddlewareHandler[]
    const gate = plan.body ? mine[plan.parts.length] : undefined
    const folded = foldedMiddleware(plan, gate, hook, router)
    return on(methods, paths, ...handlers.slice(0, plan.middleware), folded, handlers[handlers.length - 1])
  }
  try {
    return declare(route, handler, hook)
  } finally {
    router.on = on
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

/**
 * Every route this router declares from now on validates its request synchronously first (envs/core/sync-parse.ts),
 * in one middleware (above).
 */
export function withSyncValidation<R extends OpenAPIHono<any>>(router: R): R {
  const declare = router.openapi
  router.openapi = ((route: RouteConfigLike, handler: unknown, hook?: Hook) => {
    for (const schema of requestSchemas(route.request as RequestParts)) preferSyncParse(schema)
    return declareFolded(router as unknown as Routable, declare as unknown as OpenApi, route, handler, hook)
  }) as R['openapi']
  return router
}
