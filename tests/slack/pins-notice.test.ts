import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

// pins.add posts Slack's `pinned_item` notice in the channel; pins.remove posts nothing there (docs/decisions/0480).

describe('pins.add: the pinned_item notice', () => {
  it('posts it by the pinner, naming the message, and leaves it when the pin is taken off', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const ts = (await w.api('chat.postMessage', { channel: id, text: 'the plan' }, 'bob')).ts as string
    expect((await w.api('pins.add', { channel: id, timestamp: ts }, 'alice')).ok).toBe(true)
    const alice = await w.uid('alice')
    const notice = {
      type: 'message',
      subtype: 'pinned_item',
      user: alice,
      text: `<@${alice}> pinned a message to this channel.`,
      item_type: 'C',
      item: { type: 'message', channel: id, ts },
    }
    const history = async () =>
      (await w.api('conversations.history', { channel: id, oldest: ts, inclusive: true }, 'bob')).messages
    const first = await history()
    expect(first).toHaveLength(2)
    expect(first[0]).toMatchObject(notice)
    expect(first[1]).toMatchObject({ ts, text: 'the plan', pinned_to: [id] })
    expect((await w.api('pins.remove', { channel: id, timestamp: ts }, 'alice')).ok).toBe(true)
    const after = await history()
    expect(after).toHaveLength(2)
    expect(after[0]).toMatchObject(notice)
    expect(after[1].pinned_to).toBeUndefined()
    // A second pin of the same message: already_pinned posts nothing.
    expect((await w.api('pins.add', { channel: id, timestamp: ts }, 'alice')).ok).toBe(true)
    expect((await w.api('pins.add', { channel: id, timestamp: ts }, 'alice')).error).toBe('already_pinned')
    expect(await history()).toHaveLength(3)
  })

  it('names a private channel message with item_type G', async () => {
    const w = slackWorld()
    const made = await w.api('conversations.create', { name: 'pins-private', is_private: true }, 'alice')
    const id = made.channel.id as string
    const ts = (await w.api('chat.postMessage', { channel: id, text: 'secret plan' }, 'alice')).ts as string
    expect((await w.api('pins.add', { channel: id, timestamp: ts }, 'alice')).ok).toBe(true)
    const h = await w.api('conversations.history', { channel: id, limit: 1 }, 'alice')
    expect(h.messages[0]).toMatchObject({ subtype: 'pinned_item', item_type: 'G', item: { channel: id, ts } })
  })
})
