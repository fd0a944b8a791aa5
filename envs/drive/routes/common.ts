import { z } from '@hono/zod-openapi'
import type { WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { atLeast, type BareFileRow, effectiveRole, findBareFile, type Role } from '../store/files.ts'
import type { FileRow } from '../schema.ts'

export const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
export const jsonBody = <T extends z.ZodType>(schema: T, required = true) => ({
  required,
  content: { 'application/json': { schema } },
})
export const bool = () =>
  z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))

/** Drive's 404 for a file the caller cannot see (the same answer whether it exists or not). */
export const fileNotFound = (id: string) =>
  new GoogleApiError('NOT_FOUND', 'notFound', `File not found: ${id}.`, {
    location: 'fileId',
    locationType: 'parameter',
  })

export const insufficient = () =>
  new GoogleApiError(
    'PERMISSION_DENIED',
    'insufficientFilePermissions',
    'The user does not have sufficient permissions for this file.',
  )

/** The file, if the caller holds at least `role` on it; 404 when invisible, 403 when visible but not enough. */
export function requireFile(c: WorldContext, id: string, role: Role = 'reader'): BareFileRow {
  const db = c.var.world.db
  // Without content and full text: a caller that serves the bytes reads them on their own (0416).
  const row = findBareFile(db, id)
  const have = row ? effectiveRole(db, id, c.var.user.id, { row, user: c.var.user }) : 'none'
  if (!row || have === 'none') throw fileNotFound(id)
  if (!atLeast(have, role)) throw insufficient()
  return row
}

/** Drive answers only `kind,id,name,mimeType` unless `fields` asks for more. */
/** What Drive answers for a file when the request has no `fields`. */
export const FILE_DEFAULT_FIELDS = ['kind', 'id', 'name', 'mimeType']

const DEFAULT_FIELD_SET: ReadonlySet<string> = new Set(FILE_DEFAULT_FIELDS)

/**
 * The top-level File fields a file response keeps, for `toFile`'s `only`: the default ones without `fields`
 * (withDefaultFields keeps those), undefined (all) with it.
 */
export const fileFieldsKept = (c: WorldContext): ReadonlySet<string> | undefined =>
  c.req.query('fields') ? undefined : DEFAULT_FIELD_SET

export function withDefaultFields(c: WorldContext, full: Record<string, unknown>, keys: string[]) {
  if (c.req.query('fields')) return full
  return Object.fromEntries(keys.filter((k) => k in full).map((k) => [k, full[k]]))
}

/** Like requireFile, for methods taking `supportsAllDrives`: shared drive items stay invisible without it. */
export function requireItem(c: WorldContext, id: string, role: Role = 'reader'): BareFileRow {
  const row = requireFile(c, id, role)
  if (row.driveId && !supportsAllDrives(c)) throw fileNotFound(id)
  return row
}

export const supportsAllDrives = (c: WorldContext) =>
  c.req.query('supportsAllDrives') === 'true' || c.req.query('supportsTeamDrives') === 'true'

/** Drive v3 insists on `fields` for about.get and every comments and replies method. */
export function requireFields(c: WorldContext) {
  if (c.req.query('fields')) return
  throw new GoogleApiError('INVALID_ARGUMENT', 'required', "The 'fields' parameter is required for this method.", {
    location: 'fields',
    locationType: 'parameter',
  })
}
