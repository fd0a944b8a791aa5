import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

describe('conversations.list', () => {
  it('hides private channels from non-members and filters archived ones', async () => {
    const w = slackWorld()
    const asCarol = await w.api('conversations.list', { types: 'public_channel,private_channel' }, 'carol')
    const names = asCarol.channels.map((c: { name: string }) => c.name)
    expect(names).toContain('general')
    expect(names).not.toContain('leadership')
    const asAlice = await w.api('conversations.list', { types: 'private_channel' }, 'alice')
    expect(asAlice.channels.map((c: { name: string }) => c.name)).toEqual(['leadership'])
    const active = await w.api('conversations.list', { exclude_archived: true })
    expect(active.channels.map((c: { name: string }) => c.name)).not.toContain('old-projects')
  })
  it('pages with limit and next_cursor', async () => {
    const w = slackWorld()
    const first = await w.api('conversations.list', { limit: 2 })
    expect(first.channels).toHaveLength(2)
    expect(first.response_metadata.next_cursor).not.toBe('')
    const second = await w.api('conversations.list', { limit: 2, cursor: first.response_metadata.next_cursor })
    expect(second.channels[0].id).not.toBe(first.channels[0].id)
    expect((await w.api('conversations.list', { cursor: 'garbage' })).error).toBe('invalid_cursor')
  })
  it('rejects unknown types', async () => {
    expect((await slackWorld().api('conversations.list', { types: 'nope' })).error).toBe('invalid_types')
  })
})

describe('conversations.info', () => {
  it('answers channel_not_found for a private channel to a non-member', async () => {
    const w = slackWorld()
    const id = await w.channel('leadership')
    expect((await w.api('conversations.info', { channel: id }, 'carol')).error).toBe('channel_not_found')
    const r = await w.api('conversations.info', { channel: id, include_num_members: true }, 'bob')
    expect(r.channel.is_private).toBe(true)
    expect(r.channel.num_members).toBe(3)
  })
})

describe('conversations.create', () => {
  it('creates a channel with the creator as member and refuses duplicates and bad names', async () => {
    const w = slackWorld()
    const r = await w.api('conversations.create', { name: 'launch-plan', is_private: 'true' }, 'bob')
    expect(r.ok).toBe(true)
    expect(r.channel.is_private).toBe(true)
    expect(r.channel.is_member).toBe(true)
    expect((await w.api('conversations.create', { name: 'launch-plan' })).error).toBe('name_taken')
    expect((await w.api('conversations.create', { name: 'Bad Name!' })).error).toBe('invalid_name_specials')
    expect((await w.api('conversations.info', { channel: r.channel.id }, 'carol')).error).toBe('channel_not_found')
  })
})

describe('conversations.archive', () => {
  it('archives a channel so posts fail with is_archived, and conversations.unarchive restores posting', async () => {
    const w = slackWorld()
    const id = (await w.api('conversations.create', { name: 'temp' })).channel.id
    expect((await w.api('conversations.archive', { channel: id })).ok).toBe(true)
    expect((await w.api('conversations.archive', { channel: id })).error).toBe('already_archived')
    expect((await w.api('chat.postMessage', { channel: id, text: 'x' })).error).toBe('is_archived')
    expect((await w.api('conversations.unarchive', { channel: id })).ok).toBe(true)
    expect((await w.api('chat.postMessage', { channel: id, text: 'x' })).ok).toBe(true)
    expect((await w.api('conversations.archive', { channel: await w.channel('general') })).error).toBe(
      'cant_archive_general',
    )
  })
})

describe('conversations.rename', () => {
  it('renames and records the previous name', async () => {
    const w = slackWorld()
    const id = (await w.api('conversations.create', { name: 'alpha' })).channel.id
    const r = await w.api('conversations.rename', { channel: id, name: 'beta' })
    expect(r.channel.name).toBe('beta')
    expect(r.channel.previous_names).toEqual(['alpha'])
    expect((await w.api('conversations.rename', { channel: id, name: 'general' })).error).toBe('name_taken')
  })
})

