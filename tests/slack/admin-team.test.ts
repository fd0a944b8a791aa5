import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

const team = async (w: ReturnType<typeof slackWorld>, user = 'alice') =>
  (await w.api('team.info', {}, user)).team.id as string

describe('admin.emoji.add', () => {
  it('adds custom emoji that emoji.list shows; aliases, renames and removals follow', async () => {
    const w = slackWorld()
    expect((await w.api('admin.emoji.add', { name: 'shipped', url: 'https://example.test/shipped.png' })).ok).toBe(true)
    expect((await w.api('emoji.list', {}, 'bob')).emoji.shipped).toBe('https://example.test/shipped.png')
    expect((await w.api('admin.emoji.add', { name: 'shipped', url: 'https://example.test/x.png' })).error).toBe(
      'error_name_taken',
    )
    expect((await w.api('admin.emoji.add', { name: 'Bad Name', url: 'https://example.test/x.png' })).error).toBe(
      'invalid_name',
    )
    expect((await w.api('admin.emoji.add', { name: 'x', url: 'ftp://nope' })).error).toBe('invalid_url')
    expect((await w.api('admin.emoji.add', { name: 'x', url: 'https://e.test/x.png' }, 'bob')).error).toBe(
      'missing_scope',
    )
  })
})

describe('admin.emoji.addAlias', () => {
  it('adds an alias; admin.emoji.rename renames and keeps aliases pointing at it; admin.emoji.remove drops both', async () => {
    const w = slackWorld()
    expect((await w.api('admin.emoji.addAlias', { name: 'ship', alias_for: 'shipit' })).ok).toBe(true)
    expect((await w.api('emoji.list')).emoji.ship).toBe('alias:shipit')
    expect((await w.api('admin.emoji.addAlias', { name: 'y', alias_for: 'nope' })).error).toBe('emoji_not_found')
    expect((await w.api('admin.emoji.rename', { name: 'shipit', new_name: 'ship-it' })).ok).toBe(true)
    const e = (await w.api('emoji.list')).emoji
    expect(e.shipit).toBeUndefined()
    expect(e.ship).toBe('alias:ship-it')
    expect((await w.api('admin.emoji.remove', { name: 'ship-it' })).ok).toBe(true)
    expect(Object.keys((await w.api('emoji.list')).emoji)).not.toContain('ship')
    expect((await w.api('admin.emoji.remove', { name: 'ship-it' })).error).toBe('emoji_not_found')
  })
})

describe('admin.emoji.list', () => {
  it('lists emoji with uploader and date, paging with a cursor', async () => {
    const w = slackWorld()
    await w.api('admin.emoji.add', { name: 'aaa', url: 'https://e.test/a.png' })
    const r = await w.api('admin.emoji.list', { limit: 1 })
    expect(r.emoji.aaa).toMatchObject({ url: 'https://e.test/a.png', uploaded_by: await w.uid('alice') })
    expect(r.response_metadata.next_cursor).not.toBe('')
  })
})

describe('admin.teams.settings.setName', () => {
  it('renames the workspace (team.info, admin.teams.settings.info) and sets description, discoverability, icon and default channels', async () => {
    const w = slackWorld()
    const t = await team(w)
    const general = await w.channel('general')
    const random = await w.channel('random')
    expect((await w.api('admin.teams.settings.setName', { team_id: t, name: 'Northwind HQ' })).ok).toBe(true)
    expect((await w.api('team.info')).team.name).toBe('Northwind HQ')
    expect((await w.api('admin.teams.settings.setDescription', { team_id: t, description: 'Where we work' })).ok).toBe(
      true,
    )
    expect((await w.api('admin.teams.settings.setDiscoverability', { team_id: t, discoverability: 'open' })).ok).toBe(
      true,
    )
    expect(
      (await w.api('admin.teams.settings.setDiscoverability', { team_id: t, discoverability: 'public' })).error,
    ).toBe('invalid_discoverability')
    expect((await w.api('admin.teams.settings.setIcon', { team_id: t, image_url: 'https://e.test/icon.png' })).ok).toBe(
      true,
    )
    expect(
      (await w.api('admin.teams.settings.setDefaultChannels', { team_id: t, channel_ids: `${general},${random}` })).ok,
    ).toBe(true)
    expect(
      (
        await w.api('admin.teams.settings.setDefaultChannels', {
          team_id: t,
          channel_ids: await w.channel('leadership'),
        })
      ).error,
    ).toBe('channel_not_found')
    const info = (await w.api('admin.teams.settings.info', { team_id: t })).team
    expect(info).toMatchObject({
      name: 'Northwind HQ',
      description: 'Where we work',
      discoverability: 'open',
      default_channels: [general, random],
      icon: { image_original: 'https://e.test/icon.png' },
    })
    expect((await w.api('admin.teams.settings.setName', { team_id: 'T0NOPE', name: 'x' })).error).toBe('team_not_found')
  })
})

