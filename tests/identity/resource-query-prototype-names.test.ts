import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { normalizeScopes } from '../../envs/identity/store/oauth.ts'

// Names every JavaScript object inherits are no query field, sort key or short scope name.
const R = '/admin/directory/v1/customer/my_customer/resources/calendars'

describe('Directory resources.calendars.list with names like Object.prototype members', () => {
  test('a known field and order answer 200', async () => {
    const h = harness('demo')
    const res = await h.call('GET', `${R}?query=${encodeURIComponent('capacity>=1')}&orderBy=resourceName`)
    expect(res.status).toBe(200)
  })

  for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
    test(`query=${name}=x and orderBy=${name} are 400`, async () => {
      const h = harness('demo')
      const q = await h.call('GET', `${R}?query=${encodeURIComponent(`${name}=x`)}`)
      expect(q.status).toBe(400)
      expect(q.body.error.message).toMatch(/query/i)
      const o = await h.call('GET', `${R}?orderBy=${name}`)
      expect(o.status).toBe(400)
      expect(o.body.error.message).toMatch(/orderBy/i)
    })
  }
})

describe('normalizeScopes', () => {
  test('expands the short names only, and keeps any other word as it is', () => {
    expect(normalizeScopes('email constructor __proto__')).toEqual([
      '__proto__',
      'constructor',
      'https://www.googleapis.com/auth/userinfo.email',
    ])
  })
})
