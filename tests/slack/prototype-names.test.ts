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
    const forms: Record<string, string>[] = [{ name, value: 'x' }, { profile: JSON.stringify({ [name]: 'x' }) }]
    for (const form of forms) {
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

test.each(['constructor', '__proto__', 'toString'])('types=, file extensions and role ids named %s', async (name) => {
  const h = harness('demo')
  const list = await h.call('POST', '/api/conversations.list', { form: { types: `public_channel,${name}` } })
  expect(list.body).toMatchObject({ ok: false, error: 'invalid_types' })
  const file = await h.call('POST', '/api/files.upload', { form: { content: 'hi', filename: `notes.${name}` } })
  expect([file.body.ok, file.body.file?.filetype, file.body.file?.mimetype]).toEqual([
    true,
    'binary',
    'application/octet-stream',
  ])
  const form = { role_id: name, entity_ids: 'T1', user_ids: 'U1' }
  const role = await h.call('POST', '/api/admin.roles.addAssignments', { form })
  expect(role.body).toMatchObject({ ok: false, error: 'role_not_found' })
})
