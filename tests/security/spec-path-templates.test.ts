import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { demoSeed } from '../../seeds/demo/index.ts'
import { dumpIdentity } from '../../envs/identity/state.ts'

// Discovery path templates that span segments (RFC 6570 `{/orgUnitPath*}`): the Directory's orgunits get, update,
// patch and delete matched no template, so they had no operation id and no scope was checked (0468).

const USER_ONLY = 'https://www.googleapis.com/auth/admin.directory.user'
const UNITS = '/admin/directory/v1/customer/my_customer/orgunits'

describe('scopes on orgunits methods addressed by a unit path', () => {
  test('a token without an orgunit scope is refused on get, patch and delete, at any depth', async () => {
    const seed = demoSeed(1) as Record<string, any>
    const h = harness({
      ...seed,
      identity: {
        users: [{ user: 'dan', orgUnitPath: '/Sales/EMEA' }],
        tokenScopes: [{ user: 'alice', scopes: [USER_ONLY] }],
      },
    })
    const narrow = h.google('alice')
    for (const path of [`${UNITS}/Sales`, `${UNITS}/Sales/EMEA`]) {
      const got = await h.call('GET', path, { token: narrow })
      expect(got.status).toBe(403)
      expect(got.body.error.errors[0].reason).toBe('insufficientPermissions')
      expect(got.body.error.details[0].metadata.method).toBe('directory.orgunits.get')
      const patched = await h.call('PATCH', path, { token: narrow, json: { description: 'changed' } })
      expect(patched.status).toBe(403)
      expect((await h.call('DELETE', path, { token: narrow })).status).toBe(403)
    }
    // The unit is as it was.
    const units = dumpIdentity(h.worlds.get('test').world).entities.orgUnits as Record<string, { description: string }>
    expect(units['/Sales/EMEA']?.description).toBe('')
    // A user-scoped method still works with the narrow token.
    expect((await h.call('GET', '/admin/directory/v1/users?customer=my_customer', { token: narrow })).status).toBe(200)
  })
})
