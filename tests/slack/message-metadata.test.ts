import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passTime, slackWorld } from './helpers.ts'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'

// Message metadata and a bot's shown name (docs/decisions/0439): chat.postMessage and chat.update keep `metadata`
// ({event_type, event_payload}), shown in history and replies asked with `include_all_metadata`; a bot post's
// `username` is kept and shown, a user's post stays the user's.
const metadata = { event_type: 'ticket_created', event_payload: { id: 'TK-2132', priority: 'HIGH', rank: 2 } }

describe('message metadata', () => {
  it('is kept, shown in history and replies with include_all_metadata only, and in the post’s answer', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const posted = await w.api('chat.postMessage', { channel: id, text: 'New ticket', metadata })
    expect(posted.ok).toBe(true)
    expect(posted.message.metadata).toEqual(metadata)
    const plain = await w.api('conversations.history', { channel: id, limit: 1 }, 'bob')
    expect(plain.messages[0].ts).toBe(posted.ts)
    expect(plain.messages[0]).not.toHaveProperty('metadata')
    const all = await w.api('conversations.history', { channel: id, limit: 1, include_all_metadata: true }, 'bob')
    expect(all.messages[0].metadata).toEqual(metadata)
    // Asked again without it (a kept page text must not carry it over).
    const again = await w.api('conversations.history', { channel: id, limit: 1 }, 'bob')
    expect(again.messages[0]).not.toHaveProperty('metadata')
    const replies = await w.api('conversations.replies', { channel: id, ts: posted.ts, include_all_metadata: true })
    expect(replies.messages[0].metadata).toEqual(metadata)
    const noMeta = await w.api('conversations.replies', { channel: id, ts: posted.ts })
    expect(noMeta.messages[0]).not.toHaveProperty('metadata')
  })

  it('comes as JSON or as a form’s JSON text; chat.update replaces it, or leaves it when none is given', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const posted = await w.api('chat.postMessage', { channel: id, text: 'x', metadata }, 'alice', true)
    expect(posted.message.metadata).toEqual(metadata)
    const kept = await w.api('chat.update', { channel: id, ts: posted.ts, text: 'y' })
    expect(kept.message.metadata).toEqual(metadata)
    const next = { event_type: 'ticket_closed', event_payload: { id: 'TK-2132' } }
    const replaced = await w.api('chat.update', { channel: id, ts: posted.ts, text: 'z', metadata: next })
    expect(replaced.message.metadata).toEqual(next)
    const all = await w.api('conversations.history', { channel: id, limit: 1, include_all_metadata: true })
    expect(all.messages[0]).toMatchObject({ text: 'z', metadata: next })
  })

  it('refuses what is not metadata as Slack does; ignores an event_type it cannot take, with a warning', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const post = (m: unknown, asJson = false) =>
      w.api('chat.postMessage', { channel: id, text: 'x', metadata: m }, 'alice', asJson)
    expect(await post('{not json')).toMatchObject({ ok: false, error: 'invalid_metadata_format' })
    expect(await post([1, 2], true)).toMatchObject({ ok: false, error: 'invalid_metadata_format' })
    expect(await post({ event_payload: {} })).toMatchObject({ ok: false, error: 'invalid_metadata_schema' })
    expect(await post({ event_type: 'a', event_payload: 'b' })).toMatchObject({
      ok: false,
      error: 'invalid_metadata_schema',
    })
    const ignored = await post({ event_type: 'ticket.created', event_payload: { id: 1 } })
    expect(ignored).toMatchObject({ ok: true, warning: 'invalid_metadata_schema' })
    expect(ignored.response_metadata.warnings).toContain('invalid_metadata_schema')
    expect(ignored.message).not.toHaveProperty('metadata')
    const upd = await w.api('chat.update', { channel: id, ts: ignored.ts, text: 'y', metadata: '{' })
    expect(upd).toMatchObject({ ok: false, error: 'invalid_metadata_format' })
  })
})

