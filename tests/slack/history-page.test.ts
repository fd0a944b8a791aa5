import { describe, expect, it } from 'vitest'
import { stmt } from '../../envs/core/db.ts'
import { messageWire } from '../../envs/slack/map.ts'
import type { MessageRow } from '../../envs/slack/store/core.ts'
import { slackWorld } from './helpers.ts'

// conversations.history and conversations.replies read a page's reactions, unfurls and pins in one statement per
// table (envs/slack/map.ts pageFacts, docs/decisions/0270); each message must render as it does on its own.

/** A Slack world with its #general channel, and a post there by alice (answering the message's ts). */
async function general() {
  const w = slackWorld()
  const id = await w.channel('general')
  const post = async (text: string): Promise<string> =>
    (await w.api('chat.postMessage', { channel: id, text }, 'alice')).ts
  return { w, id, post }
}

describe('conversations.history', () => {
  it('renders each message of a page with its reactions, unfurls and pins, as the message alone renders', async () => {
    const { w, id, post } = await general()
    const posted: string[] = []
    for (let i = 0; i < 4; i++) posted.push(await post(`m${i}`))
    const reply = await w.api('chat.postMessage', { channel: id, text: 'r', thread_ts: posted[1] }, 'bob')
    expect(reply.ok).toBe(true)
    // Reactions interleaved across messages, so each message's order comes from the world-wide sequence.
    const adds = [
      ['bob', 0, 'eyes'],
      ['carol', 2, 'tada'],
      ['carol', 0, 'tada'],
      ['alice', 0, 'eyes'],
    ] as const
    for (const [user, i, name] of adds) {
      expect((await w.api('reactions.add', { channel: id, timestamp: posted[i], name }, user)).ok).toBe(true)
    }
    expect((await w.api('pins.add', { channel: id, timestamp: posted[2] }, 'alice')).ok).toBe(true)
    const db = w.h.entry.world.db
    const unfurl = 'INSERT INTO slack_unfurls (channel_id, ts, url, attachment, app_user) VALUES (?,?,?,?,?)'
    const alice = await w.uid('alice')
    stmt(db, unfurl).run(id, posted[3], 'https://b.example', JSON.stringify({ title: 'B' }), alice)
    stmt(db, unfurl).run(id, posted[3], 'https://a.example', JSON.stringify({ title: 'A' }), alice)

    const history = await w.api('conversations.history', { channel: id, limit: 10 }, 'alice')
    const replies = await w.api('conversations.replies', { channel: id, ts: posted[1] }, 'alice')
    const alone = (ts: string) => {
      const row = stmt(db, 'SELECT * FROM slack_messages WHERE channel_id = ? AND ts = ?').get(id, ts) as MessageRow
      return JSON.parse(JSON.stringify(messageWire(db, row, { viewer: alice })))
    }
    for (const m of [...history.messages, ...replies.messages]) expect(m).toEqual(alone(m.ts))
    const byTs = new Map(history.messages.map((m: { ts: string }) => [m.ts, m]))
    expect((byTs.get(posted[0]) as { reactions: unknown }).reactions).toEqual([
      { name: 'eyes', users: [await w.uid('bob'), alice], count: 2 },
      { name: 'tada', users: [await w.uid('carol')], count: 1 },
    ])
    expect((byTs.get(posted[2]) as { pinned_to?: string[] }).pinned_to).toEqual([id])
    expect((byTs.get(posted[3]) as { attachments: { from_url: string }[] }).attachments.map((a) => a.from_url)).toEqual(
      ['https://b.example', 'https://a.example'],
    )
  })

  it('keeps what belongs to replies and other pages off a page, though replies lie in its ts range', async () => {
    const { w, id, post } = await general()
    const posted: string[] = []
    for (let i = 0; i < 6; i++) {
      posted.push(await post(`m${i}`))
      if (i === 3) {
        // A reply between the parents: on no history page, but inside the ts range of the page around it.
        const reply = await w.api('chat.postMessage', { channel: id, text: 'r', thread_ts: posted[1] }, 'bob')
        const reaction = { channel: id, timestamp: reply.ts, name: 'eyes' }
        expect((await w.api('reactions.add', reaction, 'carol')).ok).toBe(true)
        expect((await w.api('pins.add', { channel: id, timestamp: reply.ts }, 'alice')).ok).toBe(true)
        const unfurl = 'INSERT INTO slack_unfurls (channel_id, ts, url, attachment, app_user) VALUES (?,?,?,?,?)'
        stmt(w.h.entry.world.db, unfurl).run(id, reply.ts, 'https://r.example', '{"title":"R"}', await w.uid('alice'))
      }
    }
    // The oldest message (on the last page) and the newest (on the first) carry reactions and a pin too.
    for (const i of [0, 5]) {
      expect((await w.api('reactions.add', { channel: id, timestamp: posted[i], name: 'tada' }, 'bob')).ok).toBe(true)
      expect((await w.api('pins.add', { channel: id, timestamp: posted[i] }, 'alice')).ok).toBe(true)
    }
    const db = w.h.entry.world.db
    const alice = await w.uid('alice')
    const alone = (ts: string) => {
      const row = stmt(db, 'SELECT * FROM slack_messages WHERE channel_id = ? AND ts = ?').get(id, ts) as MessageRow
      return JSON.parse(JSON.stringify(messageWire(db, row, { viewer: alice })))
    }
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const args = { channel: id, limit: 2, ...(cursor ? { cursor } : {}) }
      const page = await w.api('conversations.history', args, 'alice')
      for (const m of page.messages) expect(m).toEqual(alone(m.ts))
      // The pins' notices (pins.add posts one, 0480) are on the pages too; the posts are checked in order.
      seen.push(
        ...page.messages
          .filter((m: { subtype?: string }) => m.subtype !== 'pinned_item')
          .map((m: { ts: string }) => m.ts),
      )
      cursor = page.response_metadata?.next_cursor || undefined
    } while (cursor)
    expect(seen.slice(0, posted.length)).toEqual([...posted].reverse())
    const replies = await w.api('conversations.replies', { channel: id, ts: posted[1] }, 'alice')
    expect(replies.messages).toHaveLength(2)
    for (const m of replies.messages) expect(m).toEqual(alone(m.ts))
    expect(replies.messages[1].reactions).toEqual([{ name: 'eyes', users: [await w.uid('carol')], count: 1 }])
    expect(replies.messages[1].pinned_to).toEqual([id])
  })
})