describe('admin.teams.list', () => {
  it('lists the workspace with its owner; admin.teams.admins.list and owners.list follow roles', async () => {
    const w = slackWorld()
    const t = await team(w)
    const alice = await w.uid('alice')
    expect((await w.api('admin.teams.list')).teams).toEqual([
      expect.objectContaining({
        id: t,
        name: 'Northwind Labs',
        primary_owner: { user_id: alice, email: 'alice@northwind.test' },
      }),
    ])
    expect((await w.api('admin.teams.admins.list', { team_id: t })).admin_ids).toEqual([alice])
    await w.api('admin.users.setAdmin', { team_id: t, user_id: await w.uid('erin') })
    expect((await w.api('admin.teams.admins.list', { team_id: t })).admin_ids).toEqual([alice, await w.uid('erin')])
    expect((await w.api('admin.teams.owners.list', { team_id: t })).owner_ids).toEqual([alice])
  })
})

describe('admin.usergroups.addChannels', () => {
  it('adds default channels to a usergroup, listed by listChannels and removed by removeChannels', async () => {
    const w = slackWorld()
    const g = (await w.api('usergroups.list')).usergroups[0].id
    const eng = await w.channel('engineering')
    expect((await w.api('admin.usergroups.addChannels', { usergroup_id: g, channel_ids: eng })).ok).toBe(true)
    expect(
      (await w.api('admin.usergroups.listChannels', { usergroup_id: g, include_num_members: true })).channels,
    ).toEqual([{ id: eng, name: 'engineering', team_id: await team(w), num_members: 4 }])
    expect((await w.api('usergroups.list')).usergroups[0].prefs.channels).toEqual([eng])
    expect((await w.api('admin.usergroups.addChannels', { usergroup_id: 'SNOPE', channel_ids: eng })).error).toBe(
      'no_such_subteam',
    )
    expect((await w.api('admin.usergroups.removeChannels', { usergroup_id: g, channel_ids: eng })).ok).toBe(true)
    expect((await w.api('admin.usergroups.listChannels', { usergroup_id: g })).channels).toEqual([])
  })
})

