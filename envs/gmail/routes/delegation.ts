import type { WorldContext } from '../../core/http.ts'
import type { Db } from '../../core/db.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { deliverInternalMail } from '../deliver.ts'

/** Gmail's 403 to a user's own token on a method "only available to service account clients" with delegation. */
export const DELEGATION_ONLY = 'Access restricted to service accounts that have been delegated domain-wide authority'

/**
 * Refuses a token that is not a domain-wide-delegated service account's (a user's own token, an app's): the
 * sharing settings (send-as aliases, forwarding, delegates) are an administrator's tools in Gmail.
 */
export function requireDelegation(c: WorldContext): void {
  if (!c.var.principal?.serviceAccount) throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', DELEGATION_ONLY)
}

/**
 * Whether Gmail asks the owner of an address to confirm it: not for the account's own domain or its subdomains
 * (Google's forwarding guide), everything else starts `pending`.
 * Deviation: the workspace's domain aliases are not modelled; only the user's own domain counts.
 */
export function verificationStatusOf(user: WorldUserRow, email: string): 'accepted' | 'pending' {
  const domain = user.email.split('@')[1]!.toLowerCase()
  const their = email.split('@')[1]!.toLowerCase()
  return their === domain || their.endsWith(`.${domain}`) ? 'accepted' : 'pending'
}

/**
 * The confirmation mail Gmail sends to a `pending` address (it lands in a mailbox only when the address is a world
 * user's). Deviation: its confirmation link is not served, so a `pending` address stays pending.
 */
export function sendVerificationMail(db: Db, user: WorldUserRow, email: string, kind: 'forwarding' | 'sendAs') {
  const forwarding = kind === 'forwarding'
  deliverInternalMail(db, {
    from: { name: 'Gmail Team', email: forwarding ? 'forwarding-noreply@google.com' : 'mail-noreply@google.com' },
    to: [email],
    subject: forwarding
      ? `Gmail Forwarding Confirmation - Receive Mail from ${user.email}`
      : `Gmail Confirmation - Send Mail as ${email}`,
    text: forwarding
      ? `${user.email} has requested to automatically forward mail to your email address ${email}.`
      : `You have requested to add ${email} to your Gmail account ${user.email}.`,
  })
}
