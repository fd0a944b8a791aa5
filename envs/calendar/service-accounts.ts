import type { Db } from '../core/db.ts'
import { serviceAccountAsUser } from '../core/users.ts'
import { ensureOwnPrimary } from './store/access.ts'

/**
 * Bridge for the identity service: a service account's primary calendar, made when the account is made (seeding
 * `identity.serviceAccounts`), as Google gives every service account one (id and summary its email, zone UTC, in
 * its own calendar list alone, shared with nobody). Made there, not on the account's first Calendar request, so a
 * read never writes the world (docs/decisions/0410). Idempotent: an account made again keeps its calendar.
 */
export function createServiceAccountCalendar(db: Db, email: string, displayName = ''): void {
  ensureOwnPrimary(db, serviceAccountAsUser(email, displayName))
}
