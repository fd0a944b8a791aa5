import { describe, expect, test } from 'vitest'
import { buildWorld } from '../../server/seeding.ts'
import { findUserByEmail, listUsers } from '../../envs/core/users.ts'

// findUserByEmail reads raw rows and types only the match (docs/decisions/0325): it gives what a search of
// listUsers gives.
describe('findUserByEmail', () => {
  test('finds a user by address in any case and with spaces, as a search of listUsers does', () => {
    const world = buildWorld(
      {
        name: 'u',
        users: [
          { id: 'ann', email: 'Ann@T.test', name: 'Ann Lee', admin: true, title: 'Lead' },
          { id: 'ben', email: 'ben@t.test', name: 'Ben Ode', timeZone: 'Europe/Paris' },
        ],
      },
      1,
    )
    const all = listUsers(world.db)
    for (const probe of ['ann@t.test', ' ANN@T.TEST ', 'Ben@t.test', 'cy@t.test']) {
      const lower = probe.trim().toLowerCase()
      expect(findUserByEmail(world.db, probe)).toEqual(all.find((u) => u.email.toLowerCase() === lower))
    }
    expect(findUserByEmail(world.db, 'ANN@t.test')).toMatchObject({ id: 'ann', isAdmin: true, title: 'Lead' })
    world.close()
  })
})
