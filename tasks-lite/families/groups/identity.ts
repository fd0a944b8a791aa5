import type { Family } from '../common.ts'
import { identityRevokeApp } from '../identity/revoke-app.ts'
import { identityOffboard } from '../identity/offboard.ts'
import { identityMailReaders } from '../identity/mail-readers.ts'
import { identityLeaverAutoReply } from '../identity/leaver-autoreply.ts'

/** The identity task families, in a stable order (their oracles: oracles/groups/identity.ts). */
export const identityFamilies: Family[] = [
  identityRevokeApp,
  identityOffboard,
  identityMailReaders,
  identityLeaverAutoReply,
]