describe('admin.inviteRequests.list', () => {
  it('lists pending requests; approve and deny move them to approved.list and denied.list', async () => {
    const w = slackWorld({
      users: [
        { id: 'ann', email: 'ann@x.test', name: 'Ann A', timeZone: 'UTC', admin: true },
        { id: 'ben', email: 'ben@x.test', name: 'Ben B', timeZone: 'UTC', admin: false },
      ],
      slack: {
        channels: [{ name: 'general', general: true }],
        inviteRequests: [
          { email: 'c1@y.test', requester: 'ben', message: 'contractor', channels: ['general'] },
          { email: 'c2@y.test', requester: 'ben' },
        ],
      },
    })
    const reqs = (await w.api('admin.inviteRequests.list', {}, 'ann')).invite_requests
    expect(reqs.map((r: { email: string }) => r.email)).toEqual(['c1@y.test', 'c2@y.test'])
    expect(reqs[0]).toMatchObject({
      requester_ids: [await w.uid('ben')],
      request_reason: 'contractor',
      invite_type: 'full_member',
    })
    expect((await w.api('admin.inviteRequests.approve', { invite_request_id: reqs[0].id }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.inviteRequests.approve', { invite_request_id: reqs[0].id }, 'ann')).error).toBe(
      'invite_request_already_processed',
    )
    expect((await w.api('admin.inviteRequests.deny', { invite_request_id: reqs[1].id }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.inviteRequests.deny', { invite_request_id: 'Ir0' }, 'ann')).error).toBe(
      'invalid_invite_request_id',
    )
    expect((await w.api('admin.inviteRequests.list', {}, 'ann')).invite_requests).toEqual([])
    const approved = (await w.api('admin.inviteRequests.approved.list', {}, 'ann')).approved_requests
    expect(approved[0]).toMatchObject({
      invite_request: { email: 'c1@y.test' },
      approved_by: { actor_id: await w.uid('ann') },
    })
    expect((await w.api('admin.inviteRequests.denied.list', {}, 'ann')).denied_requests[0].invite_request.email).toBe(
      'c2@y.test',
    )
    // The approved request became a pending invitation: inviting again needs resend.
    expect(
      (
        await w.api(
          'admin.users.invite',
          { team_id: await team(w, 'ann'), email: 'c1@y.test', channel_ids: await w.channel('general', 'ann') },
          'ann',
        )
      ).error,
    ).toBe('already_invited')
  })
})

describe('admin.roles.addAssignments', () => {
  it('assigns roles listed by listAssignments, rejecting bad users and entities; removeAssignments removes', async () => {
    const w = slackWorld()
    const t = await team(w)
    const bob = await w.uid('bob')
    const r = await w.api('admin.roles.addAssignments', { role_id: 'Rl0A', entity_ids: t, user_ids: `${bob},UNOPE` })
    expect(r).toMatchObject({
      ok: true,
      rejected_users: [{ id: 'UNOPE', error: 'invalid_user' }],
      rejected_entities: [],
    })
    expect(
      (
        await w.api('admin.roles.addAssignments', {
          role_id: 'Rl0D',
          entity_ids: await w.channel('sales'),
          user_ids: bob,
        })
      ).ok,
    ).toBe(true)
    expect(
      (await w.api('admin.roles.addAssignments', { role_id: 'Rl0A', entity_ids: 'CXYZ', user_ids: bob }))
        .rejected_entities,
    ).toEqual([{ id: 'CXYZ', error: 'invalid_entity' }])
    expect((await w.api('admin.roles.addAssignments', { role_id: 'Rl99', entity_ids: t, user_ids: bob })).error).toBe(
      'role_not_found',
    )
    const list = await w.api('admin.roles.listAssignments', { role_ids: 'Rl0A' })
    expect(list.role_assignments).toEqual([
      { role_id: 'Rl0A', entity_id: t, user_id: bob, date_create: expect.any(Number) },
    ])
    expect((await w.api('admin.roles.listAssignments')).role_assignments).toHaveLength(2)
    expect((await w.api('admin.roles.removeAssignments', { role_id: 'Rl0A', entity_ids: t, user_ids: bob })).ok).toBe(
      true,
    )
    expect((await w.api('admin.roles.listAssignments', { role_ids: 'Rl0A' })).role_assignments).toEqual([])
  })
})

describe('team.accessLogs', () => {
  it('reports sign-ins per session for admins; members lack the admin scope', async () => {
    const w = slackWorld()
    const r = await w.api('team.accessLogs', { count: 2 })
    expect(r.logins).toHaveLength(2)
    expect(r.logins[0]).toMatchObject({ user_id: expect.stringMatching(/^U/), ip: expect.any(String), count: 1 })
    expect(r.paging).toMatchObject({ count: 2, total: 5, pages: 3 })
    expect((await w.api('team.accessLogs', {}, 'bob')).error).toBe('missing_scope')
  })
})

describe('team.billableInfo', () => {
  it('marks active members billable and deactivated ones not', async () => {
    const w = slackWorld()
    const dan = await w.uid('dan')
    expect((await w.api('team.billableInfo', { user: dan })).billable_info).toEqual({ [dan]: { billing_active: true } })
    await w.api('admin.users.remove', { team_id: await team(w), user_id: dan })
    expect((await w.api('team.billableInfo')).billable_info[dan]).toEqual({ billing_active: false })
    expect((await w.api('team.billableInfo', { user: 'UNOPE' })).error).toBe('user_not_found')
  })
})

describe('team.integrationLogs', () => {
  it('lists the installed bot app; team.billing.info names the plan; team.preferences.list answers bots', async () => {
    const w = slackWorld()
    const logs = (await w.api('team.integrationLogs')).logs
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({
      change_type: 'added',
      user_id: await w.uid('alice'),
      app_id: expect.stringMatching(/^A/),
    })
    expect((await w.api('team.integrationLogs', { change_type: 'bogus' })).error).toBe('invalid_change_type')
    expect((await w.api('team.billing.info')).plan).toBe('pro')
    expect((await w.api('team.billing.info', {}, 'bob')).error).toBe('missing_scope')
    expect((await w.api('team.preferences.list', {}, w.bot())).msg_edit_window_mins).toBe(-1)
  })
})

describe('admin.inviteRequests.approve (demo)', () => {
  it('the demo workspace has a pending invite request and app request for its admin', async () => {
    const w = slackWorld()
    const req = (await w.api('admin.inviteRequests.list')).invite_requests
    expect(req).toEqual([
      expect.objectContaining({
        email: 'priya.contractor@example.org',
        requester_ids: [await w.uid('bob')],
        channel_ids: [await w.channel('engineering')],
      }),
    ])
    expect((await w.api('admin.apps.requests.list')).app_requests[0]).toMatchObject({
      app: { name: 'Tracker Cloud' },
      user: { id: await w.uid('carol') },
    })
    expect((await w.api('admin.inviteRequests.approve', { invite_request_id: req[0].id })).ok).toBe(true)
  })
})

describe('admin.usergroups.addTeams', () => {
  it('accepts the world’s own team and refuses others', async () => {
    const w = slackWorld()
    const g = (await w.api('usergroups.list')).usergroups[0].id
    expect((await w.api('admin.usergroups.addTeams', { usergroup_id: g, team_ids: await team(w) })).ok).toBe(true)
    expect((await w.api('admin.usergroups.addTeams', { usergroup_id: g, team_ids: 'T0OTHER' })).error).toBe(
      'team_not_found',
    )
    expect((await w.api('admin.usergroups.addTeams', { usergroup_id: 'SNOPE', team_ids: await team(w) })).error).toBe(
      'no_such_subteam',
    )
  })
})

describe('team.externalTeams.list', () => {
  it('lists no external organizations; bad sort fields are refused', async () => {
    const w = slackWorld()
    expect(await w.api('team.externalTeams.list')).toMatchObject({ ok: true, organizations: [], total_count: 0 })
    expect((await w.api('team.externalTeams.list', { sort_field: 'size' })).error).toBe('invalid_sort_field')
  })
})

describe('users.discoverableContacts.lookup', () => {
  it('finds active members by address, not deactivated ones or strangers', async () => {
    const w = slackWorld()
    expect((await w.api('users.discoverableContacts.lookup', { email: 'Dan@northwind.test' })).is_discoverable).toBe(
      true,
    )
    expect((await w.api('users.discoverableContacts.lookup', { email: 'nobody@else.test' })).is_discoverable).toBe(
      false,
    )
    await w.api('admin.users.remove', { team_id: await team(w), user_id: await w.uid('dan') })
    expect((await w.api('users.discoverableContacts.lookup', { email: 'dan@northwind.test' })).is_discoverable).toBe(
      false,
    )
    expect((await w.api('users.discoverableContacts.lookup', { email: 'nope' })).error).toBe('invalid_email')
  })
})

describe('team.accessLogs (permissions)', () => {
  it('answers user_is_bot to bots and no_permission to members holding the admin scope', async () => {
    const w = slackWorld({
      users: [
        { id: 'ann', email: 'ann@x.test', name: 'Ann A', timeZone: 'UTC', admin: true },
        { id: 'ben', email: 'ben@x.test', name: 'Ben B', timeZone: 'UTC', admin: false },
      ],
      slack: { bots: [{ id: 'auditbot', name: 'Audit' }], userScopes: { ben: ['admin'] } },
    })
    expect((await w.api('team.accessLogs', {}, 'ben')).error).toBe('no_permission')
    expect((await w.api('team.integrationLogs', {}, 'ben')).error).toBe('no_permission')
    expect((await w.api('team.billableInfo', {}, w.bot())).error).toBe('user_is_bot')
    expect((await w.api('team.accessLogs', {}, 'ann')).logins).toHaveLength(2)
  })
})
