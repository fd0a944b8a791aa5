import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

const seed = {
  users: [
    { id: 'ann', email: 'ann@x.test', name: 'Ann A', timeZone: 'UTC', admin: true },
    { id: 'ben', email: 'ben@x.test', name: 'Ben B', timeZone: 'UTC', admin: false },
  ],
  slack: {
    bots: [{ id: 'pollbot', name: 'Poll Bot' }],
    appRequests: [
      { app: 'Giphy', requester: 'ben', message: 'For the fun channel', scopes: ['chat:write', 'commands'] },
      { app: 'pollbot', requester: 'ben', message: 'Team polls', scopes: ['chat:write'] },
    ],
  },
}

describe('admin.apps.requests.list', () => {
  it('lists pending requests with requester and scopes; admin.apps.requests.cancel withdraws one', async () => {
    const w = slackWorld(seed)
    const reqs = (await w.api('admin.apps.requests.list', {}, 'ann')).app_requests
    expect(reqs.map((r: { app: { name: string } }) => r.app.name)).toEqual(['Giphy', 'Poll Bot'])
    expect(reqs[0]).toMatchObject({
      message: 'For the fun channel',
      user: { id: await w.uid('ben'), email: 'ben@x.test' },
      scopes: [{ name: 'chat:write' }, { name: 'commands' }],
    })
    expect((await w.api('admin.apps.requests.list', {}, 'ben')).error).toBe('missing_scope')
    expect((await w.api('admin.apps.requests.cancel', { request_id: reqs[0].id }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.apps.requests.cancel', { request_id: reqs[0].id }, 'ann')).error).toBe(
      'invalid_request_id',
    )
    expect((await w.api('admin.apps.requests.list', {}, 'ann')).app_requests).toHaveLength(1)
  })
})

describe('admin.apps.approve', () => {
  it('approves by request id and restricts by app id; approved/restricted lists follow; clearResolution resets', async () => {
    const w = slackWorld(seed)
    const [giphy, poll] = (await w.api('admin.apps.requests.list', {}, 'ann')).app_requests
    expect((await w.api('admin.apps.approve', { request_id: giphy.id }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.apps.restrict', { app_id: poll.app.id }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.apps.requests.list', {}, 'ann')).app_requests).toEqual([])
    const approved = (await w.api('admin.apps.approved.list', {}, 'ann')).approved_apps
    expect(approved).toEqual([
      expect.objectContaining({
        app: expect.objectContaining({ id: giphy.app.id, name: 'Giphy' }),
        last_resolved_by: { actor_id: await w.uid('ann'), actor_type: 'user' },
      }),
    ])
    expect((await w.api('admin.apps.restricted.list', {}, 'ann')).restricted_apps[0].app.name).toBe('Poll Bot')
    expect((await w.api('admin.apps.approve', { app_id: poll.app.id, request_id: giphy.id }, 'ann')).error).toBe(
      'invalid_arguments',
    )
    expect((await w.api('admin.apps.approve', { app_id: 'A0NOPE' }, 'ann')).error).toBe('app_not_found')
    expect((await w.api('admin.apps.clearResolution', { app_id: poll.app.id }, 'ann')).ok).toBe(true)
    expect((await w.api('admin.apps.restricted.list', {}, 'ann')).restricted_apps).toEqual([])
    expect((await w.api('admin.apps.clearResolution', { app_id: poll.app.id }, 'ann')).error).toBe('app_not_found')
  })
})

describe('admin.apps.uninstall', () => {
  it('uninstalls an installed app: its bot token stops working', async () => {
    const w = slackWorld()
    const botToken = w.bot()
    const appId = `A${(await w.api('auth.test', {}, botToken)).bot_id.slice(1)}`
    expect((await w.api('admin.apps.uninstall', { app_id: appId })).ok).toBe(true)
    expect((await w.api('auth.test', {}, botToken)).error).toBe('invalid_auth')
    expect((await w.api('admin.apps.uninstall', { app_id: appId })).error).toBe('app_not_found')
  })
})
