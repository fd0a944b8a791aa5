import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

describe('auth.test', () => {
  it('names the caller, and the bot_id for bot tokens', async () => {
    const w = slackWorld()
    const r = await w.api('auth.test', {}, 'bob')
    expect(r).toMatchObject({ ok: true, user: 'bob', team: 'Northwind Labs', url: 'https://northwind.slack.com/' })
    expect(r.user_id).toMatch(/^U/)
    expect((await w.api('auth.test', {}, w.bot())).bot_id).toMatch(/^B/)
    expect((await w.api('auth.test', {}, 'xoxp-test-00')).error).toBe('invalid_auth')
  })
})

describe('auth.revoke', () => {
  it('revokes the token so later calls are invalid_auth; test mode revokes nothing', async () => {
    const w = slackWorld()
    const token = w.h.slack('carol')
    expect((await w.api('auth.revoke', { test: true }, token)).revoked).toBe(false)
    expect((await w.api('auth.revoke', {}, token)).revoked).toBe(true)
    expect((await w.api('auth.test', {}, token)).error).toBe('invalid_auth')
  })
})

describe('api.test', () => {
  it('echoes args and the requested error', async () => {
    const w = slackWorld()
    expect((await w.api('api.test', { foo: 'bar' }, null)).args).toEqual({ foo: 'bar' })
    expect((await w.api('api.test', { error: 'my_error' }, null)).error).toBe('my_error')
  })
})

describe('team.info', () => {
  it('describes the workspace; team.profile.get lists profile fields; emoji.list lists custom emoji', async () => {
    const w = slackWorld()
    expect((await w.api('team.info')).team).toMatchObject({ name: 'Northwind Labs', domain: 'northwind' })
    expect((await w.api('team.profile.get')).profile.fields.length).toBeGreaterThan(0)
    expect((await w.api('emoji.list')).emoji.shipit).toMatch(/^https:/)
  })
})

describe('users.list', () => {
  it('lists people and the bot with emails only under users:read.email, paging with a cursor', async () => {
    const w = slackWorld()
    const all = await w.api('users.list')
    const names = all.members.map((m: { name: string }) => m.name)
    expect(names).toEqual(expect.arrayContaining(['alice', 'bob', 'deploybot']))
    expect(all.members.find((m: { name: string }) => m.name === 'bob').profile.email).toBe('bob@northwind.test')
    const p = await w.api('users.list', { limit: 2 })
    expect(p.members).toHaveLength(2)
    expect(p.response_metadata.next_cursor).not.toBe('')
  })

  it("adds each member's locale with include_locale, as users.info does", async () => {
    const w = slackWorld()
    const plain = await w.api('users.list', { limit: 3 })
    expect(plain.members.some((m: { locale?: string }) => 'locale' in m)).toBe(false)
    const withLocale = await w.api('users.list', { limit: 3, include_locale: 'true' })
    expect(withLocale.members.map((m: { locale?: string }) => m.locale)).toEqual(['en-US', 'en-US', 'en-US'])
  })
})

describe('users.info', () => {
  it('returns one user or user_not_found; users.lookupByEmail finds by address', async () => {
    const w = slackWorld()
    const id = await w.uid('carol')
    const r = await w.api('users.info', { user: id })
    expect(r.user).toMatchObject({
      id,
      name: 'carol',
      real_name: 'Carol Lindqvist',
      tz: 'Europe/Stockholm',
      is_bot: false,
    })
    expect((await w.api('users.info', { user: 'UNOPE' })).error).toBe('user_not_found')
    expect((await w.api('users.lookupByEmail', { email: 'CAROL@northwind.test' })).user.id).toBe(id)
    expect((await w.api('users.lookupByEmail', { email: 'nobody@x.y' })).error).toBe('users_not_found')
  })
})

describe('users.conversations', () => {
  it('lists only conversations the user is in', async () => {
    const w = slackWorld()
    const r = await w.api('users.conversations', { types: 'public_channel,private_channel' }, 'carol')
    const names = r.channels.map((c: { name: string }) => c.name)
    expect(names).toContain('engineering')
    expect(names).not.toContain('sales')
    expect(names).not.toContain('leadership')
  })
})

describe('users.setPresence', () => {
  it('sets away, read back by users.getPresence', async () => {
    const w = slackWorld()
    expect((await w.api('users.setPresence', { presence: 'away' }, 'dan')).ok).toBe(true)
    expect((await w.api('users.getPresence', {}, 'dan')).presence).toBe('away')
    expect((await w.api('users.getPresence', { user: await w.uid('dan') }, 'bob')).presence).toBe('away')
    expect((await w.api('users.setPresence', { presence: 'busy' }, 'dan')).error).toBe('invalid_presence')
  })
})

