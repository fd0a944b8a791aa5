import { describe, expect, it } from 'vitest'
import { stmt } from '../../envs/core/db.ts'
import { messageWire } from '../../envs/slack/map.ts'
import type { MessageRow } from '../../envs/slack/store/core.ts'
import { slackWorld } from './helpers.ts'

// conversations.history keeps a page's rows while slack_messages is unwritten (docs/decisions/0329): a page asked
// again must still show every write made since, whoever made it, and each message as it renders on its own.

describe('conversations.history', () => {
  it('shows every write to the channel made between two identical calls', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const alice = await w.uid('alice')
    const db = w.h.entry.world.db
    const posted: string[] = []
    for (let i = 0; i < 5; i++) {
      posted.push((await w.api('chat.postMessage', { channel: id, text: `m${i}` }, 'alice')).ts)
    }
    const page = async () => {
      const r = await w.api('conversations.history', { channel: id, limit: 4 }, 'alice')
      expect(r.ok).toBe(true)
      return r as { messages: { ts: string; text: string }[]; has_more: boolean }
    }
    /** The page as read straight from the table: the newest top-level messages, each rendered alone. */
    const expected = () => {
      const sql = `SELECT * FROM slack_messages WHERE channel_id = ?
        AND (thread_ts IS NULL OR thread_ts = ts OR reply_broadcast = 1) ORDER BY ts DESC LIMIT 4`
      const rows = stmt(db, sql).all(id) as MessageRow[]
      return rows.map((row) => JSON.parse(JSON.stringify(messageWire(db, row, { viewer: alice }))))
    }
    const writes: [string, () => Promise<unknown>][] = [
      ['post', () => w.api('chat.postMessage', { channel: id, text: 'new' }, 'bob')],
      ['update', () => w.api('chat.update', { channel: id, ts: posted[4], text: 'edited' }, 'alice')],
      [
        'reply (parent becomes a thread)',
        () => w.api('chat.postMessage', { channel: id, text: 'r', thread_ts: posted[3] }, 'bob'),
      ],
      [
        'broadcast reply',
        () =>
          w.api('chat.postMessage', { channel: id, text: 'b', thread_ts: posted[3], reply_broadcast: true }, 'carol'),
      ],
      ['delete', () => w.api('chat.delete', { channel: id, ts: posted[4] }, 'alice')],
      [
        'a statement outside any route',
        async () =>
          stmt(db, 'UPDATE slack_messages SET text = ? WHERE channel_id = ? AND ts = ?').run('by sql', id, posted[2]),
      ],
    ]
    let before = await page()
    for (const [name, write] of writes) {
      expect(await page(), `unwritten, before ${name}`).toEqual(before)
      await write()
      const after = await page()
      expect(after.messages, `after ${name}`).toEqual(expected())
      expect(after, `after ${name}`).not.toEqual(before)
      before = after
    }
    expect(before.messages.map((m) => m.text)).toContain('by sql')
  })

  it('answers pages of other bounds, channels and cursors from their own rows', async () => {
    const w = slackWorld()
    const general = await w.channel('general')
    const random = await w.channel('random')
    const ts: string[] = []
    for (let i = 0; i < 6; i++) {
      ts.push((await w.api('chat.postMessage', { channel: general, text: `g${i}` }, 'alice')).ts)
    }
    await w.api('chat.postMessage', { channel: random, text: 'elsewhere' }, 'alice')
    const texts = async (args: Record<string, unknown>) =>
      (
        (await w.api('conversations.history', { channel: general, ...args }, 'alice')).messages as { text: string }[]
      ).map((m) => m.text)
    const first = await w.api('conversations.history', { channel: general, limit: 2 }, 'alice')
    expect(first.messages.map((m: { text: string }) => m.text)).toEqual(['g5', 'g4'])
    expect(await texts({ limit: 2, cursor: first.response_metadata.next_cursor })).toEqual(['g3', 'g2'])
    expect(await texts({ limit: 2, latest: ts[3] })).toEqual(['g2', 'g1'])
    expect(await texts({ limit: 2, latest: ts[3], inclusive: true })).toEqual(['g3', 'g2'])
    expect(await texts({ limit: 10, oldest: ts[3] })).toEqual(['g5', 'g4'])
    expect(await texts({ limit: 10, oldest: ts[3], inclusive: true })).toEqual(['g5', 'g4', 'g3'])
    const other = await w.api('conversations.history', { channel: random, limit: 2 }, 'alice')
    expect(other.messages[0].text).toBe('elsewhere')
    // The same calls again (rows kept now) answer the same.
    expect(await texts({ limit: 2, latest: ts[3] })).toEqual(['g2', 'g1'])
    expect(await texts({ limit: 10, oldest: ts[3], inclusive: true })).toEqual(['g5', 'g4', 'g3'])
  })
})

describe('conversations.history of unchanged rows', () => {
  it('shows reactions, pins and the viewer of the moment, though the rows and their texts are kept', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const db = w.h.entry.world.db
    const ts: string[] = []
    for (let i = 0; i < 3; i++) ts.push((await w.api('chat.postMessage', { channel: id, text: `m${i}` }, 'alice')).ts)
    type Message = { ts: string; reactions?: { name: string; count: number }[]; pinned_to?: string[] }
    const page = async (user: string): Promise<Message[]> => {
      const viewer = await w.uid(user)
      const r = await w.api('conversations.history', { channel: id, limit: 3 }, user)
      // Each message as it renders alone for this viewer, now.
      const alone = (t: string) => {
        const row = stmt(db, 'SELECT * FROM slack_messages WHERE channel_id = ? AND ts = ?').get(id, t) as MessageRow
        return JSON.parse(JSON.stringify(messageWire(db, row, { viewer })))
      }
      expect(r.messages).toEqual(r.messages.map((m: Message) => alone(m.ts)))
      return r.messages
    }
    const at = (messages: Message[], t: string) => messages.find((m) => m.ts === t)!
    await page('alice')
    await page('alice')
    const steps: [string, () => Promise<unknown>, (m: Message[]) => void][] = [
      [
        'reaction',
        () => w.api('reactions.add', { channel: id, timestamp: ts[0], name: 'eyes' }, 'bob'),
        (m) => expect(at(m, ts[0]!).reactions).toEqual([{ name: 'eyes', users: [expect.any(String)], count: 1 }]),
      ],
      [
        'second reaction',
        () => w.api('reactions.add', { channel: id, timestamp: ts[0], name: 'eyes' }, 'carol'),
        (m) => expect(at(m, ts[0]!).reactions![0]!.count).toBe(2),
      ],
      [
        'reaction removed',
        () => w.api('reactions.remove', { channel: id, timestamp: ts[0], name: 'eyes' }, 'bob'),
        (m) => expect(at(m, ts[0]!).reactions![0]!.count).toBe(1),
      ],
      [
        'pin',
        () => w.api('pins.add', { channel: id, timestamp: ts[1] }, 'alice'),
        (m) => expect(at(m, ts[1]!).pinned_to).toEqual([id]),
      ],
      [
        'unpin',
        () => w.api('pins.remove', { channel: id, timestamp: ts[1] }, 'alice'),
        (m) => expect(at(m, ts[1]!).pinned_to).toBeUndefined(),
      ],
    ]
    for (const [name, step, check] of steps) {
      expect(await step(), name).toMatchObject({ ok: true })
      for (const user of ['alice', 'bob', 'alice']) check(await page(user))
    }
  })
})
