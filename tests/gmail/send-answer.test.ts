import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { b64 } from './fixtures.ts'
import { delegatedToken } from '../support/delegation.ts'

// messages.send and drafts.send answer the sent copy's label ids without reading them back (docs/decisions/0358):
// delivery, filters, forwards and vacation replies in the same transaction must leave that copy's labels alone.

const M = '/gmail/v1/users/me/messages'
const S = '/gmail/v1/users/me/settings'
const seed = {
  name: 'send-answer',
  now: '2026-03-10T15:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
    { id: 'cy', email: 'cy@example.com', name: 'Cy Dee' },
  ],
}
const raw = (headers: Record<string, string>) =>
  b64(
    `${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\nbody`,
  )

/** Ann's world: a group holding her, filters that label and forward mail, a vacation responder and a forward. */
async function world() {
  const h = harness(seed)
  const [ann, ben, cy] = [h.google('ann'), h.google('ben'), h.google('cy')]
  h.entry.world.db.$client.exec(`INSERT INTO world_groups (id, email, name, description, admin_created, created_ms)
    VALUES ('g1', 'team@example.com', 'Team', '', 1, 0);
    INSERT INTO world_group_members (group_id, email, role, type, delivery_settings, added_seq) VALUES
    ('g1', 'ann@example.com', 'MEMBER', 'USER', 'ALL_MAIL', 1), ('g1', 'ben@example.com', 'MEMBER', 'USER', 'ALL_MAIL', 2)`)
  const filter = { criteria: { subject: 'report' }, action: { addLabelIds: ['STARRED'], removeLabelIds: ['UNREAD'] } }
  expect((await h.call('POST', `${S}/filters`, { token: ann, json: filter })).status).toBe(200)
  const benAdmin = delegatedToken(h, 'ben')
  const address = { forwardingEmail: 'ann@example.com' }
  await h.call('POST', `${S}/forwardingAddresses`, { token: benAdmin, json: address })
  const forward = { criteria: { from: 'ann@example.com' }, action: { forward: 'ann@example.com' } }
  expect((await h.call('POST', `${S}/filters`, { token: ben, json: forward })).status).toBe(200)
  const vacation = { enableAutoReply: true, responseSubject: 'Away', responseBodyPlainText: 'Back soon' }
  expect((await h.call('PUT', `${S}/vacation`, { token: cy, json: vacation })).status).toBe(200)
  return { h, ann }
}

/** The label ids a read of the message gives now. */
async function labelsRead(h: ReturnType<typeof harness>, token: string, id: string) {
  const res = await h.call('GET', `${M}/${id}?format=minimal`, { token })
  expect(res.status).toBe(200)
  return res.body.labelIds as string[]
}

/** Where Ann sends, and whether her mailbox then holds more than the sent copy (a delivery, forward or reply). */
const cases: [string, Record<string, string>, boolean][] = [
  ['an outside address', { To: 'x@outside.test', Subject: 'report 1' }, false],
  ['herself', { To: 'ann@example.com', Subject: 'report 2' }, false],
  ['herself by another case and a colleague', { To: 'ANN@example.com, ben@example.com', Subject: 'report 3' }, true],
  ['a group holding her (her filter labels her delivered copy)', { To: 'team@example.com', Subject: 'report 4' }, true],
  ['a colleague whose filter forwards back to her', { To: 'ben@example.com', Subject: 'hello' }, true],
  ['a colleague whose vacation responder answers her', { To: 'cy@example.com', Subject: 'x' }, true],
  [
    'everyone, Bcc included',
    { To: 'team@example.com', Bcc: 'cy@example.com, ann@example.com', Subject: 'report' },
    true,
  ],
]

describe('gmail.users.messages.send', () => {
  test.each(cases)('answers the label ids a read gives when sending to %s', async (_name, headers, more) => {
    const { h, ann } = await world()
    const res = await h.call('POST', `${M}/send`, { token: ann, json: { raw: raw(headers) } })
    expect(res.status, res.text).toBe(200)
    expect(res.body.labelIds).toEqual(await labelsRead(h, ann, res.body.id))
    // The transaction wrote more of her mail than the sent copy where the case says so.
    const listed = (await h.call('GET', `${M}?maxResults=50`, { token: ann })).body.messages as unknown[]
    expect(listed.length > 1).toBe(more)
  })
})

describe('gmail.users.drafts.send', () => {
  test.each(cases)('answers the label ids a read gives when sending a draft to %s', async (_name, headers) => {
    const { h, ann } = await world()
    const draft = await h.call('POST', '/gmail/v1/users/me/drafts', {
      token: ann,
      json: { message: { raw: raw(headers) } },
    })
    expect(draft.status, draft.text).toBe(200)
    const res = await h.call('POST', '/gmail/v1/users/me/drafts/send', { token: ann, json: { id: draft.body.id } })
    expect(res.status, res.text).toBe(200)
    expect(res.body.labelIds).toEqual(await labelsRead(h, ann, res.body.id))
  })
})

// A header named like an Object.prototype property is an ordinary header: the send stores it (it answered 500).
describe('messages.send with headers named like Object.prototype properties', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']
  for (const name of names) {
    test(`keeps a "${name}:" header`, async () => {
      const h = harness(seed)
      const ann = h.google('ann')
      const sent = await h.call('POST', `${M}/send`, {
        token: ann,
        json: { raw: raw({ To: 'ben@example.com', Subject: `odd ${name}`, [name]: 'kept' }) },
      })
      expect(sent.status).toBe(200)
      const got = await h.call('GET', `${M}/${sent.body.id}?format=metadata`, { token: ann })
      expect(got.status).toBe(200)
      const headers = got.body.payload.headers as { name: string; value: string }[]
      expect(headers.find((x) => x.name === name)?.value).toBe('kept')
      expect(headers.find((x) => x.name === 'Bcc')).toBeUndefined()
    })
  }
})
