import { expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { setMeta } from '../../envs/core/clock.ts'

// Method names and profile field names are request text: one every JavaScript object inherits (constructor,
// toString) is unknown as any other, not internal_error from a lookup table.

test.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty'])('/api/%s is unknown_method', async (name) => {
  const h = harness('demo')
  const res = await h.call('POST', `/api/${name}`, { form: {} })
  expect(res.body).toEqual({ ok: false, error: 'unknown_method', req_method: name })
})

test.each(['constructor', 'toString', 'valueOf'])(
  'users.profile.set name=%s leaves the profile as it was',
  async (name) => {
    const h = harness('demo')
    const before = await h.call('POST', '/api/users.profile.get', { form: {} })
    for (const form of [{ name, value: 'x' }, { profile: JSON.stringify({ [name]: 'x' }) }]) {
      const res = await h.call('POST', '/api/users.profile.set', { form })
      expect([res.body.ok, res.body.error]).toEqual([true, undefined])
      expect(res.body.profile).toEqual(before.body.profile)
    }
    const set = await h.call('POST', '/api/users.profile.set', { form: { name: 'status_text', value: 'Out' } })
    expect(set.body.profile.status_text).toBe('Out')
  },
)

test('rate limits: a method named like a prototype member counts against the default tier', async () => {
  const h = harness('demo')
  h.entry.world.tx((db) => setMeta(db, 'slack_rate_limit', JSON.stringify({ tiers: { '3': 1 } })))
  const statuses: number[] = []
  for (let i = 0; i < 2; i++) statuses.push((await h.call('POST', '/api/constructor', { form: {} })).status)
  // As any unlisted method: tier 3. The limit once read Object.prototype.constructor (never limited).
  expect(statuses).toEqual([200, 429])
})