describe('users.profile.set', () => {
  it('sets status text and emoji, read by users.profile.get; users.identity names the user', async () => {
    const w = slackWorld()
    const r = await w.api(
      'users.profile.set',
      { profile: { status_text: 'On vacation', status_emoji: ':palm_tree:' } },
      'erin',
    )
    expect(r.profile.status_text).toBe('On vacation')
    expect((await w.api('users.profile.get', {}, 'erin')).profile.status_emoji).toBe(':palm_tree:')
    // The own-profile methods leave out `team` (users.info's profile has it).
    expect(r.profile).not.toHaveProperty('team')
    expect((await w.api('users.profile.get', {}, 'erin')).profile).not.toHaveProperty('team')
    expect((await w.api('users.info', { user: await w.uid('erin') })).user.profile.team).toMatch(/^T/)
    expect((await w.api('users.identity', {}, 'erin')).user.email).toBe('erin@northwind.test')
    expect((await w.api('users.profile.set', {}, 'erin')).error).toBe('invalid_profile')
  })
})

describe('bots.info', () => {
  it('describes the demo bot', async () => {
    const w = slackWorld()
    const botId = (await w.api('auth.test', {}, w.bot())).bot_id
    expect((await w.api('bots.info', { bot: botId })).bot.name).toBe('Deploy Bot')
    expect((await w.api('bots.info', { bot: 'BNOPE' })).error).toBe('bot_not_found')
  })
})

describe('reactions.add', () => {
  it('adds reactions grouped by name; reactions.get and reactions.list show them; reactions.remove removes', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'ship it' })
    expect((await w.api('reactions.add', { channel: id, timestamp: m.ts, name: 'rocket' }, 'bob')).ok).toBe(true)
    expect((await w.api('reactions.add', { channel: id, timestamp: m.ts, name: ':rocket:' }, 'carol')).ok).toBe(true)
    expect((await w.api('reactions.add', { channel: id, timestamp: m.ts, name: 'rocket' }, 'bob')).error).toBe(
      'already_reacted',
    )
    const g = await w.api('reactions.get', { channel: id, timestamp: m.ts })
    expect(g.message.reactions).toEqual([
      { name: 'rocket', users: [await w.uid('bob'), await w.uid('carol')], count: 2 },
    ])
    expect((await w.api('reactions.list', {}, 'bob')).items[0].message.ts).toBe(m.ts)
    expect((await w.api('reactions.remove', { channel: id, timestamp: m.ts, name: 'rocket' }, 'bob')).ok).toBe(true)
    expect((await w.api('reactions.remove', { channel: id, timestamp: m.ts, name: 'rocket' }, 'bob')).error).toBe(
      'no_reaction',
    )
    expect((await w.api('reactions.add', { channel: id, timestamp: '1.000001', name: 'x' })).error).toBe(
      'message_not_found',
    )
  })
})

describe('pins.add', () => {
  it('pins a message listed by pins.list; pins.remove unpins', async () => {
    const w = slackWorld()
    const id = await w.channel('sales')
    const m = await w.api('chat.postMessage', { channel: id, text: 'Q3 targets' }, 'dan')
    expect((await w.api('pins.add', { channel: id, timestamp: m.ts }, 'dan')).ok).toBe(true)
    expect((await w.api('pins.add', { channel: id, timestamp: m.ts }, 'dan')).error).toBe('already_pinned')
    expect((await w.api('pins.list', { channel: id }, 'dan')).items[0].message.text).toBe('Q3 targets')
    expect((await w.api('pins.remove', { channel: id, timestamp: m.ts }, 'dan')).ok).toBe(true)
    expect((await w.api('pins.remove', { channel: id, timestamp: m.ts }, 'dan')).error).toBe('no_pin')
  })
})

describe('stars.add', () => {
  it('saves a message for stars.list; stars.remove unsaves', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'save me' })
    expect((await w.api('stars.add', { channel: id, timestamp: m.ts })).ok).toBe(true)
    expect((await w.api('stars.add', { channel: id, timestamp: m.ts })).error).toBe('already_starred')
    expect((await w.api('stars.list')).items[0].message.text).toBe('save me')
    expect((await w.api('stars.remove', { channel: id, timestamp: m.ts })).ok).toBe(true)
    expect((await w.api('stars.list')).items).toEqual([])
  })
})

