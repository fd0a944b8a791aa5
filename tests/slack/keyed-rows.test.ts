import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { keyedRow, stmt } from '../../envs/core/db.ts'
import { channelById, messageAt, userById, userByWorldId } from '../../envs/slack/store/core.ts'

// The hot one-row reads build their rows from raw values (keyedRow, decision 0384): each must be the object
// `SELECT *` gives, same keys in the same order and same values, for every row of a seeded world.
describe('Slack rows read raw and keyed', () => {
  const h = harness('demo')
  const db = h.entry.world.db
  const all = (table: string) => stmt(db, `SELECT * FROM ${table} ORDER BY rowid`).all() as Record<string, unknown>[]

  test('users by id and by world user id', () => {
    const users = all('slack_users')
    expect(users.length).toBeGreaterThan(2)
    for (const u of users) {
      for (const row of [userById(db, u.id as string), userByWorldId(db, u.world_user_id as string)]) {
        expect(row).toStrictEqual(u)
        expect(Object.keys(row!)).toEqual(Object.keys(u))
      }
    }
    expect(userById(db, 'U_NOPE')).toBeUndefined()
  })

  test('channels and messages, after a post and an edit', async () => {
    const ch = all('slack_channels').find((c) => c.kind === 'channel' && !c.is_archived)!
    await h.call('POST', '/api/conversations.join', { form: { channel: ch.id as string } })
    const posted = await h.call('POST', '/api/chat.postMessage', { form: { channel: ch.id as string, text: 'a' } })
    expect(posted.body.ok).toBe(true)
    const edit = { channel: ch.id as string, ts: posted.body.ts, text: 'b' }
    expect((await h.call('POST', '/api/chat.update', { form: edit })).body.ok).toBe(true)
    for (const c of all('slack_channels')) {
      expect(Object.keys(channelById(db, c.id as string)!)).toEqual(Object.keys(c))
      expect(channelById(db, c.id as string)).toStrictEqual(c)
    }
    const messages = all('slack_messages')
    expect(messages.some((m) => m.edited_ts !== null && m.text === 'b')).toBe(true)
    for (const m of messages) {
      const row = messageAt(db, m.channel_id as string, m.ts as string)
      expect(row).toStrictEqual(m)
      expect(Object.keys(row!)).toEqual(Object.keys(m))
    }
    expect(messageAt(db, ch.id as string, '1.000000')).toBeUndefined()
  })

  test('keyedRow keys the values in order; no row is undefined', () => {
    expect(keyedRow(['b', 'a'], [1, null])).toStrictEqual({ b: 1, a: null })
    expect(Object.keys(keyedRow(['b', 'a'], [1, 2])!)).toEqual(['b', 'a'])
    expect(keyedRow(['a'], undefined)).toBeUndefined()
  })
})
