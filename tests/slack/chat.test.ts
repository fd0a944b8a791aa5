import { describe, expect, it } from 'vitest'
import { passTime, slackWorld } from './helpers.ts'
import { slack } from '../../envs/slack/index.ts'

describe('chat.postMessage', () => {
  it('threads replies: reply_count, reply_users, latest_reply on the parent; conversations.replies lists them', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const parent = await w.api('chat.postMessage', { channel: id, text: 'Deploy tonight?' }, 'bob')
    const r1 = await w.api('chat.postMessage', { channel: id, text: 'yes', thread_ts: parent.ts }, 'carol')
    const r2 = await w.api(
      'chat.postMessage',
      { channel: id, text: 'ok', thread_ts: parent.ts, reply_broadcast: true },
      'alice',
    )
    expect(r1.message.thread_ts).toBe(parent.ts)
    const replies = await w.api('conversations.replies', { channel: id, ts: parent.ts }, 'bob')
    expect(replies.messages.map((m: { ts: string }) => m.ts)).toEqual([parent.ts, r1.ts, r2.ts])
    expect(replies.messages[0]).toMatchObject({ reply_count: 2, reply_users_count: 2, latest_reply: r2.ts })
    expect(replies.messages[1].parent_user_id).toBe(await w.uid('bob'))
    const hist = await w.api('conversations.history', { channel: id, limit: 3 })
    const tss = hist.messages.map((m: { ts: string }) => m.ts)
    expect(tss).toContain(r2.ts) // broadcast reply shows in the channel
    expect(tss).not.toContain(r1.ts)
  })
  it('gives a broadcast reply its thread parent as root, in the post answer and in history', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const parent = await w.api('chat.postMessage', { channel: id, text: 'Deploy tonight?' }, 'bob')
    await w.api('chat.postMessage', { channel: id, text: 'yes', thread_ts: parent.ts }, 'carol')
    const args = { channel: id, text: 'ok', thread_ts: parent.ts, reply_broadcast: true }
    const r2 = await w.api('chat.postMessage', args, 'alice')
    const root = { ts: parent.ts, text: 'Deploy tonight?', user: await w.uid('bob'), thread_ts: parent.ts }
    expect(r2.message).toMatchObject({ subtype: 'thread_broadcast', root: { ...root, reply_count: 2 } })
    const hist = await w.api('conversations.history', { channel: id, limit: 3 })
    const shown = hist.messages.find((m: { ts: string }) => m.ts === r2.ts)
    expect(shown.root).toMatchObject({ ...root, reply_count: 2, latest_reply: r2.ts })
    // Plain replies and the parent itself carry no root.
    const replies = await w.api('conversations.replies', { channel: id, ts: parent.ts })
    expect(replies.messages.map((m: { root?: unknown }) => m.root !== undefined)).toEqual([false, false, true])
  })
  it('echoes blocks and attachments as sent', async () => {
    const w = slackWorld()
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Hi*' } }]
    const r = await w.api('chat.postMessage', {
      channel: await w.channel('general'),
      blocks,
      attachments: [{ text: 'att', color: '#36a64f' }],
    })
    expect(r.message.blocks).toEqual(blocks)
    expect(r.message.attachments).toEqual([{ text: 'att', color: '#36a64f' }])
  })
  it('refuses empty messages, unknown channels and private channels of others', async () => {
    const w = slackWorld()
    expect((await w.api('chat.postMessage', { channel: await w.channel('general') })).error).toBe('no_text')
    expect((await w.api('chat.postMessage', { channel: 'CNOPE', text: 'x' })).error).toBe('channel_not_found')
    expect(
      (await w.api('chat.postMessage', { channel: await w.channel('leadership'), text: 'x' }, 'carol')).error,
    ).toBe('channel_not_found')
    expect((await w.api('chat.postMessage', { channel: await w.channel('general'), blocks: 'not json' })).error).toBe(
      'invalid_arguments',
    )
  })
  it('gives strictly increasing ts values', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const a = await w.api('chat.postMessage', { channel: id, text: 'a' })
    const b = await w.api('chat.postMessage', { channel: id, text: 'b' })
    expect(Number(b.ts)).toBeGreaterThan(Number(a.ts))
  })
  it('posts as the bot with bot_id and bot_profile using a bot token', async () => {
    const w = slackWorld()
    const r = await w.api('chat.postMessage', { channel: await w.channel('engineering'), text: 'build green' }, w.bot())
    expect(r.message.bot_id).toMatch(/^B/)
    expect(r.message.bot_profile.name).toBe('Deploy Bot')
  })
  it('answers missing_scope with needed and provided', async () => {
    const w = slackWorld()
    const r = await w.api('search.messages', { query: 'x' }, w.bot())
    expect(r.error).toBe('not_allowed_token_type')
    const token = w.h.slack('alice')
    w.h.entry.world.db.$client.prepare("UPDATE world_tokens SET scopes = 'users:read' WHERE kind = 'slack_user'").run()
    const m = await w.api('chat.postMessage', { channel: 'C1', text: 'x' }, token)
    expect(m).toMatchObject({ error: 'missing_scope', needed: 'chat:write', provided: 'users:read' })
  })
})

