import { z } from '@hono/zod-openapi'
import type { WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { resolveMailboxUser } from '../mailbox.ts'
import { findMessageRef, findMessageView } from '../store/messages.ts'
import { ensureMailbox } from '../store/mailbox.ts'
import { findMessageRefs } from '../store/message-batch.ts'

export const UserParam = z.object({ userId: z.string() })
export const UserIdParam = UserParam.extend({ id: z.string() })

/** A repeated query parameter (`?labelIds=A&labelIds=B`) as an array. */
export const repeated = () =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))

/** Gmail's boolean query flags (`true`/`false`). */
export const flag = () =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1')

/** maxResults: a positive integer; Gmail clamps large values to its cap. */
export const maxResults = (dflt: number, cap: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return dflt
      const n = Number(v)
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: 'maxResults', params: { googleType: 'TYPE_UINT32' } })
        return z.NEVER
      }
      return Math.min(n === 0 ? dflt : n, cap)
    })

/** The query of messages.list and threads.list. */
export const MailListQuery = z.object({
  q: z.string().optional(),
  labelIds: repeated(),
  maxResults: maxResults(100, 500),
  pageToken: z.string().optional(),
  includeSpamTrash: flag(),
})

export const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
})

/** The mailbox owner for a request (`me` or the caller's address), with its mailbox created on first use. */
export function mailboxOf(c: WorldContext, userId: string): WorldUserRow {
  const user = resolveMailboxUser(c, userId)
  ensureMailbox(c.var.world.db, user.id)
  return user
}

const GMAIL_ID = /^[0-9a-f]{1,16}$/i

/**
 * Looks a message up the way Gmail does (malformed ids are 400 "Invalid id value", unknown ones 404), reading the
 * columns messages.get renders: the raw bytes only for format=raw.
 */
export function requireMessageView(c: WorldContext, user: WorldUserRow, id: string, withRaw: boolean) {
  if (!GMAIL_ID.test(id)) throw badRequest('Invalid id value', 'invalidArgument')
  const row = findMessageView(c.var.world.db, user.id, id, withRaw)
  if (!row) throw notFound()
  return row
}

/** requireMessageView for callers that need only the id and thread (the message's bytes are not read). */
export function requireMessageRef(c: WorldContext, user: WorldUserRow, id: string) {
  if (!GMAIL_ID.test(id)) throw badRequest('Invalid id value', 'invalidArgument')
  const ref = findMessageRef(c.var.world.db, user.id, id)
  if (!ref) throw notFound()
  return ref
}

/** requireMessageRef for each of `ids` (already checked by checkIds), in one query: 404 if any is unknown. */
export function requireMessageRefs(c: WorldContext, user: WorldUserRow, ids: readonly string[]) {
  const found = findMessageRefs(c.var.world.db, user.id, ids)
  return ids.map((id) => {
    const ref = found.get(id)
    if (!ref) throw notFound()
    return ref
  })
}

export function checkIds(ids: readonly string[]) {
  for (const id of ids) if (!GMAIL_ID.test(id)) throw badRequest('Invalid id value', 'invalidArgument')
}
