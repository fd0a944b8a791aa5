import { identityServiceAccounts } from '../../envs/identity/schema.ts'
import { issueAccessToken } from '../../envs/identity/store/oauth.ts'
import { FULL_GOOGLE_SCOPES } from '../../envs/core/tokens.ts'
import type { Harness } from '../../envs/core/testing/harness.ts'

/** The service account `delegatedToken` registers (unique id = its OAuth client id). */
export const TEST_SERVICE_ACCOUNT = {
  email: 'settings-bot@test-project.iam.gserviceaccount.com',
  id: '100000000000000000042',
}

/**
 * An access token for `userId` as the JWT-bearer grant with `sub` issues it (a domain-wide-delegated service
 * account's): tests/sdk/service-accounts.test.ts goes through the grant itself; this skips the key signing.
 */
export function delegatedToken(h: Harness, userId: string, scopes: readonly string[] = FULL_GOOGLE_SCOPES): string {
  const { world, keys } = h.entry
  const sa = TEST_SERVICE_ACCOUNT
  world.tx((db) => {
    db.insert(identityServiceAccounts)
      .values({ email: sa.email, projectId: 'test-project', uniqueId: sa.id, displayName: '', description: '' })
      .onConflictDoNothing()
      .run()
    return undefined
  })
  return world.tx((db) => issueAccessToken(db, keys, userId, sa.id, [...scopes], null)).token
}
