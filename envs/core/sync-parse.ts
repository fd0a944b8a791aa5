import { z } from 'zod'

// Hono's zod validator parses every request part with `safeParseAsync`, which costs several times a synchronous
// parse even when the schema has nothing asynchronous. Route schemas here are pure (no async refinements or
// transforms), so their validators parse synchronously first; a schema that does reach something asynchronous
// makes zod throw `$ZodAsyncError` before any result exists, and then the original asynchronous parse runs.
// Results are the same objects either way (same data, same issues), so responses do not change.

/** Each patched schema's synchronous parse: zod's answer, or undefined where only an asynchronous one gives it. */
const syncParses = new WeakMap<object, SyncParse>()

type Parser = { safeParse: z.ZodType['safeParse']; safeParseAsync: z.ZodType['safeParseAsync'] }
type ParseResult = ReturnType<z.ZodType['safeParse']>
type SyncParse = (data: unknown, params?: Parameters<z.ZodType['safeParse']>[1]) => ParseResult | undefined

/** Makes one schema's `safeParseAsync` try the synchronous parse first (once per schema; idempotent). */
export function preferSyncParse(schema: unknown): void {
  if (!(schema instanceof z.ZodType) || syncParses.has(schema)) return
  const s = schema as unknown as Parser
  const original = s.safeParseAsync
  let plain: PlainFields | null | undefined
  // Whether zod answered an empty plain object with success and an empty object (undefined: not asked yet).
  let emptyIsEmpty: boolean | undefined
  const parseNow: SyncParse = (data, params) => {
    // Worked out on the first parse, when every schema a getter names exists.
    if (plain === undefined) plain = plainFields(schema)
    const quick = plain && plainParse(plain, data)
    if (quick) return quick as ParseResult
    const empty = isEmptyPlainObject(data)
    if (empty && emptyIsEmpty) return { success: true, data: {} } as ParseResult
    try {
      const result = s.safeParse(data, params)
      if (empty && emptyIsEmpty === undefined) emptyIsEmpty = result.success && isEmptyPlainObject(result.data)
      return result
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return undefined
      throw error
    }
  }
  syncParses.set(schema, parseNow)
  s.safeParseAsync = async (data, params) => parseNow(data, params) ?? original(data, params)
}

/**
 * What `schema.safeParseAsync(data)` resolves to, given now: for a schema `preferSyncParse` patched whose parse
 * needs nothing asynchronous. Undefined otherwise (then the caller awaits `safeParseAsync`).
 */
export function parseNow(schema: unknown, data: unknown): ParseResult | undefined {
  return syncParses.get(schema as object)?.(data)
}

/**
 * A plain object without keys (a request part that names nothing, a query string without parameters, say). Route
 * schemas are pure (no state, time or randomness in their checks and transforms), so zod answers every such object
 * as it answered the first: when that was success with an empty object, the next ones get a new empty object
 * without running zod.
 */
function isEmptyPlainObject(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || Object.getPrototypeOf(data) !== Object.prototype) return false
  for (const _ in data) return false
  return true
}

/**
 * An object schema's keys in shape order, each one an optional plain string or boolean, or an optional object whose
 * own keys are such (its PlainFields; see plainFields).
 */
type PlainFields = { keys: string[]; types: Map<string, PlainType>; required: Set<string> }
type PlainType = 'string' | 'boolean' | PlainFields | QuickField

/**
 * A field's answer without zod: the value zod's parse of `v` gives, or NOT_QUICK where zod must decide (an invalid
 * value, or one the function does not know). Only for a key whose absence zod answers with no key.
 */
export type QuickField = (v: unknown) => unknown
export const NOT_QUICK: unique symbol = Symbol('not quick')
const quickFields = new WeakMap<object, QuickField>()

/**
 * Declares `quick` as `schema`'s parse for the values it answers (a transform or refinement zod would run, say): an
 * object holding such a key then keeps the synchronous plain path. The caller vouches that `quick` answers exactly
 * what zod answers wherever it does not give NOT_QUICK, and that an absent key parses to an absent key.
 */
export function quickField<T extends z.ZodType>(schema: T, quick: QuickField): T {
  quickFields.set(schema, quick)
  return schema
}

/** `z.enum([...]).optional()`'s inner enum of strings: its values pass as they are, anything else goes to zod. */
function enumField(def: { type: string; entries?: Record<string, unknown> }): QuickField | null {
  if (def.type !== 'enum' || !def.entries) return null
  const values = new Set(Object.values(def.entries))
  for (const v of values) if (typeof v !== 'string') return null
  return (v) => (typeof v === 'string' && values.has(v) ? v : NOT_QUICK)
}

/**
 * The keys of a `z.object` (no catchall) whose schema is `z.string().optional()` or `z.boolean().optional()`
 * without checks, coercion or transforms, or the `.optional()` of such an object without checks of its own, or a
 * required `z.string()` or `z.boolean()` without checks or coercion (path parameters), in the shape's order; null
 * when there are none, when it is not such an object, or when any other key is not plainly optional (required,
 * defaulted, or optional through a transform): an absent key then means something other than nothing.
 * Also an optional enum of strings, and any key whose schema was declared with `quickField`: each answers its
 * valid values itself and hands the rest to zod.
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
  const required = new Set<string>()
  for (const key of Object.keys(shape)) {
    const value = shape[key]
    const quick = value && quickFields.get(value)
    if (quick) {
      keys.push(key)
      types.set(key, quick)
      continue
    }
    if (value && value._zod.optin === undefined && value._zod.optout === undefined) {
      const type = plainScalar(value._zod.def as ScalarDef)
      if (!type) return null
      keys.push(key)
      types.set(key, type)
      required.add(key)
      continue
    }
    if (value?._zod.optin !== 'optional' || value._zod.optout !== 'optional') return null
    const outer = value._zod.def as { type: string; innerType?: z.ZodType }
    if (outer.type !== 'optional' || !outer.innerType) continue
    const inner = outer.innerType._zod.def as ScalarDef
    if (inner.checks?.length || inner.coerce) continue
    const type =
      plainScalar(inner) ?? enumField(inner) ?? (inner.type === 'object' ? plainFields(outer.innerType, within) : null)
    if (!type) continue
    keys.push(key)
    types.set(key, type)
  }
  return keys.length ? { keys, types, required } : null
}

type ScalarDef = { type: string; checks?: unknown[]; coerce?: boolean; entries?: Record<string, unknown> }

/** 'string' or 'boolean' for such a schema without checks or coercion. */
function plainScalar(def: ScalarDef): 'string' | 'boolean' | null {
  if (def.checks?.length || def.coerce) return null
  return def.type === 'string' || def.type === 'boolean' ? def.type : null
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
    if (typeof type === 'object' || typeof type === 'function') nested = true
    else if (typeof given[key] !== type) return undefined
    count++
  }
  // A required key that is absent: zod says so.
  if (plain.required.size && !hasAll(given, plain.required)) return undefined
  const out: Record<string, unknown> = {}
  if (!count) return out
  for (const key of plain.keys) {
    if (!Object.hasOwn(given, key)) continue
    const type = plain.types.get(key)!
    if (!nested || typeof type === 'string') out[key] = given[key]
    else if (typeof type === 'function') {
      if ((out[key] = type(given[key])) === NOT_QUICK) return undefined
    } else if ((out[key] = plainObject(type, given[key])) === undefined) return undefined
  }
  return out
}

function hasAll(given: Record<string, unknown>, keys: Set<string>): boolean {
  for (const key of keys) if (!Object.hasOwn(given, key)) return false
  return true
}
