import type { WorldContext } from '../core/http.ts'
import type { WorldUserRow } from '../core/world-tables.ts'
import { GoogleApiError } from '../core/errors/google.ts'

/**
 * The mailbox a `userId` path parameter names: `me` or the caller's own address. Any other mailbox
 * is refused as Gmail refuses it (no domain-wide delegation in the mock).
 */
export function resolveMailboxUser(c: WorldContext, userId: string): WorldUserRow {
  const me = c.var.user
  if (userId === 'me' || userId.toLowerCase() === me.email.toLowerCase()) return me
  throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Delegation denied for ' + me.email)
}