describe('conversations.invite', () => {
  it('adds members, then conversations.kick removes them; conversations.members lists them', async () => {
    const w = slackWorld()
    const carol = await w.uid('carol')
    const id = (await w.api('conversations.create', { name: 'design', is_private: true })).channel.id
    expect((await w.api('conversations.invite', { channel: id, users: carol })).ok).toBe(true)
    expect((await w.api('conversations.invite', { channel: id, users: carol })).error).toBe('already_in_channel')
    expect((await w.api('conversations.members', { channel: id })).members).toContain(carol)
    expect((await w.api('conversations.info', { channel: id }, 'carol')).ok).toBe(true)
    expect(await w.api('conversations.kick', { channel: id, user: carol })).toEqual({ ok: true, errors: {} })
    expect((await w.api('conversations.members', { channel: id })).members).not.toContain(carol)
    expect((await w.api('conversations.info', { channel: id }, 'carol')).error).toBe('channel_not_found')
    expect((await w.api('conversations.invite', { channel: id, users: 'UNOPE' })).error).toBe('user_not_found')
  })
})

describe('conversations.join', () => {
  it('joins a public channel, warns when already in, and conversations.leave leaves it', async () => {
    const w = slackWorld()
    const id = await w.channel('sales')
    expect((await w.api('chat.postMessage', { channel: id, text: 'hi' }, 'carol')).error).toBe('not_in_channel')
    expect((await w.api('conversations.join', { channel: id }, 'carol')).channel.is_member).toBe(true)
    expect((await w.api('conversations.join', { channel: id }, 'carol')).warning).toBe('already_in_channel')
    expect((await w.api('chat.postMessage', { channel: id, text: 'hi' }, 'carol')).ok).toBe(true)
    expect((await w.api('conversations.leave', { channel: id }, 'carol')).ok).toBe(true)
    expect((await w.api('conversations.leave', { channel: id }, 'carol')).not_in_channel).toBe(true)
    expect((await w.api('conversations.leave', { channel: await w.channel('general') }, 'carol')).error).toBe(
      'cant_leave_general',
    )
    expect((await w.api('conversations.join', { channel: await w.channel('leadership') }, 'carol')).error).toBe(
      'channel_not_found',
    )
  })
})

describe('conversations.open', () => {
  it('opens the same DM twice and an MPIM for three people; conversations.close closes it', async () => {
    const w = slackWorld()
    const [bob, carol] = [await w.uid('bob'), await w.uid('carol')]
    const a = await w.api('conversations.open', { users: bob })
    const b = await w.api('conversations.open', { users: bob, return_im: true })
    expect(a.channel.id).toMatch(/^D/)
    expect(b.channel.id).toBe(a.channel.id)
    expect(b.already_open).toBe(true)
    const m = await w.api('conversations.open', { users: `${bob},${carol}` })
    expect(m.channel.is_mpim).toBe(true)
    expect((await w.api('conversations.close', { channel: a.channel.id })).ok).toBe(true)
    expect((await w.api('conversations.close', { channel: a.channel.id })).already_closed).toBe(true)
    expect((await w.api('conversations.open', {})).error).toBe('users_list_not_supplied')
  })
})

describe('conversations.mark', () => {
  it('sets the read cursor shown by conversations.info', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const ts = (await w.api('chat.postMessage', { channel: id, text: 'read me' })).ts
    expect((await w.api('conversations.mark', { channel: id, ts })).ok).toBe(true)
    expect((await w.api('conversations.info', { channel: id })).channel.last_read).toBe(ts)
    expect((await w.api('conversations.mark', { channel: id, ts: 'x' })).error).toBe('invalid_timestamp')
  })
})

describe('conversations.setTopic', () => {
  it('sets topic and conversations.setPurpose sets purpose, both with creator', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const me = await w.uid('bob')
    const t = await w.api('conversations.setTopic', { channel: id, topic: 'Release week' }, 'bob')
    expect(t.channel.topic).toMatchObject({ value: 'Release week', creator: me })
    const p = await w.api('conversations.setPurpose', { channel: id, purpose: 'Build things' }, 'bob')
    expect(p.channel.purpose.value).toBe('Build things')
    expect((await w.api('conversations.setTopic', { channel: id, topic: 'x' }, 'dan')).error).toBe('not_in_channel')
  })
})

describe('conversations.invite', () => {
  it("answers with the caller's last_read on invite and rename, and priority on join (as recorded)", async () => {
    const w = slackWorld()
    const id = (await w.api('conversations.create', { name: 'shape-check' })).channel.id
    const invited = await w.api('conversations.invite', { channel: id, users: await w.uid('bob') })
    expect(invited.channel.last_read).toMatch(/^\d{10}\.\d{6}$/)
    const renamed = await w.api('conversations.rename', { channel: id, name: 'shape-check-2' })
    expect(renamed.channel.last_read).toMatch(/^\d{10}\.\d{6}$/)
    const joined = await w.api('conversations.join', { channel: id }, 'carol')
    expect(joined.channel).toMatchObject({ priority: 0, is_member: true })
  })
})
