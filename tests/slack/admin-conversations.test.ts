import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

const names = async (w: ReturnType<typeof slackWorld>, user = 'alice') =>
  (
    (await w.api('conversations.list', { types: 'public_channel,private_channel', limit: 1000 }, user)).channels as {
      name: string
    }[]
  ).map((c) => c.name)

describe('admin.conversations.create', () => {
  it('creates a private channel for an admin; members, bots and a non-admin with the scope are refused', async () => {
    const w = slackWorld()
    const r = await w.api('admin.conversations.create', {
      name: 'hiring',
      is_private: true,
      description: 'Hiring loop',
    })
    expect(r.ok).toBe(true)
    expect(r.channel_id).toMatch(/^C/)
    const info = await w.api('conversations.info', { channel: r.channel_id })
    expect(info.channel).toMatchObject({ name: 'hiring', is_private: true, purpose: { value: 'Hiring loop' } })
    expect((await w.api('admin.conversations.create', { name: 'hiring', is_private: false })).error).toBe('name_taken')
    expect((await w.api('admin.conversations.create', { name: 'Bad Name', is_private: false })).error).toBe(
      'invalid_name',
    )
    expect((await w.api('admin.conversations.create', { name: 'x' })).error).toBe('invalid_arguments')
    expect((await w.api('admin.conversations.create', { name: 'y', is_private: false, team_id: 'TNOPE' })).error).toBe(
      'team_not_found',
    )
    const bob = await w.api('admin.conversations.create', { name: 'z', is_private: false }, 'bob')
    expect(bob).toMatchObject({ error: 'missing_scope', needed: 'admin.conversations:write' })
    expect((await w.api('admin.conversations.create', { name: 'z', is_private: false }, w.bot())).error).toBe(
      'not_allowed_token_type',
    )
  })

  it('answers not_an_admin to a member whose token holds the admin scope', async () => {
    const w = slackWorld({
      users: [
        { id: 'ann', email: 'ann@x.test', name: 'Ann A', timeZone: 'UTC', admin: true },
        { id: 'ben', email: 'ben@x.test', name: 'Ben B', timeZone: 'UTC', admin: false },
      ],
      slack: { userScopes: { ben: ['admin.conversations:write'] } },
    })
    expect((await w.api('admin.conversations.create', { name: 'ops', is_private: false }, 'ben')).error).toBe(
      'not_an_admin',
    )
    expect((await w.api('admin.conversations.create', { name: 'ops', is_private: false }, 'ann')).ok).toBe(true)
  })
})

describe('admin.conversations.archive', () => {
  it('archives a channel the admin is not in; unarchive restores it; general cannot be archived', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const sales = await w.channel('sales')
    expect((await w.api('admin.conversations.archive', { channel_id: sales })).ok).toBe(true)
    expect((await w.api('conversations.info', { channel: sales }, 'dan')).channel.is_archived).toBe(true)
    expect((await w.api('admin.conversations.archive', { channel_id: sales })).error).toBe('already_archived')
    expect((await w.api('admin.conversations.archive', { channel_id: await w.channel('general') })).error).toBe(
      'cant_archive_general',
    )
    expect((await w.api('admin.conversations.unarchive', { channel_id: sales })).ok).toBe(true)
    expect((await w.api('admin.conversations.unarchive', { channel_id: sales })).error).toBe('channel_not_archived')
    expect((await w.api('admin.conversations.archive', { channel_id: 'CNOPE' })).error).toBe('channel_not_found')
    const dm = (await w.api('conversations.open', { users: await w.uid('bob') })).channel.id
    expect((await w.api('admin.conversations.archive', { channel_id: dm })).error).toBe('channel_type_not_supported')
    expect((await w.api('admin.conversations.archive', { channel_id: eng }, 'bob')).error).toBe('missing_scope')
  })
})

describe('admin.conversations.bulkArchive', () => {
  it('archives every listed channel or none; admin.conversations.bulkDelete deletes them', async () => {
    const w = slackWorld()
    const [random, sales, general] = [await w.channel('random'), await w.channel('sales'), await w.channel('general')]
    expect((await w.api('admin.conversations.bulkArchive', { channel_ids: `${random},${general}` })).error).toBe(
      'cant_archive_general',
    )
    expect((await w.api('conversations.info', { channel: random })).channel.is_archived).toBe(false)
    const r = await w.api('admin.conversations.bulkArchive', { channel_ids: `${random},${sales}` })
    expect(r.bulk_action_id).toMatch(/^Ba/)
    expect((await w.api('conversations.info', { channel: sales })).channel.is_archived).toBe(true)
    expect((await w.api('admin.conversations.bulkDelete', { channel_ids: [random, sales] }, 'alice', true)).ok).toBe(
      true,
    )
    expect((await w.api('conversations.info', { channel: random })).error).toBe('channel_not_found')
  })
})

