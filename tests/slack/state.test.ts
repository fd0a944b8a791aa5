import { describe, expect, it } from 'vitest'
import { World } from '../../envs/core/world.ts'
import { slack } from '../../envs/slack/index.ts'
import { slackWorld } from './helpers.ts'

describe('chat.scheduleMessage (snapshot/restore)', () => {
  it('keeps a pending scheduled message across snapshot and restore, then posts it in the restored world', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const now = Math.floor(Number((await w.api('chat.postMessage', { channel: id, text: 'now' })).ts))
    const s = await w.api('chat.scheduleMessage', { channel: id, text: 'from the past', post_at: now + 600 })
    const restored = World.from(w.h.entry.world.snapshot())
    expect(slack.dump(restored).entities.scheduled![s.scheduled_message_id]).toMatchObject({ status: 'pending' })
    slack.onClockAdvance!(restored, now * 1000, (now + 601) * 1000)
    const state = slack.dump(restored).entities
    expect(state.scheduled![s.scheduled_message_id]).toMatchObject({ status: 'posted' })
    const posted = Object.values(state.messages!).find((m) => (m as { text: string }).text === 'from the past')
    expect(posted).toMatchObject({ channel: id, channelName: 'general' })
    // The original world is untouched.
    expect(slack.dump(w.h.entry.world).entities.scheduled![s.scheduled_message_id]).toMatchObject({ status: 'pending' })
  })
})

describe('conversations.history (dump)', () => {
  it('dumps demo channels, members, messages with reactions and the bot', () => {
    const w = slackWorld()
    const e = slack.dump(w.h.entry.world).entities
    const names = Object.values(e.channels!).map((c) => (c as { name: string }).name)
    expect(names).toEqual(expect.arrayContaining(['general', 'engineering', 'sales', 'leadership']))
    expect(Object.values(e.users!).some((u) => (u as { isBot: boolean; handle: string }).handle === 'deploybot')).toBe(
      true,
    )
    expect(Object.values(e.messages!).some((m) => Object.keys((m as { reactions: object }).reactions).length > 0)).toBe(
      true,
    )
    expect(Object.values(e.messages!).some((m) => (m as { isReply: boolean }).isReply)).toBe(true)
    expect(Object.values(e.messages!).some((m) => (m as { pinned: boolean }).pinned)).toBe(true)
  })
})
