/**
 * JSON Schemas a model provider accepts: self-contained (no `$ref`, no `$defs`), bounded in depth and size, and a
 * strict-mode variant (every property required, optional ones nullable, no open objects) where the schema allows it.
 */
import { z } from 'zod'

export type JsonSchema = Record<string, unknown>

/** Nesting of objects kept in a request body schema; deeper objects are offered as free-form objects. */
const MAX_OBJECT_DEPTH = 3
/** Property descriptions are kept down to this depth (deeper ones cost tokens and rarely help a model). */
const MAX_DESCRIBED_DEPTH = 1
const MAX_PROP_DESC = 200

const FREE_OBJECT = (what: string): JsonSchema => ({
  type: 'object',
  description: `${what} (free-form JSON object, as the API reference documents it)`,
  additionalProperties: true,
})

/** A zod schema as a self-contained JSON Schema fit for a tool's parameters. */
export function zodToToolSchema(schema: z.ZodType): JsonSchema {
  let js: JsonSchema
  try {
    js = z.toJSONSchema(schema, { unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema
  } catch {
    return FREE_OBJECT('Request body')
  }
  const defs = { ...((js.$defs ?? js.definitions ?? {}) as Record<string, JsonSchema>) }
  return inline(js, defs, 0, new Set(), 'Request body')
}

/** Resolves local `$ref`s (recursion becomes a free-form object), drops `$schema`/`$defs`, trims depth and text. */
function inline(
  node: JsonSchema,
  defs: Record<string, JsonSchema>,
  depth: number,
  stack: Set<string>,
  what: string,
): JsonSchema {
  if (typeof node.$ref === 'string') {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref)?.[1]
    const target = name ? defs[name] : undefined
    if (!target || stack.has(name!)) return FREE_OBJECT(String(node.description ?? what))
    const { $ref: _ref, ...rest } = node
    return inline({ ...target, ...rest }, defs, depth, new Set([...stack, name!]), what)
  }
  const out: JsonSchema = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' || k === '$defs' || k === 'definitions' || k === '$id' || k === 'id') continue
    if (k === 'description') {
      if (depth <= MAX_DESCRIBED_DEPTH && typeof v === 'string' && v)
        out.description = v.length > MAX_PROP_DESC ? `${v.slice(0, MAX_PROP_DESC - 1)}…` : v
      continue
    }
    if (k === 'properties' && v && typeof v === 'object') {
      if (depth >= MAX_OBJECT_DEPTH) return FREE_OBJECT(String(node.description ?? what))
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, JsonSchema>).map(([p, s]) => [p, inline(s, defs, depth + 1, stack, p)]),
      )
      continue
    }
    if ((k === 'items' || k === 'additionalProperties' || k === 'not') && v && typeof v === 'object') {
      out[k] = inline(v as JsonSchema, defs, depth + 1, stack, what)
      continue
    }
    if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf') && Array.isArray(v)) {
      out[k] = v.map((s: JsonSchema) => inline(s, defs, depth, stack, what))
      continue
    }
    out[k] = v
  }
  // `{}` (any value) stays as is; an object with no declared shape is free-form.
  return out
}

/**
 * The strict-mode variant (OpenAI `strict: true` rules): every object lists all its properties as required and
 * sets `additionalProperties: false`; optional properties accept `null` (null means "absent" to the gym). Returns
 * undefined when the schema has a part strict mode cannot express (a free-form object, an untyped value).
 */
export function strictSchema(schema: JsonSchema): JsonSchema | undefined {
  try {
    return toStrict(schema, true)
  } catch {
    return undefined
  }
}

const UNSUPPORTED = new Set([
  'default',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'propertyNames',
])

function toStrict(node: JsonSchema, required: boolean): JsonSchema {
  if (node.anyOf || node.oneOf || node.allOf) {
    const list = (node.anyOf ?? node.oneOf ?? node.allOf) as JsonSchema[]
    const out: JsonSchema = { anyOf: list.map((s) => toStrict(s, true)) }
    if (typeof node.description === 'string') out.description = node.description
    if (!required) (out.anyOf as JsonSchema[]).push({ type: 'null' })
    return out
  }
  const type = node.type
  if (typeof type !== 'string' && !node.enum && node.const === undefined) throw new Error('untyped value')
  const out: JsonSchema = {}
  for (const [k, v] of Object.entries(node)) {
    if (UNSUPPORTED.has(k) || k === 'properties' || k === 'required' || k === 'additionalProperties' || k === 'items')
      continue
    out[k] = v
  }
  if (type === 'object') {
    const props = (node.properties ?? {}) as Record<string, JsonSchema>
    if (
      !Object.keys(props).length ||
      node.additionalProperties === true ||
      (node.additionalProperties && typeof node.additionalProperties === 'object')
    )
      throw new Error('free-form object')
    const req = new Set((node.required ?? []) as string[])
    out.properties = Object.fromEntries(Object.entries(props).map(([p, s]) => [p, toStrict(s, req.has(p))]))
    out.required = Object.keys(props)
    out.additionalProperties = false
  } else if (type === 'array') {
    if (!node.items || typeof node.items !== 'object') throw new Error('untyped array')
    out.items = toStrict(node.items as JsonSchema, true)
  }
  if (!required) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null]
  }
  return out
}

/** Removes `null` values (strict-mode models send null for "not given"); arrays keep their length. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, dropNulls(v)]),
    )
  }
  return value
}

/** Rough token count of a JSON value (≈ 4 characters per token, the usual estimate for English and JSON). */
export const approxTokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4)