describe('chat.update', () => {
  it('edits own messages with an edited marker and refuses others', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'typo' })
    const u = await w.api('chat.update', { channel: id, ts: m.ts, text: 'fixed' })
    expect(u.text).toBe('fixed')
    const h = await w.api('conversations.history', { channel: id, limit: 1 })
    expect(h.messages[0].text).toBe('fixed')
    expect(h.messages[0].edited.user).toBe(await w.uid('alice'))
    expect((await w.api('chat.update', { channel: id, ts: m.ts, text: 'x' }, 'bob')).error).toBe('cant_update_message')
    expect((await w.api('chat.update', { channel: id, ts: '1.000001', text: 'x' })).error).toBe('message_not_found')
  })
})

describe('chat.delete', () => {
  it('deletes a message and leaves a tombstone for a parent with replies', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'bye' }, 'bob')
    expect((await w.api('chat.delete', { channel: id, ts: m.ts }, 'bob')).ok).toBe(true)
    expect((await w.api('chat.delete', { channel: id, ts: m.ts }, 'bob')).error).toBe('message_not_found')
    const p = await w.api('chat.postMessage', { channel: id, text: 'parent' }, 'bob')
    await w.api('chat.postMessage', { channel: id, text: 'child', thread_ts: p.ts }, 'carol')
    await w.api('chat.delete', { channel: id, ts: p.ts }, 'bob')
    const r = await w.api('conversations.replies', { channel: id, ts: p.ts })
    expect(r.messages[0].subtype).toBe('tombstone')
    expect(r.messages).toHaveLength(2)
  })
})

describe('chat.meMessage', () => {
  it('posts a me_message subtype', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const r = await w.api('chat.meMessage', { channel: id, text: 'waves' })
    const h = await w.api('conversations.history', { channel: id, limit: 1 })
    expect(h.messages[0]).toMatchObject({ ts: r.ts, subtype: 'me_message' })
  })
})

describe('chat.postEphemeral', () => {
  it('returns a message_ts without storing the message', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const r = await w.api('chat.postEphemeral', { channel: id, user: await w.uid('bob'), text: 'psst' })
    expect(r.message_ts).toMatch(/^\d+\.\d{6}$/)
    const h = await w.api('conversations.history', { channel: id, limit: 1 })
    expect(h.messages[0].text).not.toBe('psst')
    expect(
      (await w.api('chat.postEphemeral', { channel: await w.channel('sales'), user: await w.uid('carol'), text: 'x' }))
        .error,
    ).toBe('user_not_in_channel')
  })
})

describe('chat.getPermalink', () => {
  it('builds the archives URL with the ts digits', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'link me' })
    const r = await w.api('chat.getPermalink', { channel: id, message_ts: m.ts })
    expect(r.permalink).toBe(`https://northwind.slack.com/archives/${id}/p${m.ts.replace('.', '')}`)
  })
})

