import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

const team = async (w: ReturnType<typeof slackWorld>, user = 'alice') =>
  (await w.api('team.info', {}, user)).team.id as string

describe('admin.users.list', () => {
  it('lists members with roles and emails for admins only, paging with a cursor', async () => {
    const w = slackWorld()
    const t = await team(w)
    const r = await w.api('admin.users.list', { team_id: t })
    const alice = r.users.find((u: { username: string }) => u.username === 'alice')
    expect(alice).toMatchObject({ email: 'alice@northwind.test', is_admin: true, is_owner: true, is_active: true })
    expect(r.users.some((u: { id: string }) => u.id === 'USLACKBOT')).toBe(false)
    const p = await w.api('admin.users.list', { team_id: t, limit: 2 })
    expect(p.users).toHaveLength(2)
    expect(p.response_metadata.next_cursor).not.toBe('')
    expect(await w.api('admin.users.list', {})).toEqual({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] missing required field: team_id'] },
    })
    expect((await w.api('admin.users.list', { team_id: 'T0NOPE' })).error).toBe('team_not_found')
    expect((await w.api('admin.users.list', { team_id: t }, 'bob')).error).toBe('missing_scope')
  })
})

describe('admin.users.setAdmin', () => {
  it('promotes a member (users.info shows is_admin), admin.users.setRegular demotes; only owners make owners', async () => {
    const w = slackWorld()
    const t = await team(w)
    const bob = await w.uid('bob')
    const carol = await w.uid('carol')
    expect((await w.api('admin.users.setAdmin', { team_id: t, user_id: bob })).ok).toBe(true)
    expect((await w.api('users.info', { user: bob })).user).toMatchObject({ is_admin: true, is_owner: false })
    // Bob's token was issued without admin scopes, so the promotion alone does not grant API access.
    expect((await w.api('admin.users.setAdmin', { team_id: t, user_id: carol }, 'bob')).error).toBe('missing_scope')
    expect((await w.api('admin.users.setOwner', { team_id: t, user_id: bob })).ok).toBe(true)
    expect((await w.api('users.info', { user: bob })).user.is_owner).toBe(true)
    expect((await w.api('admin.users.setRegular', { team_id: t, user_id: bob })).ok).toBe(true)
    expect((await w.api('users.info', { user: bob })).user).toMatchObject({ is_admin: false, is_owner: false })
    expect((await w.api('admin.users.setAdmin', { team_id: t, user_id: 'UNOPE' })).error).toBe('user_not_found')
  })

  it('refuses a plain admin who makes an owner; a demoted admin gets not_an_admin', async () => {
    const w = slackWorld({
      users: [
        { id: 'ann', email: 'ann@x.test', name: 'Ann A', timeZone: 'UTC', admin: true },
        { id: 'ben', email: 'ben@x.test', name: 'Ben B', timeZone: 'UTC', admin: false },
      ],
      slack: { userScopes: { ben: ['admin.users:write'] } },
    })
    const t = await team(w, 'ann')
    const ann = await w.uid('ann')
    const ben = await w.uid('ben')
    expect((await w.api('admin.users.setAdmin', { team_id: t, user_id: ben }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.users.setOwner', { team_id: t, user_id: ann }, 'ben')).error).toBe('not_an_owner')
    expect((await w.api('admin.users.setRegular', { team_id: t, user_id: ben }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.users.setAdmin', { team_id: t, user_id: ben }, 'ben')).error).toBe('not_an_admin')
  })
})

describe('admin.users.remove', () => {
  it('deactivates a member: their token answers account_inactive and users.info shows deleted', async () => {
    const w = slackWorld()
    const t = await team(w)
    const dan = await w.uid('dan')
    expect((await w.api('admin.users.remove', { team_id: t, user_id: dan })).ok).toBe(true)
    expect((await w.api('users.info', { user: dan })).user.deleted).toBe(true)
    expect((await w.api('auth.test', {}, 'dan')).error).toBe('account_inactive')
    expect((await w.api('admin.users.remove', { team_id: t, user_id: dan })).error).toBe('user_already_deactivated')
    expect(
      (await w.api('admin.users.list', { team_id: t, is_active: false })).users.map((u: { id: string }) => u.id),
    ).toEqual([dan])
    expect((await w.api('admin.users.remove', { team_id: t, user_id: await w.uid('alice') })).error).toBe(
      'cannot_remove_self',
    )
  })
})

describe('admin.users.assign', () => {
  it('reactivates a deactivated member as a guest in the given channels; active members are already in the team', async () => {
    const w = slackWorld()
    const t = await team(w)
    const dan = await w.uid('dan')
    const eng = await w.channel('engineering')
    expect((await w.api('admin.users.assign', { team_id: t, user_id: dan })).error).toBe('user_already_team_member')
    await w.api('admin.users.remove', { team_id: t, user_id: dan })
    expect(
      (await w.api('admin.users.assign', { team_id: t, user_id: dan, is_restricted: true, channel_ids: eng })).ok,
    ).toBe(true)
    expect((await w.api('users.info', { user: dan })).user).toMatchObject({ deleted: false, is_restricted: true })
    expect((await w.api('conversations.members', { channel: eng })).members).toContain(dan)
  })
})

describe('admin.users.setExpiration', () => {
  it('sets a guest expiry read by admin.users.getExpiration; full members are refused', async () => {
    const w = slackWorld()
    const t = await team(w)
    const dan = await w.uid('dan')
    const now = Math.floor(
      Number((await w.api('chat.postMessage', { channel: await w.channel('general'), text: 'x' })).ts),
    )
    expect(
      (await w.api('admin.users.setExpiration', { team_id: t, user_id: dan, expiration_ts: now + 86400 })).error,
    ).toBe('user_not_guest')
    await w.api('admin.users.remove', { team_id: t, user_id: dan })
    await w.api('admin.users.assign', {
      team_id: t,
      user_id: dan,
      is_ultra_restricted: true,
      channel_ids: await w.channel('sales'),
    })
    expect((await w.api('admin.users.setExpiration', { team_id: t, user_id: dan, expiration_ts: now - 1 })).error).toBe(
      'invalid_expiration_ts',
    )
    expect(
      (await w.api('admin.users.setExpiration', { team_id: t, user_id: dan, expiration_ts: now + 86400 })).ok,
    ).toBe(true)
    expect((await w.api('admin.users.getExpiration', { team_id: t, user_id: dan })).expiration_ts).toBe(now + 86400)
  })
})

describe('admin.users.invite', () => {
  it('records an invitation; repeats need resend; members and bad addresses are refused', async () => {
    const w = slackWorld()
    const t = await team(w)
    const general = await w.channel('general')
    expect(
      (
        await w.api('admin.users.invite', {
          team_id: t,
          email: 'new.hire@northwind.test',
          channel_ids: general,
          real_name: 'New Hire',
        })
      ).ok,
    ).toBe(true)
    expect(
      (await w.api('admin.users.invite', { team_id: t, email: 'new.hire@northwind.test', channel_ids: general })).error,
    ).toBe('already_invited')
    expect(
      (
        await w.api('admin.users.invite', {
          team_id: t,
          email: 'new.hire@northwind.test',
          channel_ids: general,
          resend: true,
        })
      ).ok,
    ).toBe(true)
    expect(
      (await w.api('admin.users.invite', { team_id: t, email: 'bob@northwind.test', channel_ids: general })).error,
    ).toBe('already_in_team')
    expect((await w.api('admin.users.invite', { team_id: t, email: 'nope', channel_ids: general })).error).toBe(
      'invalid_email',
    )
    expect((await w.api('admin.users.invite', { team_id: t, email: 'g@x.test', channel_ids: 'CNOPE' })).error).toBe(
      'channel_not_found',
    )
    expect(
      (
        await w.api('admin.users.invite', {
          team_id: t,
          email: 'g@x.test',
          channel_ids: `${general},${await w.channel('sales')}`,
          is_ultra_restricted: true,
        })
      ).error,
    ).toBe('ura_max_channels')
  })
})

describe('admin.users.session.list', () => {
  it('lists active sessions; admin.users.session.reset and invalidate end them', async () => {
    const w = slackWorld()
    const t = await team(w)
    const bob = await w.uid('bob')
    const all = await w.api('admin.users.session.list')
    expect(all.active_sessions.length).toBe(5)
    const mine = await w.api('admin.users.session.list', { user_id: bob, team_id: t })
    expect(mine.active_sessions[0]).toMatchObject({ user_id: bob, team_id: t, created: { ip: expect.any(String) } })
    expect((await w.api('admin.users.session.list', { user_id: bob })).error).toBe('invalid_arguments')
    expect((await w.api('admin.users.session.reset', { user_id: bob })).ok).toBe(true)
    expect((await w.api('admin.users.session.list', { user_id: bob, team_id: t })).active_sessions).toEqual([])
    const carolSession = (await w.api('admin.users.session.list', { user_id: await w.uid('carol'), team_id: t }))
      .active_sessions[0].session_id
    expect((await w.api('admin.users.session.invalidate', { team_id: t, session_id: carolSession })).ok).toBe(true)
    expect((await w.api('admin.users.session.invalidate', { team_id: t, session_id: carolSession })).error).toBe(
      'invalid_session',
    )
    expect(
      (
        await w.api('admin.users.session.resetBulk', {
          user_ids: `${await w.uid('dan')},${await w.uid('erin')}`,
          web_only: true,
        })
      ).ok,
    ).toBe(true)
    expect((await w.api('admin.users.session.list')).active_sessions.length).toBe(1)
  })
})

describe('admin.users.session.setSettings', () => {
  it('stores per-user session settings read by getSettings and removed by clearSettings', async () => {
    const w = slackWorld()
    const bob = await w.uid('bob')
    const carol = await w.uid('carol')
    expect(
      (
        await w.api('admin.users.session.setSettings', {
          user_ids: bob,
          duration: 86400,
          desktop_app_browser_quit: true,
        })
      ).ok,
    ).toBe(true)
    const s = await w.api('admin.users.session.getSettings', { user_ids: `${bob},${carol}` })
    expect(s.session_settings).toEqual([{ user_id: bob, desktop_app_browser_quit: true, duration: 86400 }])
    expect(s.no_settings_applied).toEqual([carol])
    expect((await w.api('admin.users.session.setSettings', { user_ids: bob })).error).toBe('invalid_arguments')
    expect((await w.api('admin.users.session.clearSettings', { user_ids: [bob] }, 'alice', true)).ok).toBe(true)
    expect((await w.api('admin.users.session.getSettings', { user_ids: bob })).no_settings_applied).toEqual([bob])
  })
})