describe('admin.conversations.delete', () => {
  it('removes the channel with its messages; general is refused', async () => {
    const w = slackWorld()
    const sales = await w.channel('sales')
    expect((await w.api('admin.conversations.delete', { channel_id: sales })).ok).toBe(true)
    expect(await names(w, 'dan')).not.toContain('sales')
    expect((await w.api('conversations.history', { channel: sales }, 'dan')).error).toBe('channel_not_found')
    expect((await w.api('admin.conversations.delete', { channel_id: await w.channel('general') })).error).toBe(
      'default_org_wide_channel',
    )
  })
})

describe('admin.conversations.rename', () => {
  it('renames any channel and keeps previous names', async () => {
    const w = slackWorld()
    const leadership = await w.channel('leadership')
    expect((await w.api('admin.conversations.rename', { channel_id: leadership, name: 'exec' })).ok).toBe(true)
    expect((await w.api('conversations.info', { channel: leadership })).channel).toMatchObject({
      name: 'exec',
      previous_names: ['leadership'],
    })
    expect((await w.api('admin.conversations.rename', { channel_id: leadership, name: 'general' })).error).toBe(
      'name_taken',
    )
  })
})

describe('admin.conversations.invite', () => {
  it('adds users to a private channel; unknown users fail the whole call', async () => {
    const w = slackWorld()
    const leadership = await w.channel('leadership')
    const dan = await w.uid('dan')
    expect((await w.api('admin.conversations.invite', { channel_id: leadership, user_ids: 'UNOPE' })).error).toBe(
      'failed_for_some_users',
    )
    expect((await w.api('admin.conversations.invite', { channel_id: leadership, user_ids: dan })).ok).toBe(true)
    expect((await w.api('conversations.members', { channel: leadership })).members).toContain(dan)
    expect(await names(w, 'dan')).toContain('leadership')
  })
})

describe('admin.conversations.convertToPrivate', () => {
  it('makes a public channel private (non-members lose it) and admin.conversations.convertToPublic reverts', async () => {
    const w = slackWorld()
    const sales = await w.channel('sales')
    expect((await w.api('admin.conversations.convertToPrivate', { channel_id: sales })).ok).toBe(true)
    expect((await w.api('conversations.info', { channel: sales }, 'carol')).error).toBe('channel_not_found')
    expect((await w.api('admin.conversations.convertToPrivate', { channel_id: sales })).error).toBe(
      'method_not_supported_for_channel_type',
    )
    expect((await w.api('admin.conversations.convertToPublic', { channel_id: sales })).ok).toBe(true)
    expect((await w.api('conversations.info', { channel: sales }, 'carol')).channel.is_private).toBe(false)
    expect(
      (await w.api('admin.conversations.convertToPrivate', { channel_id: await w.channel('general') })).error,
    ).toBe('default_org_wide_channel')
  })
})

describe('admin.conversations.setConversationPrefs', () => {
  it('restricts who can post, read by admin.conversations.getConversationPrefs and enforced by chat.postMessage', async () => {
    const w = slackWorld()
    const general = await w.channel('general')
    const bob = await w.uid('bob')
    expect(
      (
        await w.api('admin.conversations.setConversationPrefs', {
          channel_id: general,
          prefs: { who_can_post: `type:admin,user:${bob}` },
        })
      ).ok,
    ).toBe(true)
    const prefs = (await w.api('admin.conversations.getConversationPrefs', { channel_id: general })).prefs
    expect(prefs.who_can_post).toEqual({ type: ['admin'], user: [bob] })
    expect((await w.api('chat.postMessage', { channel: general, text: 'hi' }, 'carol')).error).toBe('restricted_action')
    expect((await w.api('chat.postMessage', { channel: general, text: 'hi' }, 'bob')).ok).toBe(true)
    expect((await w.api('chat.postMessage', { channel: general, text: 'hi' }, 'alice')).ok).toBe(true)
    expect(
      (await w.api('admin.conversations.setConversationPrefs', { channel_id: general, prefs: '{"nope":"type:admin"}' }))
        .error,
    ).toBe('invalid_arguments')
  })
})