describe('bookmarks.add', () => {
  it('adds, bookmarks.edit edits, bookmarks.list lists and bookmarks.remove removes', async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const b = await w.api(
      'bookmarks.add',
      { channel_id: id, title: 'Runbook', type: 'link', link: 'https://wiki.example/runbook' },
      'bob',
    )
    expect(b.bookmark.title).toBe('Runbook')
    expect(
      (await w.api('bookmarks.edit', { channel_id: id, bookmark_id: b.bookmark.id, title: 'Ops runbook' }, 'bob'))
        .bookmark.title,
    ).toBe('Ops runbook')
    expect((await w.api('bookmarks.list', { channel_id: id }, 'bob')).bookmarks).toHaveLength(1)
    expect((await w.api('bookmarks.remove', { channel_id: id, bookmark_id: b.bookmark.id }, 'bob')).ok).toBe(true)
    expect(
      (await w.api('bookmarks.add', { channel_id: id, title: 'x', type: 'link', link: 'javascript:alert(1)' }, 'bob'))
        .error,
    ).toBe('invalid_link')
    expect(
      (await w.api('bookmarks.add', { channel_id: id, type: 'link', link: 'https://wiki.example/x' }, 'bob'))
        .response_metadata,
    ).toEqual({ messages: ['[ERROR] missing required field: title'] })
  })
})

describe('usergroups.create', () => {
  it('creates a group; usergroups.users.update sets members read by usergroups.users.list; disable/enable/update/list', async () => {
    const w = slackWorld()
    const g = (await w.api('usergroups.create', { name: 'Sales team', handle: 'sales-team' })).usergroup
    const dan = await w.uid('dan')
    expect((await w.api('usergroups.users.update', { usergroup: g.id, users: dan })).usergroup.user_count).toBe(1)
    expect((await w.api('usergroups.users.list', { usergroup: g.id })).users).toEqual([dan])
    expect((await w.api('usergroups.update', { usergroup: g.id, description: 'Sellers' })).usergroup.description).toBe(
      'Sellers',
    )
    expect((await w.api('usergroups.disable', { usergroup: g.id })).usergroup.date_delete).toBeGreaterThan(0)
    expect((await w.api('usergroups.list')).usergroups.map((x: { id: string }) => x.id)).not.toContain(g.id)
    expect((await w.api('usergroups.enable', { usergroup: g.id })).ok).toBe(true)
    expect((await w.api('usergroups.create', { name: 'Dup', handle: 'sales-team' })).error).toBe('name_already_exists')
  })
})

describe('reminders.add', () => {
  it('adds a reminder that fires as a Slackbot DM when the clock passes; list/info/complete/delete', async () => {
    const w = slackWorld()
    const r = (await w.api('reminders.add', { text: 'call Globex', time: 'in 2 minutes' }, 'dan')).reminder
    expect((await w.api('reminders.info', { reminder: r.id }, 'dan')).reminder.text).toBe('call Globex')
    expect((await w.api('reminders.list', {}, 'dan')).reminders.map((x: { id: string }) => x.id)).toContain(r.id)
    expect((await w.api('reminders.info', { reminder: r.id }, 'bob')).error).toBe('not_found')
    w.h.entry.world.db.$client.prepare("UPDATE world_meta SET value = '600000' WHERE key = 'tick_ms'").run()
    await w.api('auth.test', {}, 'dan')
    const ims = await w.api('conversations.list', { types: 'im' }, 'dan')
    const slackbot = ims.channels.find((c: { user: string }) => c.user === 'USLACKBOT')
    const h = await w.api('conversations.history', { channel: slackbot.id }, 'dan')
    expect(h.messages[0].text).toBe('Reminder: call Globex.')
    expect((await w.api('reminders.complete', { reminder: r.id }, 'dan')).ok).toBe(true)
    expect((await w.api('reminders.delete', { reminder: r.id }, 'dan')).ok).toBe(true)
    expect((await w.api('reminders.add', { text: 'x', time: 'whenever' }, 'dan')).error).toBe('cannot_parse')
  })
})

describe('dnd.setSnooze', () => {
  it('snoozes, read by dnd.info and dnd.teamInfo; dnd.endSnooze and dnd.endDnd end it', async () => {
    const w = slackWorld()
    expect((await w.api('dnd.setSnooze', { num_minutes: 30 }, 'bob')).snooze_enabled).toBe(true)
    expect((await w.api('dnd.info', {}, 'bob')).snooze_enabled).toBe(true)
    const bob = await w.uid('bob')
    expect((await w.api('dnd.teamInfo', { users: bob })).users[bob].dnd_enabled).toBe(true)
    expect((await w.api('dnd.endSnooze', {}, 'bob')).snooze_enabled).toBe(false)
    expect((await w.api('dnd.endSnooze', {}, 'bob')).error).toBe('snooze_not_active')
    expect((await w.api('dnd.endDnd', {}, 'bob')).ok).toBe(true)
  })
})