describe('message metadata: work-object entities and scheduled messages', () => {
  const entities = [{ entity_type: 'slack#/entities/task', entity_payload: { attributes: { title: { text: 'T-9' } } } }]

  it('keeps work-object entities, alone or beside an event; refuses half an event or entities not a list', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const post = (m: unknown) => w.api('chat.postMessage', { channel: id, text: 'x', metadata: m })
    const alone = await post({ entities })
    expect(alone).toMatchObject({ ok: true, message: { metadata: { entities } } })
    expect(alone).not.toHaveProperty('warning')
    const both = await post({ ...metadata, entities })
    expect(both.message.metadata).toEqual({ ...metadata, entities })
    // An event type it cannot take is dropped with the warning; the entities stay.
    const dropped = await post({ event_type: 'a.b', event_payload: {}, entities })
    expect(dropped).toMatchObject({ ok: true, warning: 'invalid_metadata_schema', message: { metadata: { entities } } })
    expect(dropped.message.metadata).not.toHaveProperty('event_type')
    for (const bad of [{ entities: 'x' }, { entities: [1] }, { event_type: 'a', entities }, {}])
      expect(await post(bad)).toMatchObject({ ok: false, error: 'invalid_metadata_schema' })
    const all = await w.api('conversations.history', { channel: id, limit: 3, include_all_metadata: true })
    expect(all.messages.map((m: { metadata?: unknown }) => m.metadata)).toEqual([
      { entities },
      { ...metadata, entities },
      { entities },
    ])
  })

  it('chat.scheduleMessage keeps it and posts the message with it; refuses bad metadata up front', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const now = Math.floor(Number((await w.api('chat.postMessage', { channel: id, text: 'now' })).ts))
    const bad = await w.api('chat.scheduleMessage', { channel: id, text: 'x', post_at: now + 60, metadata: '{' })
    expect(bad).toMatchObject({ ok: false, error: 'invalid_metadata_format' })
    expect((await w.api('chat.scheduledMessages.list', { channel: id })).scheduled_messages).toEqual([])
    const s = await w.api('chat.scheduleMessage', { channel: id, text: 'later', post_at: now + 3600, metadata })
    expect(s.ok).toBe(true)
    passTime(w, 2 * 3600_000)
    const plain = await w.api('conversations.history', { channel: id, limit: 1 })
    expect(plain.messages[0].text).toBe('later')
    expect(plain.messages[0]).not.toHaveProperty('metadata')
    const all = await w.api('conversations.history', { channel: id, limit: 1, include_all_metadata: true })
    expect(all.messages[0]).toMatchObject({ text: 'later', metadata })
  })
})

describe('username', () => {
  it('shows a bot’s post under the name given; a user’s post stays the user’s (name ignored)', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const bot = w.bot()
    await w.api('conversations.join', { channel: id }, bot)
    const byBot = await w.api('chat.postMessage', { channel: id, text: 'Build done', username: 'Release Bot' }, bot)
    expect(byBot.ok).toBe(true)
    expect(byBot.message.username).toBe('Release Bot')
    const byUser = await w.api('chat.postMessage', { channel: id, text: 'hi', username: 'Bob' })
    expect(byUser.message).not.toHaveProperty('username')
    expect(byUser.message.user).toBe(await w.uid('alice'))
    const hist = await w.api('conversations.history', { channel: id, limit: 2 }, 'bob')
    const shown = Object.fromEntries(hist.messages.map((m: { ts: string; username?: string }) => [m.ts, m.username]))
    expect(shown).toEqual({ [byBot.ts]: 'Release Bot', [byUser.ts]: undefined })
  })
})

describe('through the official client', () => {
  let server: SdkServer
  beforeAll(async () => {
    server = await startSdkServer('demo')
  })
  afterAll(() => server.close())

  it('posts metadata and reads it back with include_all_metadata', async () => {
    const client = server.slack()
    const list = await client.conversations.list({ types: 'public_channel' })
    const id = list.channels!.find((c) => c.name === 'engineering')!.id!
    const posted = await client.chat.postMessage({ channel: id, text: 'New ticket', metadata })
    const hist = await client.conversations.history({ channel: id, limit: 1, include_all_metadata: true })
    expect(hist.messages![0]).toMatchObject({ ts: posted.ts, metadata })
    await expect(
      client.chat.postMessage({ channel: id, text: 'x', metadata: { event_type: '', event_payload: {} } }),
    ).rejects.toMatchObject({ data: { error: 'invalid_metadata_schema' } })
  })
})
