import { describe, expect, it } from 'vitest'
import { authCode, sameSecret } from '../../envs/slack/store/apps.ts'
import { slackWorld } from './helpers.ts'

const manifest = {
  display_information: { name: 'Standup Bot' },
  features: { bot_user: { display_name: 'standup' } },
  oauth_config: {
    redirect_urls: ['https://standup.test/oauth'],
    scopes: { bot: ['chat:write', 'channels:read', 'channels:history'] },
  },
}

describe('apps.manifest.create', () => {
  it('creates an app with credentials; invalid manifests list their errors', async () => {
    const w = slackWorld()
    const r = await w.api('apps.manifest.create', { manifest }, 'bob')
    expect(r.app_id).toMatch(/^A/)
    expect(r.credentials.client_id).toMatch(/^[A-Z0-9]+\.[A-Z0-9]+$/)
    expect(r.credentials.client_secret).toMatch(/^[0-9a-f]{32}$/)
    expect(r.oauth_authorize_url).toContain('scope=chat%3Awrite')
    const bad = await w.api('apps.manifest.create', { manifest: { display_information: {}, oops: 1 } }, 'bob')
    expect(bad.error).toBe('invalid_manifest')
    expect(bad.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/oops', '/display_information/name'])
    expect((await w.api('apps.manifest.create', { manifest }, w.bot())).error).toBe('not_allowed_token_type')
  })
})

describe('apps.manifest.update', () => {
  it('updates, exports, validates and deletes an app; only its creator may', async () => {
    const w = slackWorld()
    const id = (await w.api('apps.manifest.create', { manifest }, 'bob')).app_id
    const next = { ...manifest, oauth_config: { scopes: { bot: ['chat:write'] } } }
    expect(await w.api('apps.manifest.update', { app_id: id, manifest: next }, 'bob')).toMatchObject({
      ok: true,
      app_id: id,
      permissions_updated: true,
    })
    expect((await w.api('apps.manifest.export', { app_id: id }, 'bob')).manifest.oauth_config.scopes.bot).toEqual([
      'chat:write',
    ])
    expect((await w.api('apps.manifest.export', { app_id: id }, 'carol')).error).toBe('invalid_app_id')
    expect((await w.api('apps.manifest.validate', { manifest: next }, 'bob')).ok).toBe(true)
    expect(
      (await w.api('apps.manifest.validate', { manifest: { display_information: { name: 'x'.repeat(40) } } }, 'bob'))
        .error,
    ).toBe('invalid_manifest')
    expect((await w.api('apps.manifest.delete', { app_id: id }, 'bob')).ok).toBe(true)
    expect((await w.api('apps.manifest.export', { app_id: id }, 'bob')).error).toBe('invalid_app_id')
  })
})

describe('oauth.v2.access', () => {
  it('installs a manifest app: the code exchange returns a working bot token and the user token', async () => {
    const w = slackWorld()
    const app = await w.api('apps.manifest.create', { manifest }, 'bob')
    const carol = await w.uid('carol')
    const code = authCode(w.h.entry.keys, app.app_id, carol)
    const { client_id, client_secret } = app.credentials
    const r = await w.api(
      'oauth.v2.access',
      { client_id, client_secret, code, redirect_uri: 'https://standup.test/oauth' },
      'bob',
    )
    expect(r).toMatchObject({
      ok: true,
      app_id: app.app_id,
      token_type: 'bot',
      bot_user_id: expect.stringMatching(/^U/),
      authed_user: { id: carol, token_type: 'user' },
    })
    expect(r.access_token).toMatch(/^xoxb-/)
    expect((await w.api('auth.test', {}, r.access_token)).bot_id).toMatch(/^B/)
    expect((await w.api('auth.test', {}, r.authed_user.access_token)).user_id).toBe(carol)
    expect(
      (await w.api('chat.postMessage', { channel: await w.channel('general'), text: 'hi' }, r.access_token)).error,
    ).toBe('not_in_channel')
    // Installing again reuses the bot.
    expect((await w.api('oauth.v2.access', { client_id, client_secret, code }, 'bob')).bot_user_id).toBe(r.bot_user_id)
    expect((await w.api('oauth.v2.access', { client_id, client_secret: 'x', code }, 'bob')).error).toBe(
      'bad_client_secret',
    )
    expect((await w.api('oauth.v2.access', { client_id: '1.2', client_secret, code }, 'bob')).error).toBe(
      'invalid_client_id',
    )
    expect(
      (
        await w.api(
          'oauth.v2.access',
          { client_id, client_secret, code: `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}` },
          'bob',
        )
      ).error,
    ).toBe('invalid_code')
    expect(
      (await w.api('oauth.v2.access', { client_id, client_secret, code, redirect_uri: 'https://evil.test/' }, 'bob'))
        .error,
    ).toBe('bad_redirect_uri')
    // Host, port and scheme as configured; the path the configured one or below it (at a "/").
    const redirect = async (redirect_uri: string) =>
      (await w.api('oauth.v2.access', { client_id, client_secret, code, redirect_uri }, 'bob')).error ?? 'ok'
    for (const [uri, answer] of [
      ['https://standup.test/oauth', 'ok'],
      ['https://standup.test/oauth/slack?team=1', 'ok'],
      ['https://standup.test/oauthx', 'bad_redirect_uri'],
      ['https://standup.test.evil.test/oauth', 'bad_redirect_uri'],
      ['https://standup.test:8443/oauth', 'bad_redirect_uri'],
      ['http://standup.test/oauth', 'bad_redirect_uri'],
      ['https://standup.test@evil.test/oauth', 'bad_redirect_uri'],
      ['https://standup.test/oauth/../../evil', 'bad_redirect_uri'],
    ])
      expect(await redirect(uri!), uri).toBe(answer)
    await w.api('apps.manifest.delete', { app_id: app.app_id }, 'bob')
    expect((await w.api('auth.test', {}, r.access_token)).error).toBe('invalid_auth')
  })
})

describe('sameSecret', () => {
  it('compares secrets of any length without throwing', () => {
    expect(sameSecret('abc', 'abc')).toBe(true)
    expect(sameSecret('abd', 'abc')).toBe(false)
    expect(sameSecret('a much longer guess', 'abc')).toBe(false)
    expect(sameSecret(undefined, 'abc')).toBe(false)
  })
})

describe('openid.connect.token', () => {
  it('signs a member in: an id_token with their claims and a user token; openid.connect.userInfo returns the claims', async () => {
    const w = slackWorld()
    const app = await w.api('apps.manifest.create', { manifest: { display_information: { name: 'Portal' } } }, 'bob')
    const dan = await w.uid('dan')
    const r = await w.api(
      'openid.connect.token',
      { ...app.credentials, code: authCode(w.h.entry.keys, app.app_id, dan) },
      'bob',
    )
    expect(r.token_type).toBe('Bearer')
    const payload = JSON.parse(Buffer.from(r.id_token.split('.')[1], 'base64url').toString())
    expect(payload).toMatchObject({
      iss: 'https://slack.com',
      sub: dan,
      aud: app.credentials.client_id,
      email: 'dan@northwind.test',
      name: 'Dan Whitfield',
    })
    const info = await w.api('openid.connect.userInfo', {}, r.access_token)
    expect(info).toMatchObject({
      ok: true,
      sub: dan,
      'https://slack.com/user_id': dan,
      email: 'dan@northwind.test',
      given_name: 'Dan',
    })
    expect((await w.api('openid.connect.userInfo', {}, w.bot())).error).toBe('not_allowed_token_type')
    expect((await w.api('openid.connect.token', { ...app.credentials, code: 'nope' }, 'bob')).error).toBe(
      'invalid_code',
    )
  })
})

describe('rtm.connect', () => {
  it('names the team and the caller with a stable websocket URL; auth.teams.list lists the workspace', async () => {
    const w = slackWorld()
    const r = await w.api('rtm.connect', {}, w.bot())
    expect(r.url).toMatch(/^wss:\/\/wss-primary\.slack\.com\/websocket\/[0-9a-f]{32}$/)
    expect(r.self.name).toBe('deploybot')
    expect((await w.api('rtm.connect', {}, w.bot())).url).toBe(r.url)
    const teams = await w.api('auth.teams.list', { include_icon: true }, w.bot())
    expect(teams.teams).toEqual([
      expect.objectContaining({ id: (await w.api('team.info')).team.id, name: 'Northwind Labs' }),
    ])
  })
})

describe('apps.uninstall', () => {
  it('removes an installed app: its bot token answers invalid_auth; wrong secrets are refused', async () => {
    const w = slackWorld()
    const app = await w.api('apps.manifest.create', { manifest }, 'bob')
    const { client_id, client_secret } = app.credentials
    const bot = (
      await w.api(
        'oauth.v2.access',
        { client_id, client_secret, code: authCode(w.h.entry.keys, app.app_id, await w.uid('bob')) },
        'bob',
      )
    ).access_token
    expect((await w.api('apps.uninstall', { client_id, client_secret: 'nope' }, bot)).error).toBe('bad_client_secret')
    expect((await w.api('apps.uninstall', { client_id, client_secret }, w.bot())).error).toBe('invalid_client_id')
    expect((await w.api('apps.uninstall', { client_id, client_secret }, bot)).ok).toBe(true)
    expect((await w.api('auth.test', {}, bot)).error).toBe('invalid_auth')
  })
})

describe('oauth.v2.exchange', () => {
  it('exchanges an app token for a rotating one whose refresh token oauth.v2.access trades back', async () => {
    const w = slackWorld()
    const app = await w.api('apps.manifest.create', { manifest }, 'bob')
    const { client_id, client_secret } = app.credentials
    const installed = await w.api(
      'oauth.v2.access',
      { client_id, client_secret, code: authCode(w.h.entry.keys, app.app_id, await w.uid('bob')) },
      'bob',
    )
    const ex = await w.api('oauth.v2.exchange', { client_id, client_secret, token: installed.access_token }, 'bob')
    expect(ex).toMatchObject({
      ok: true,
      access_token: installed.access_token,
      token_type: 'bot',
      expires_in: 43200,
      refresh_token: expect.stringMatching(/^xoxe-1-/),
    })
    const again = await w.api(
      'oauth.v2.access',
      { client_id, client_secret, grant_type: 'refresh_token', refresh_token: ex.refresh_token },
      'bob',
    )
    expect(again.access_token).toBe(installed.access_token)
    expect(
      (
        await w.api(
          'oauth.v2.access',
          { client_id, client_secret, grant_type: 'refresh_token', refresh_token: 'xoxe-1-nope' },
          'bob',
        )
      ).error,
    ).toBe('invalid_refresh_token')
    expect((await w.api('oauth.v2.exchange', { client_id, client_secret, token: w.bot() }, 'bob')).error).toBe(
      'invalid_token',
    )
  })
})