describe('admin.conversations.search', () => {
  it('finds channels by name including private ones, filtered by type and sorted', async () => {
    const w = slackWorld()
    const all = await w.api('admin.conversations.search', { sort: 'name', limit: 20 })
    expect(all.conversations.map((c: { name: string }) => c.name)).toEqual([
      'engineering',
      'general',
      'leadership',
      'old-projects',
      'random',
      'sales',
    ])
    const priv = await w.api('admin.conversations.search', { search_channel_types: 'private' })
    expect(priv.conversations.map((c: { name: string }) => c.name)).toEqual(['leadership'])
    expect((await w.api('admin.conversations.search', { query: 'sal' })).conversations[0]).toMatchObject({
      name: 'sales',
      member_count: 3,
      is_private: false,
    })
    const p = await w.api('admin.conversations.search', { sort: 'name', limit: 2 })
    expect(p.next_cursor).not.toBe('')
    expect(
      (await w.api('admin.conversations.search', { sort: 'name', limit: 2, cursor: p.next_cursor })).conversations[0]
        .name,
    ).toBe('leadership')
    expect((await w.api('admin.conversations.search', { sort: 'size' })).error).toBe('invalid_sort')
    expect((await w.api('admin.conversations.search', { search_channel_types: 'weird' })).error).toBe(
      'invalid_search_channel_type',
    )
  })
})

describe('admin.conversations.lookup', () => {
  it('lists channels without activity since a time', async () => {
    const w = slackWorld()
    const team = (await w.api('team.info')).team.id
    const now = Math.floor(
      Number((await w.api('chat.postMessage', { channel: await w.channel('general'), text: 'x' })).ts),
    )
    const r = await w.api('admin.conversations.lookup', {
      team_ids: team,
      last_message_activity_before: now - 20 * 86400,
    })
    expect(r.channel_ids).toEqual([await w.channel('random')])
    expect(r.channel_ids).not.toContain(await w.channel('general'))
    expect((await w.api('admin.conversations.lookup', { team_ids: team })).error).toBe('invalid_arguments')
  })
})

describe('admin.conversations.getTeams', () => {
  it('names the workspace; admin.conversations.setCustomRetention is read by getCustomRetention and removed by removeCustomRetention', async () => {
    const w = slackWorld()
    const sales = await w.channel('sales')
    expect((await w.api('admin.conversations.getTeams', { channel_id: sales })).teams).toEqual([
      (await w.api('team.info')).team.id,
    ])
    expect((await w.api('admin.conversations.setCustomRetention', { channel_id: sales, duration_days: 90 })).ok).toBe(
      true,
    )
    expect(await w.api('admin.conversations.getCustomRetention', { channel_id: sales })).toMatchObject({
      duration_days: 90,
      is_policy_enabled: true,
    })
    expect((await w.api('admin.conversations.setCustomRetention', { channel_id: sales, duration_days: 0 })).error).toBe(
      'invalid_duration_days',
    )
    expect((await w.api('admin.conversations.removeCustomRetention', { channel_id: sales })).ok).toBe(true)
    expect((await w.api('admin.conversations.getCustomRetention', { channel_id: sales })).is_policy_enabled).toBe(false)
  })
})

describe('admin.conversations.restrictAccess.addGroup', () => {
  it('links a usergroup to a private channel, listed by listGroups and unlinked by removeGroup', async () => {
    const w = slackWorld()
    const leadership = await w.channel('leadership')
    const eng = (await w.api('usergroups.list')).usergroups[0].id
    expect(
      (await w.api('admin.conversations.restrictAccess.addGroup', { channel_id: leadership, group_id: eng })).ok,
    ).toBe(true)
    expect(
      (await w.api('admin.conversations.restrictAccess.addGroup', { channel_id: leadership, group_id: eng })).error,
    ).toBe('group_already_linked_to_channel')
    expect(
      (await w.api('admin.conversations.restrictAccess.listGroups', { channel_id: leadership })).group_ids,
    ).toEqual([eng])
    expect(
      (
        await w.api('admin.conversations.restrictAccess.addGroup', {
          channel_id: await w.channel('sales'),
          group_id: eng,
        })
      ).error,
    ).toBe('channel_type_not_supported')
    expect(
      (
        await w.api('admin.conversations.restrictAccess.removeGroup', {
          channel_id: leadership,
          group_id: eng,
          team_id: (await w.api('team.info')).team.id,
        })
      ).ok,
    ).toBe(true)
    expect(
      (await w.api('admin.conversations.restrictAccess.listGroups', { channel_id: leadership })).group_ids,
    ).toEqual([])
  })
})
