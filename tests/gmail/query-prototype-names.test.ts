import { expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Search operator values are user text: `in:constructor` (a name every JavaScript object inherits) is a label name
// like any other, not a 500 from a lookup table.

const M = '/gmail/v1/users/me'
const seed = {
  name: 'q-proto',
  now: '2026-03-10T15:00:00Z',
  users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }],
}

test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
  'in:/is:/category:%s answer 200',
  async (name) => {
    const h = harness(seed)
    for (const op of ['in', 'is', 'category']) {
      for (const kind of ['messages', 'threads']) {
        const res = await h.call('GET', `${M}/${kind}?q=${encodeURIComponent(`${op}:${name}`)}`)
        expect(res.status, `${kind} ${op}:${name}`).toBe(200)
        expect(res.body[kind], `${kind} ${op}:${name}`).toBeUndefined()
      }
    }
  },
)

test('in: finds a user label named constructor, and in:inbox still means INBOX', async () => {
  const h = harness(seed)
  const label = await h.call('POST', `${M}/labels`, { json: { name: 'constructor' } })
  expect(label.status).toBe(200)
  const raw = Buffer.from('To: ann@example.com\r\nSubject: hi\r\n\r\nbody').toString('base64url')
  const sent = await h.call('POST', `${M}/messages`, { json: { raw, labelIds: [label.body.id, 'INBOX'] } })
  expect(sent.status).toBe(200)
  for (const q of ['in:constructor', 'label:constructor', 'in:inbox']) {
    const res = await h.call('GET', `${M}/messages?q=${encodeURIComponent(q)}`)
    expect(res.status, q).toBe(200)
    expect(
      res.body.messages?.map((m: { id: string }) => m.id),
      q,
    ).toEqual([sent.body.id])
  }
})
