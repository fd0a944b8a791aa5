import { describe, expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import { buildWorld } from '../../server/seeding.ts'
import { loadSample } from '../../gym/corpus.ts'
import { worldTemplate } from '../../gym/world.ts'
import { worldBuildings, worldFeatures, worldResources } from '../../envs/core/resources.ts'
import { worldGroupMembers, worldGroups } from '../../envs/core/groups.ts'
import { identityClients, identityDelegations, identityServiceAccounts } from '../../envs/identity/schema.ts'
import { listBuildings, listFeatures, listResources } from '../../envs/identity/store/resources.ts'
import { listClients } from '../../envs/identity/store/oauth.ts'
import { listGroups, membersOf } from '../../envs/identity/store/groups.ts'
import { listDelegations, listServiceAccounts } from '../../envs/identity/store/service-accounts.ts'

// Identity's list reads (every dump of Identity, the directory routes) run through selectRows, not drizzle's query
// builder (docs/decisions/0345): the same rows, keys and values in the same order as the drizzle queries they replace.

describe('identity store lists', () => {
  test('each list gives the rows its drizzle query gives', () => {
    // Every task world of the sample without background volume (small), and a few with it.
    const specs = loadSample(4)
    const plain = specs.filter((s) => !worldTemplate(s) && typeof s.seed === 'object').map((s) => s.seed as object)
    const volume = specs
      .map((s) => worldTemplate(s))
      .filter((t) => t !== undefined)
      .slice(0, 8)
      .map((t) => t.build())
    let seen = { buildings: 0, features: 0, resources: 0, groups: 0, members: 0, clients: 0, accounts: 0 }
    for (const doc of [...plain, ...volume]) {
      const world = buildWorld(doc, 1)
      try {
        const db = world.db
        const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b))
        same(listBuildings(db), db.select().from(worldBuildings).orderBy(worldBuildings.seq).all())
        same(listFeatures(db), db.select().from(worldFeatures).orderBy(worldFeatures.name).all())
        same(listResources(db), db.select().from(worldResources).orderBy(worldResources.seq).all())
        same(listClients(db), db.select().from(identityClients).all())
        const groups = db
          .select()
          .from(worldGroups)
          .all()
          .sort((a, b) => a.email.localeCompare(b.email))
        same(listGroups(db), groups)
        for (const g of groups) {
          const members = db
            .select()
            .from(worldGroupMembers)
            .where(eq(worldGroupMembers.groupId, g.id))
            .all()
            .sort((a, b) => a.addedSeq - b.addedSeq)
          same(membersOf(db, g.id), members)
          seen.members += members.length
        }
        same(
          listServiceAccounts(db),
          db
            .select()
            .from(identityServiceAccounts)
            .all()
            .sort((a, b) => a.email.localeCompare(b.email)),
        )
        same(
          listDelegations(db),
          db
            .select()
            .from(identityDelegations)
            .all()
            .sort((a, b) => a.clientId.localeCompare(b.clientId)),
        )
        seen = {
          ...seen,
          buildings: seen.buildings + listBuildings(db).length,
          features: seen.features + listFeatures(db).length,
          resources: seen.resources + listResources(db).length,
          groups: seen.groups + groups.length,
          clients: seen.clients + listClients(db).length,
          accounts: seen.accounts + listServiceAccounts(db).length,
        }
      } finally {
        world.close()
      }
    }
    for (const [name, n] of Object.entries(seen)) expect(n, name).toBeGreaterThan(0)
  })
})
