import { createHash } from 'node:crypto'
import { z } from 'zod'
import { getMeta } from '../core/clock.ts'
import type { Db } from '../core/db.ts'
import type { SeedContext } from '../core/service.ts'
import { identityDelegations, identityServiceAccounts } from './schema.ts'
import { normalizeScopes } from './store/oauth.ts'
import { createServiceAccountCalendar } from '../calendar/service-accounts.ts'
import { SA_EMAIL, addBinding, findServiceAccount, insertKey } from './store/service-accounts.ts'

const SeedServiceAccount = z.object({
  email: z.string().regex(SA_EMAIL, 'a service account address: <name>@<project>.iam.gserviceaccount.com'),
  displayName: z.string().default(''),
  description: z.string().default(''),
  disabled: z.boolean().default(false),
})
/** An IAM role binding on a project (`projects/<id>`) or a service account (its email). */
const SeedBinding = z.object({
  resource: z.string().min(1),
  role: z.enum([
    'roles/owner',
    'roles/editor',
    'roles/viewer',
    'roles/iam.serviceAccountTokenCreator',
    'roles/iam.serviceAccountKeyAdmin',
    'roles/iam.serviceAccountUser',
  ]),
  members: z.array(z.string()).min(1),
})
/** Domain-wide delegation: a service account (email) or client id, and the scopes the admin authorised for it. */
const SeedDelegation = z.object({ client: z.string().min(1), scopes: z.array(z.string()).min(1) })

export const serviceAccountSeedFields = {
  serviceAccounts: z.array(SeedServiceAccount).default([]),
  iamBindings: z.array(SeedBinding).default([]),
  delegations: z.array(SeedDelegation).default([]),
}
type Seed = {
  serviceAccounts: z.infer<typeof SeedServiceAccount>[]
  iamBindings: z.infer<typeof SeedBinding>[]
  delegations: z.infer<typeof SeedDelegation>[]
}

/** A service account's 21-digit unique id (also its OAuth client id), stable per seed. */
export function serviceAccountUniqueId(db: Db, email: string): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000service-account\u0000${email}`).digest()
  return `1${(h.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, '0')}`
}

/** Google rotates its own keys; ours are valid from a day before the world's start for ten years. */
const SYSTEM_KEY_DAYS = 3650

export function seedServiceAccounts(db: Db, seed: Seed, ctx: SeedContext): void {
  seed.serviceAccounts.forEach((s, i) => {
    const email = s.email.toLowerCase()
    if (findServiceAccount(db, email)) throw new Error(`identity.serviceAccounts[${i}].email: duplicate ${email}`)
    const projectId = SA_EMAIL.exec(email)![2]!
    db.insert(identityServiceAccounts)
      .values({
        email,
        projectId,
        uniqueId: serviceAccountUniqueId(db, email),
        displayName: s.displayName,
        description: s.description,
        disabled: s.disabled,
      })
      .run()
    insertKey(db, email, 'SYSTEM_MANAGED', ctx.nowMs - 86_400_000, ctx.nowMs + SYSTEM_KEY_DAYS * 86_400_000)
    // Google gives every service account a primary calendar when it is made (docs/decisions/0410).
    createServiceAccountCalendar(db, email, s.displayName)
  })
  seed.iamBindings.forEach((b, i) => {
    const path = `identity.iamBindings[${i}]`
    const onAccount = b.resource.includes('@')
    if (onAccount && !findServiceAccount(db, b.resource)) {
      throw new Error(`${path}.resource: no service account ${b.resource}`)
    }
    if (!onAccount && !/^projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(b.resource)) {
      throw new Error(`${path}.resource: a service account's email or projects/<id>`)
    }
    b.members.forEach((m, j) => {
      const user = ctx.user(m, `${path}.members[${j}]`)
      addBinding(db, onAccount ? b.resource.toLowerCase() : b.resource, b.role, user.id)
    })
  })
  seed.delegations.forEach((d, i) => {
    const sa = d.client.includes('@') ? findServiceAccount(db, d.client) : undefined
    if (d.client.includes('@') && !sa) {
      throw new Error(`identity.delegations[${i}].client: no service account ${d.client}`)
    }
    const clientId = sa?.uniqueId ?? d.client
    const scopes = normalizeScopes(d.scopes).join(' ')
    db.insert(identityDelegations)
      .values({ clientId, scopes })
      .onConflictDoUpdate({ target: identityDelegations.clientId, set: { scopes } })
      .run()
  })
}
