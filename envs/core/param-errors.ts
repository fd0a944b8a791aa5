import { z } from 'zod'
import { GoogleApiError } from './errors/google.ts'

// Google's 400s for a request value the front end refuses, in Google's words rather than zod's
// (docs/decisions/0378 gives the evidence for each wording):
// - a number outside the declared bounds: `Invalid value '1001'. Values must be within the range: [1, 1000]`,
//   reason `invalidParameter` (the API front end's range check);
// - a value the proto layer cannot read as the field's type (Gmail, Drive, Docs):
//   `Invalid value at 'page_size' (TYPE_INT32), "NOPE"`, reason `invalid`;
// - Calendar (the older front end, no `$.xgafv`): `Invalid Value` for a query value, `Invalid value for: …` for
//   a body value.

export const INT32_MIN = -2147483648
export const INT32_MAX = 2147483647

/** The proto scalar a query parameter is read as, for the typed-value refusal. */
export type ProtoType = 'TYPE_INT32' | 'TYPE_UINT32' | 'TYPE_BOOL'
/** What a schema attaches to a custom issue (`params`) so the refusal names Google's text. */
export type ParamIssue = { googleRange?: [number, number]; googleType?: ProtoType }
/** Which front end answers: the proto layer's texts (Gmail, Drive, Docs, IAM) or the older one (Calendar, Admin). */
export type ParamStyle = 'proto' | 'legacy'

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const BOOL_WORDS = new Set(['true', 'false', '1', '0'])

type Issue = z.core.$ZodIssue
type Kind =
  | { kind: 'range'; min: number; max: number }
  | { kind: 'typed'; type: ProtoType }
  | { kind: 'enum' }
  | { kind: 'other' }

/** What went wrong with one query value, read from the zod issue (never its message). */
function kindOf(issue: Issue | undefined): Kind {
  if (!issue) return { kind: 'other' }
  const params = (issue as { params?: ParamIssue }).params
  if (params?.googleRange) return { kind: 'range', min: params.googleRange[0], max: params.googleRange[1] }
  if (params?.googleType) return { kind: 'typed', type: params.googleType }
  if ((issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'number') {
    const bound = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum)
    return issue.code === 'too_big'
      ? { kind: 'range', min: INT32_MIN, max: bound }
      : { kind: 'range', min: bound, max: INT32_MAX }
  }
  if (issue.code === 'invalid_value') {
    const values = issue.values.map(String)
    return values.length > 0 && values.every((v) => BOOL_WORDS.has(v))
      ? { kind: 'typed', type: 'TYPE_BOOL' }
      : { kind: 'enum' }
  }
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int')) {
    return { kind: 'typed', type: 'TYPE_INT32' }
  }
  return { kind: 'other' }
}

/** The 400 for a number outside `[min, max]`, as the front end words its range check. */
export function rangeError(name: string, raw: string, min: number, max: number): GoogleApiError {
  return new GoogleApiError(
    'INVALID_ARGUMENT',
    'invalidParameter',
    `Invalid value '${raw}'. Values must be within the range: [${min}, ${max}]`,
    { location: name, locationType: 'parameter' },
  )
}

/** The 400 for a query (or path) value `raw` of parameter `name` that its schema refused with `issue`. */
export function queryParamError(issue: Issue | undefined, name: string, raw: string, style: ParamStyle) {
  const kind = kindOf(issue)
  const where = { location: name, locationType: 'parameter' }
  if (kind.kind === 'range') return rangeError(name, raw, kind.min, kind.max)
  if (style === 'legacy') return new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Value', where)
  const type = kind.kind === 'typed' ? ` (${kind.type})` : ''
  const message = `Invalid value at '${snake(name)}'${type}, "${raw}"`
  // The proto layer names the field it could not read in a google.rpc.BadRequest detail (backlot#337).
  const violation = kind.kind === 'typed' ? { field: snake(name) } : undefined
  return new GoogleApiError('INVALID_ARGUMENT', 'invalid', message, { ...where, violation })
}

/** The value at `path` inside a parsed JSON body (undefined when absent). */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined
  return v
}

/** The 400 for a JSON body its schema refused: the proto layer's words, or Calendar's older ones. */
export function bodyError(issue: Issue | undefined, body: unknown, style: ParamStyle): GoogleApiError {
  const path = issue?.path ?? []
  if (path.length === 0 && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    return new GoogleApiError(
      'INVALID_ARGUMENT',
      'invalid',
      'Invalid JSON payload received. Unknown name "": Root element must be a message.',
    )
  }
  const where = path.map(String).join('.')
  const shown = JSON.stringify(valueAt(body, path)) ?? 'null'
  const message =
    style === 'legacy' ? `Invalid value for: ${shown} is not a valid value` : `Invalid value at '${where}', ${shown}`
  return new GoogleApiError('INVALID_ARGUMENT', 'invalid', message)
}

const INTEGER = /^-?\d+$/

/**
 * An integer query parameter in `[min, max]` (`dflt` when absent): a value that is not an integer is the typed
 * refusal, one out of bounds the range refusal. Values above `cap` (when given) are served as `cap`, as Gmail and
 * Calendar do with page sizes past their documented maximum.
 */
export const intParam = <D extends number | undefined = undefined>(opts: {
  min: number
  max?: number
  dflt?: D
  cap?: number
  type?: ProtoType
}) =>
  z
    .string()
    .optional()
    .transform((v, ctx): number | D => {
      if (v === undefined) return opts.dflt as D
      if (!INTEGER.test(v)) {
        ctx.addIssue({ code: 'custom', message: 'integer', params: { googleType: opts.type ?? 'TYPE_INT32' } })
        return z.NEVER
      }
      const n = Number(v)
      const max = opts.max ?? INT32_MAX
      if (n < opts.min || n > max) {
        ctx.addIssue({ code: 'custom', message: 'range', params: { googleRange: [opts.min, max] } })
        return z.NEVER
      }
      return opts.cap !== undefined ? Math.min(n, opts.cap) : n
    })
