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
  let plain: PlainFields | null | undefined
  s.safeParseAsync = async (data, params) => {
    // Worked out on the first parse, when every schema a getter names exists.
    if (plain === undefined) plain = plainFields(schema)
    const quick = plain && plainParse(plain, data)
    if (quick) return quick as never
    try {
      return s.safeParse(data, params)
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return original(data, params)
      throw error
    }
  }
}

/**
 * An object schema's keys in shape order, each one an optional plain string or boolean, or an optional object whose
 * own keys are such (its PlainFields; see plainFields).
 */
type PlainFields = { keys: string[]; types: Map<string, PlainType> }
type PlainType = 'string' | 'boolean' | PlainFields

/**
 * The keys of a `z.object` (no catchall) whose schema is `z.string().optional()` or `z.boolean().optional()`
 * without checks, coercion or transforms, or the `.optional()` of such an object without checks of its own, in the
 * shape's order; null when there are none, when it is not such an object, or when any key is not plainly optional
 * (required, defaulted, or optional through a transform): an absent key then means something other than nothing.
 * `within` holds the object schemas being read (a schema that contains itself is not plain where it recurs).
 */
function plainFields(schema: z.ZodType, within: Set<object> = new Set()): PlainFields | null {
  const def = schema._zod.def as { type: string; shape?: Record<string, z.ZodType>; catchall?: unknown }
  if (def.type !== 'object' || def.catchall !== undefined || !def.shape || within.has(schema)) return null
  within.add(schema)
  try {
    return plainKeys(def.shape, within)
  } finally {
    within.delete(schema)
  }
}

function plainKeys(shape: Record<string, z.ZodType>, within: Set<object>): PlainFields | null {
  const keys: string[] = []
  const types = new Map<string, PlainType>()
  for (const key of Object.keys(shape)) {
    const value = shape[key]
    if (value?._zod.optin !== 'optional' || value._zod.optout !== 'optional') return null
    const outer = value._zod.def as { type: string; innerType?: z.ZodType }
    if (outer.type !== 'optional' || !outer.innerType) continue
    const inner = outer.innerType._zod.def as { type: string; checks?: unknown[]; coerce?: boolean }
    if (inner.checks?.length || inner.coerce) continue
    const type = inner.type === 'string' || inner.type === 'boolean' ? inner.type
      : inner.type === 'object' ? plainFields(outer.innerType, within) : null
    if (!type) continue
    keys.push(key)
    types.set(key, type)
  }
  return keys.length ? { keys, types } : null
}

/**
 * What zod's `safeParse` gives for `data` when `data` is a plain object holding only plain fields, each of its
 * type (an object field: a plain object holding only its own plain fields, and so on): success, with new objects of
 * those fields in their shapes' order (zod's object parse writes present keys in that order into a new object, and
 * nothing is stripped or transformed). Undefined for anything else, which zod then parses.
 */
function plainParse(plain: PlainFields, data: unknown): { success: true; data: Record<string, unknown> } | undefined {
  const out = plainObject(plain, data)
  return out && { success: true, data: out }
}

function plainObject(plain: PlainFields, data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined
  if (Object.getPrototypeOf(data) !== Object.prototype) return undefined
  const given = data as Record<string, unknown>
  let count = 0
  let nested = false
  for (const key in given) {
    if (!Object.hasOwn(given, key)) return undefined
    const type = plain.types.get(key)
    if (type === undefined) return undefined
    if (typeof type === 'object') nested = true
    else if (typeof given[key] !== type) return undefined
    count++
  }
  const out: Record<string, unknown> = {}
  if (!count) return out
  for (const key of plain.keys) {
    if (!Object.hasOwn(given, key)) continue
    const type = plain.types.get(key)!
    if (!nested || typeof type !== 'object') out[key] = given[key]
    else if ((out[key] = plainObject(type, given[key])) === undefined) return undefined
  }
  return out
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
