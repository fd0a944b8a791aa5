import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Seeds name users by id (exactly) or by address (in any case); server/seeding.ts and the Gmail seed look them up
// through indexes (docs/decisions/0325).
const users = [
  { id: 'ann', email: 'ann@t.test', name: 'Ann One' },
  { id: 'ben', email: 'ben@t.test', name: 'Ben Two' },
]
const seed = (owner: string) => ({
  name: 'users',
  now: '2026-03-10T15:00:00Z',
  domain: 't.test',
  users,
  drive: { files: [{ name: 'F.txt', owner, text: 'x' }] },
  gmail: { messages: [{ from: 'BEN@t.test', to: ['Ann@T.TEST'], subject: 'Hi', text: 'hello', at: '-1h' }] },
})
const ownerOf = async (h: ReturnType<typeof harness>) => {
  for (const who of ['ann', 'ben']) {
    const res = await h.call('GET', '/drive/v3/files?fields=files(owners(emailAddress))', { token: h.google(who) })
    if (res.body.files.length) return who
  }
  return undefined
}

describe('seed user references', () => {
  test.each([
    ['ann', 'ann'],
    ['ANN@T.TEST', 'ann'],
    ['ben', 'ben'],
    ['Ben@T.test', 'ben'],
  ])('%s names %s', async (ref, who) => expect(await ownerOf(harness(seed(ref)))).toBe(who))

  test('an id is matched exactly and an unknown reference is refused with its path', () => {
    expect(() => harness(seed('Ann'))).toThrow('drive.files[0].owner: no user "Ann" in users[]')
    expect(() => harness(seed('cy@t.test'))).toThrow('drive.files[0].owner: no user "cy@t.test" in users[]')
  })

  test('a seeded message reaches world users by address in any case', async () => {
    const h = harness(seed('ann'))
    const sent = await h.call('GET', '/gmail/v1/users/me/messages?labelIds=SENT', { token: h.google('ben') })
    const inbox = await h.call('GET', '/gmail/v1/users/me/messages?labelIds=INBOX', { token: h.google('ann') })
    expect([sent.body.messages?.length, inbox.body.messages?.length]).toEqual([1, 1])
  })
})
