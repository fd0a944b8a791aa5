import type { Oracle } from '../types.ts'
import { revokeApp } from '../families/identity/revoke-app.ts'
import { offboard } from '../families/identity/offboard.ts'
import { mailReaders } from '../families/identity/mail-readers.ts'
import { leaverAutoReply } from '../families/identity/leaver-autoreply.ts'

/** Oracles of the identity task families (tasks-lite/families/groups/identity.ts), by id. */
export const identityOracles: Record<string, Oracle<any>> = {
  'identity-revoke-app': revokeApp,
  'identity-offboard': offboard,
  'identity-mail-readers': mailReaders,
  'identity-leaver-autoreply': leaverAutoReply,
}