describe('chat.scheduleMessage', () => {
  it('posts when the clock passes post_at; chat.scheduledMessages.list shows it until then', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const now = Math.floor(Number((await w.api('chat.postMessage', { channel: id, text: 'now' })).ts))
    const s = await w.api('chat.scheduleMessage', { channel: id, text: 'later', post_at: now + 3600 })
    expect(s.scheduled_message_id).toMatch(/^Q/)
    expect(s.message).toMatchObject({
      type: 'delayed_message',
      text: 'later',
      team: (await w.api('auth.test')).team_id,
    })
    const list = await w.api('chat.scheduledMessages.list', { channel: id })
    expect(list.scheduled_messages.map((m: { id: string }) => m.id)).toEqual([s.scheduled_message_id])
    passTime(w, 2 * 3600_000)
    const h = await w.api('conversations.history', { channel: id, limit: 1 })
    expect(h.messages[0].text).toBe('later')
    expect((await w.api('chat.scheduledMessages.list', {})).scheduled_messages).toEqual([])
    expect((await w.api('chat.scheduleMessage', { channel: id, text: 'x', post_at: 1 })).error).toBe('time_in_past')
  })
  it('posts a scheduled reply with reply_broadcast to the channel too; a plain one stays in its thread', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const parent = await w.api('chat.postMessage', { channel: id, text: 'Deploy tonight?' })
    const now = Math.floor(Number(parent.ts))
    const at = { channel: id, thread_ts: parent.ts, post_at: now + 600 }
    await w.api('chat.scheduleMessage', { ...at, text: 'shown', reply_broadcast: true })
    await w.api('chat.scheduleMessage', { ...at, text: 'thread only', reply_broadcast: false })
    passTime(w, 3600_000)
    const h = await w.api('conversations.history', { channel: id, limit: 5 })
    const shown = h.messages.find((m: { text: string }) => m.text === 'shown')
    expect(shown).toMatchObject({ subtype: 'thread_broadcast', thread_ts: parent.ts })
    expect(h.messages.map((m: { text: string }) => m.text)).not.toContain('thread only')
    const replies = await w.api('conversations.replies', { channel: id, ts: parent.ts })
    expect(replies.messages.map((m: { text: string }) => m.text)).toEqual(['Deploy tonight?', 'shown', 'thread only'])
  })
})

describe('chat.deleteScheduledMessage', () => {
  it('cancels a pending message so it never posts', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const now = Math.floor(Number((await w.api('chat.postMessage', { channel: id, text: 'now' })).ts))
    const s = await w.api('chat.scheduleMessage', { channel: id, text: 'cancel me', post_at: now + 60 })
    expect(
      (await w.api('chat.deleteScheduledMessage', { channel: id, scheduled_message_id: s.scheduled_message_id })).ok,
    ).toBe(true)
    expect(
      (await w.api('chat.deleteScheduledMessage', { channel: id, scheduled_message_id: s.scheduled_message_id })).error,
    ).toBe('invalid_scheduled_message_id')
    const world = w.h.entry.world
    slack.onClockAdvance!(world, 0, (now + 120) * 1000)
    const h = await w.api('conversations.history', { channel: id, limit: 2 })
    expect(h.messages.map((m: { text: string }) => m.text)).not.toContain('cancel me')
  })
})

describe('conversations.history', () => {
  it('answers a bot not_in_channel for a public channel until it joins (history and replies)', async () => {
    const w = slackWorld()
    const gen = await w.channel('general')
    const bot = w.bot()
    const root = await w.api('chat.postMessage', { channel: gen, text: 'root' })
    expect(await w.api('conversations.history', { channel: gen }, bot)).toEqual({ ok: false, error: 'not_in_channel' })
    expect(await w.api('conversations.replies', { channel: gen, ts: root.ts }, bot)).toEqual({
      ok: false,
      error: 'not_in_channel',
    })
    expect((await w.api('conversations.history', { channel: gen }, 'carol')).ok).toBe(true)
    expect((await w.api('conversations.join', { channel: gen }, bot)).ok).toBe(true)
    expect((await w.api('conversations.history', { channel: gen, limit: 2 }, bot)).messages[1].text).toBe('root')
    expect((await w.api('conversations.replies', { channel: gen, ts: root.ts }, bot)).messages[0].text).toBe('root')
  })

  it('honours oldest, latest and inclusive and pages with has_more', async () => {
    const w = slackWorld()
    const id = (await w.api('conversations.create', { name: 'hist' })).channel.id
    const ts: string[] = []
    for (const t of ['a', 'b', 'c', 'd']) ts.push((await w.api('chat.postMessage', { channel: id, text: t })).ts)
    const mid = await w.api('conversations.history', { channel: id, oldest: ts[0], latest: ts[3] })
    expect(mid.messages.map((m: { text: string }) => m.text)).toEqual(['c', 'b'])
    const inc = await w.api('conversations.history', { channel: id, oldest: ts[0], latest: ts[3], inclusive: true })
    expect(inc.messages.map((m: { text: string }) => m.text)).toEqual(['d', 'c', 'b', 'a'])
    const p1 = await w.api('conversations.history', { channel: id, limit: 2 })
    expect(p1.has_more).toBe(true)
    const p2 = await w.api('conversations.history', { channel: id, limit: 2, cursor: p1.response_metadata.next_cursor })
    expect(p2.messages.map((m: { text: string }) => m.text)).toEqual(['b', 'a'])
  })
})

describe('conversations.replies', () => {
  it('answers thread_not_found for an unknown ts', async () => {
    const w = slackWorld()
    expect(
      (await w.api('conversations.replies', { channel: await w.channel('general'), ts: '123.000001' })).error,
    ).toBe('thread_not_found')
  })
})
