import { describe, expect, it } from 'vitest'
import { stmt } from '../../envs/core/db.ts'
import { messageWire } from '../../envs/slack/map.ts'
import type { MessageRow } from '../../envs/slack/store/core.ts'
import { slackWorld } from './helpers.ts'

// conversations.history writes plain messages from texts kept per world connection (docs/decisions/0300):
// anything that changes a message between two pages must show in the second.

describe('conversations.history', () => {
  it('shows edits, reactions, pins, deletions and new replies made after the page was read', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const ts: string[] = []
    for (let i = 0; i < 5; i++) ts.push((await w.api('chat.postMessage', { channel: id, text: `m${i}` }, 'alice')).ts)
    const page = async () => {
      const form = { channel: id, limit: '20' }
      const h = await w.h.call('POST', '/api/conversations.history', { form, token: w.h.slack('alice') })
      expect(h.text).toBe(JSON.stringify(h.body))
      return new Map((h.body.messages as { ts: string }[]).map((m) => [m.ts, m as Record<string, unknown>]))
    }
    const first = await page()
    expect((await page()).get(ts[0]!)).toEqual(first.get(ts[0]!))
    expect((await w.api('chat.update', { channel: id, ts: ts[0], text: 'edited' }, 'alice')).ok).toBe(true)
    expect((await w.api('reactions.add', { channel: id, timestamp: ts[1], name: 'eyes' }, 'bob')).ok).toBe(true)
    expect((await w.api('pins.add', { channel: id, timestamp: ts[2] }, 'alice')).ok).toBe(true)
    expect((await w.api('chat.delete', { channel: id, ts: ts[3] }, 'alice')).ok).toBe(true)
    expect((await w.api('chat.postMessage', { channel: id, text: 'r', thread_ts: ts[4] }, 'bob')).ok).toBe(true)
    const second = await page()
    expect(second.get(ts[0]!)!.text).toBe('edited')
    expect(second.get(ts[0]!)!.edited).toBeDefined()
    expect(second.get(ts[1]!)!.reactions).toEqual([{ name: 'eyes', users: [await w.uid('bob')], count: 1 }])
    expect(second.get(ts[2]!)!.pinned_to).toEqual([id])
    expect(second.has(ts[3]!)).toBe(false)
    expect(second.get(ts[4]!)!.reply_count).toBe(1)
    // Every message as it renders on its own, now.
    const db = w.h.entry.world.db
    const alice = await w.uid('alice')
    for (const [t, m] of second) {
      const row = stmt(db, 'SELECT * FROM slack_messages WHERE channel_id = ? AND ts = ?').get(id, t) as MessageRow
      expect(m).toEqual(JSON.parse(JSON.stringify(messageWire(db, row, { viewer: alice }))))
    }
  })

  it('renders the same page for two viewers and after a reaction is removed', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const t = (await w.api('chat.postMessage', { channel: id, text: 'hello' }, 'alice')).ts
    expect((await w.api('reactions.add', { channel: id, timestamp: t, name: 'tada' }, 'carol')).ok).toBe(true)
    const a = await w.api('conversations.history', { channel: id, limit: 5 }, 'alice')
    const b = await w.api('conversations.history', { channel: id, limit: 5 }, 'bob')
    expect(b.messages).toEqual(a.messages)
    expect(a.messages[0].reactions).toHaveLength(1)
    expect((await w.api('reactions.remove', { channel: id, timestamp: t, name: 'tada' }, 'carol')).ok).toBe(true)
    const c = await w.api('conversations.history', { channel: id, limit: 5 }, 'alice')
    expect(c.messages[0].reactions).toBeUndefined()
  })
})
