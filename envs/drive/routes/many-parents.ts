import type { MiddlewareHandler } from 'hono'
import { GoogleApiError } from '../../core/errors/google.ts'

// A file has one parent, so a create body naming many `parents` is refused before the schema validator walks
// every entry (a million entries held the server for about 300 ms of CPU: docs/decisions/0391).

/** More entries than this in a create body's `parents` are refused at once. */
export const MAX_CREATE_PARENTS = 100

/** The media types whose body the route's validator reads as JSON (as envs/core/folded-validation.ts). */
const READS_JSON = /^application\/([\w.-]+\+)?json$/i

/**
 * Route middleware of files.create: a JSON body with more than MAX_CREATE_PARENTS `parents` gets Drive's answer
 * to a second parent. The parsed body is hono's cached one, so the validator does not parse it again; a body that
 * does not parse is left to the validator.
 */
// Deviation: Drive checks the body's other fields and each parent first; a list this long is refused before them.
export const refuseManyParents: MiddlewareHandler = async (c, next) => {
  const type = c.req.header('content-type')
  if (type && READS_JSON.test(type.split(';')[0]!.trim())) {
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return next()
    }
    const parents = (body as { parents?: unknown } | null)?.parents
    if (Array.isArray(parents) && parents.length > MAX_CREATE_PARENTS)
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'cannotAddParent',
        'Increasing the number of parents is not allowed.',
      )
  }
  return next()
}
