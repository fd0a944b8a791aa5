import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { getMeta } from '../core/clock.ts'
import type { Db } from '../core/db.ts'
import { SeedTime } from '../core/seed-types.ts'
import type { SeedContext } from '../core/service.ts'
import { worldTokens } from '../core/world-tables.ts'
import type { World } from '../core/world.ts'
import { identityClients, identityGrants } from './schema.ts'
import { normalizeScopes } from './store/oauth.ts'

const SeedClient = z.object({
  /** Seed-local name other entries use; the client id follows from it (or is given). */
  key: z.string().min(1),
  clientId: z.string().regex(/^[A-Za-z0-9._-]+$/).optional(),
  name: z.string().min(1),
  redirectUris: z.array(z.url()).default(['http://127.0.0.1/callback']),
  /** Scopes the client may request; empty means any. */
  scopes: z.array(z.string()).default([]),
})
const SeedGrant = z.object({
  user: z.string(),
  client: z.string(),
  scopes: z.array(z.string()).min(1),
  created: SeedTime.default('-30d'),
  lastUsed: SeedTime.optional(),
})
/** Narrows a user's seeded Google token to these scopes (by default it holds every scope). */
const SeedTokenScopes = z.object({ user: z.string(), scopes: z.array(z.string()) })

export const identitySeedSchema = z.object({
  clients: z.array(SeedClient).default([]),
  grants: z.array(SeedGrant).default([]),
  tokenScopes: z.array(SeedTokenScopes).default([]),
}).default({ clients: [], grants: [], tokenScopes: [] })
export type IdentitySeed = z.infer<typeof identitySeedSchema>

/** `<12 digits>-<32 base36>.apps.googleusercontent.com`, derived from the world's id salt and the seed key. */
export function deriveClientId(db: Db, key: string): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000oauth-client\u0000${key}`).digest()
  const num = (h.readBigUInt64BE(0) % 10n ** 12n).toString().padStart(12, '0')
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'
  const tail = [...h.subarray(8, 40)].map((b) => alphabet[b % 36]).join('')
  return `${num}-${tail}.apps.googleusercontent.com`
}

export function seedIdentity(world: World, seed: IdentitySeed, ctx: SeedContext) {
  world.tx((db) => {
    const ids = new Map<string, string>()
    seed.clients.forEach((cl, i) => {
      if (ids.has(cl.key)) throw new Error(`identity.clients[${i}].key: duplicate key "${cl.key}"`)
      const clientId = cl.clientId ?? deriveClientId(db, cl.key)
      ids.set(cl.key, clientId)
      db.insert(identityClients).values({
        clientId, name: cl.name, redirectUris: JSON.stringify(cl.redirectUris),
        allowedScopes: JSON.stringify(normalizeScopes(cl.scopes)), createdMs: ctx.nowMs,
      }).run()
    })
    seed.grants.forEach((g, i) => {
      const path = `identity.grants[${i}]`
      const user = ctx.user(g.user, `${path}.user`)
      const clientId = ids.get(g.client) ?? [...ids.values()].find((id) => id === g.client)
      if (!clientId) throw new Error(`${path}.client: no client "${g.client}" in identity.clients`)
      const created = ctx.time(g.created)
      db.insert(identityGrants).values({
        userId: user.id, clientId, scopes: normalizeScopes(g.scopes).join(' '), createdMs: created,
        lastUsedMs: g.lastUsed ? ctx.time(g.lastUsed) : created,
      }).onConflictDoNothing().run()
    })
    seed.tokenScopes.forEach((t, i) => {
      const user = ctx.user(t.user, `identity.tokenScopes[${i}].user`)
      db.update(worldTokens).set({ scopes: normalizeScopes(t.scopes).join(',') })
        .where(and(eq(worldTokens.userId, user.id), eq(worldTokens.kind, 'google'))).run()
    })
  })
}
