import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Auth, google } from 'googleapis'
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose'
import { demoSeed } from '../../seeds/demo/index.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { clientSecret, listClients } from '../../envs/identity/store/oauth.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { services } from '../../server/registry.ts'
import { methodScopes as gmail } from '../../envs/gmail/api/scopes.gen.ts'
import { methodScopes as calendar } from '../../envs/calendar/api/scopes.gen.ts'
import { methodScopes as drive } from '../../envs/drive/api/scopes.gen.ts'
import { methodScopes as docs } from '../../envs/docs/api/scopes.gen.ts'
import { methodScopes as identity } from '../../envs/identity/api/scopes.gen.ts'

const REDIRECT = 'http://127.0.0.1:8765/callback'
const GMAIL_READONLY = 'https://www.googleapis.com/auth/gmail.readonly'

let server: SdkServer
let clientId: string
let secret: string

beforeAll(async () => {
  const seed = {
    ...demoSeed(1),
    identity: {
      clients: [
        { key: 'mailer', name: 'Mail Helper', redirectUris: [REDIRECT], scopes: [GMAIL_READONLY, 'openid', 'email'] },
      ],
      grants: [{ user: 'carol', client: 'mailer', scopes: [GMAIL_READONLY] }],
    },
  }
  server = await startSdkServer(seed)
  clientId = listClients(server.entry.world.db)[0]!.clientId
  secret = clientSecret(server.entry.keys, clientId)
})
afterAll(async () => {
  await server.close()
})

function oauthClient(): Auth.OAuth2Client {
  const base = server.url.replace(/\/$/, '')
  return new Auth.OAuth2Client({
    clientId,
    clientSecret: secret,
    redirectUri: REDIRECT,
    endpoints: {
      oauth2AuthBaseUrl: `${base}/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${base}/token`,
      oauth2RevokeUrl: `${base}/revoke`,
      tokenInfoUrl: `${base}/tokeninfo`,
    },
  })
}

/** Plays the browser: the user (by their own token) posts consent to the URL the client generated. */
async function consent(url: string, userId: string, decision = 'allow'): Promise<URL> {
  const token = server.tokens.find((t) => t.id === userId)!.googleToken!
  const page = await fetch(url, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' })
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('Mail Helper')
  const form = new URLSearchParams(Object.fromEntries(new URL(url).searchParams))
  form.set('decision', decision)
  const res = await fetch(`${server.url}o/oauth2/v2/auth`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(302)
  return new URL(res.headers.get('location')!)
}

describe('OAuth 2.0 authorization code flow with google-auth-library', () => {
  test('code + PKCE gives tokens that call Gmail through googleapis, and the refresh token mints more', async () => {
    const client = oauthClient()
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
    const url = client.generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      scope: [GMAIL_READONLY, 'openid', 'email'],
      state: 'xyz',
      code_challenge: codeChallenge,
      code_challenge_method: Auth.CodeChallengeMethod.S256,
      nonce: 'n-1',
    } as Parameters<Auth.OAuth2Client['generateAuthUrl']>[0])
    const back = await consent(url, 'bob')
    expect(back.searchParams.get('state')).toBe('xyz')
    const code = back.searchParams.get('code')!
    const { tokens } = await client.getToken({ code, codeVerifier })
    expect(tokens.refresh_token).toMatch(/^1\/\/0\./)
    expect(tokens.scope?.split(' ')).toContain(GMAIL_READONLY)
    client.setCredentials(tokens)

    const gmail = google.gmail({ version: 'v1', auth: client, rootUrl: server.url })
    const profile = await gmail.users.getProfile({ userId: 'me' })
    expect(profile.data.emailAddress).toBe('bob@northwind.test')
    // gmail.readonly does not allow sending: Google's 403 with ACCESS_TOKEN_SCOPE_INSUFFICIENT.
    const send = await gmail.users.messages.send({ userId: 'me', requestBody: { raw: 'eA' } }).catch((e) => e.response)
    expect(send.status).toBe(403)
    expect(send.data.error.errors[0].reason).toBe('insufficientPermissions')
    expect(send.data.error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT')
    const challenge = String(send.headers.get?.('www-authenticate') ?? send.headers['www-authenticate'])
    expect(challenge).toContain('error="insufficient_scope"')
    expect(challenge).toContain('https://www.googleapis.com/auth/gmail.send')

    // The ID token is signed with the world's key (JWKS) and names bob for this client.
    const jwksRes = await fetch(`${server.url}oauth2/v3/certs?world=${server.entry.id}`)
    const jwks = createLocalJWKSet((await jwksRes.json()) as JSONWebKeySet)
    const at = new Date(nowMs(server.entry.world.db))
    const { payload } = await jwtVerify(tokens.id_token!, jwks, {
      issuer: 'https://accounts.google.com',
      audience: clientId,
      currentDate: at,
    })
    expect(payload.email).toBe('bob@northwind.test')
    expect(payload.nonce).toBe('n-1')

    const info = await client.getTokenInfo(tokens.access_token!)
    expect(info.scopes).toContain(GMAIL_READONLY)
    expect(info.aud).toBe(clientId)

    const refreshed = new Auth.OAuth2Client({
      clientId,
      clientSecret: secret,
      endpoints: { oauth2TokenUrl: `${server.url}token` },
    })
    refreshed.setCredentials({ refresh_token: tokens.refresh_token! })
    const again = await refreshed.getAccessToken()
    expect(again.token).toMatch(/^ya29\./)
    expect(again.token).not.toBe(tokens.access_token)
  })

  test('revoking one token kills the access and refresh tokens of the grant at once', async () => {
    const client = oauthClient()
    const url = client.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [GMAIL_READONLY] })
    const code = (await consent(url, 'dan')).searchParams.get('code')!
    const { tokens } = await client.getToken(code)
    client.setCredentials(tokens)
    const gmail = google.gmail({ version: 'v1', auth: client, rootUrl: server.url })
    expect((await gmail.users.getProfile({ userId: 'me' })).status).toBe(200)
    await client.revokeToken(tokens.access_token!)
    const after = await fetch(`${server.url}gmail/v1/users/me/profile`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(after.status).toBe(401)
    const refresh = await fetch(`${server.url}token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: clientId,
        client_secret: secret,
      }),
    })
    expect(refresh.status).toBe(400)
    expect(await refresh.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    })
  })

  test("a code is single-use, and a wrong secret or verifier is refused with Google's errors", async () => {
    const client = oauthClient()
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
    const url = client.generateAuthUrl({
      scope: [GMAIL_READONLY],
      code_challenge: codeChallenge,
      code_challenge_method: Auth.CodeChallengeMethod.S256,
    })
    const code = (await consent(url, 'erin')).searchParams.get('code')!
    const post = (body: Record<string, string>) =>
      fetch(`${server.url}token`, { method: 'POST', body: new URLSearchParams(body) })
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId }
    const badSecret = await post({ ...base, client_secret: 'GOCSPX-nope', code_verifier: codeVerifier })
    expect(badSecret.status).toBe(401)
    expect(((await badSecret.json()) as { error: string }).error).toBe('invalid_client')
    const badVerifier = await post({ ...base, client_secret: secret, code_verifier: 'x'.repeat(43) })
    expect(await badVerifier.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid code verifier.' })
    expect((await post({ ...base, client_secret: secret, code_verifier: codeVerifier })).status).toBe(200)
    const reuse = await post({ ...base, client_secret: secret, code_verifier: codeVerifier })
    expect(reuse.status).toBe(400)
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant')
    const forged = await post({
      ...base,
      client_secret: secret,
      code: code.slice(0, -4) + '0000',
      code_verifier: codeVerifier,
    })
    expect(await forged.json()).toEqual({ error: 'invalid_grant', error_description: 'Malformed auth code.' })
  })

  test('exchanging a code a second time revokes the tokens the first exchange issued', async () => {
    const client = oauthClient()
    const url = client.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [GMAIL_READONLY] })
    const code = (await consent(url, 'alice')).searchParams.get('code')!
    const { tokens } = await client.getToken(code)
    const profile = () =>
      fetch(`${server.url}gmail/v1/users/me/profile`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect((await profile()).status).toBe(200)
    const replay = await client.getToken(code).catch((e) => e)
    expect(replay.response.status).toBe(400)
    expect(replay.response.data).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' })
    expect((await profile()).status).toBe(401)
    const refreshed = await fetch(`${server.url}token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: clientId,
        client_secret: secret,
      }),
    })
    expect(refreshed.status).toBe(400)
  })

  test('denying consent redirects with access_denied, and an app token cannot approve consent', async () => {
    const client = oauthClient()
    const url = client.generateAuthUrl({ scope: [GMAIL_READONLY], state: 's', prompt: 'consent' })
    const back = await consent(url, 'erin', 'deny')
    expect(back.searchParams.get('error')).toBe('access_denied')
    const { tokens } = await client.getToken((await consent(url, 'erin')).searchParams.get('code')!)
    const res = await fetch(url, { headers: { authorization: `Bearer ${tokens.access_token}` }, redirect: 'manual' })
    expect(res.status).toBe(403)
    // Without prompt=consent, a user who granted everything asked for goes straight back with a code.
    const quiet = client.generateAuthUrl({ scope: [GMAIL_READONLY] })
    const erin = server.tokens.find((t) => t.id === 'erin')!.googleToken!
    const direct = await fetch(quiet, { headers: { authorization: `Bearer ${erin}` }, redirect: 'manual' })
    expect(direct.status).toBe(302)
    expect(new URL(direct.headers.get('location')!).searchParams.get('code')).toMatch(/^4\/0\./)
  })
})

describe('OAuth credentials across worlds', () => {
  test("a code or refresh token with another world's id is refused there, even with that world's client secret", async () => {
    const client = oauthClient()
    const url = client.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [GMAIL_READONLY] })
    const code = (await consent(url, 'carol')).searchParams.get('code')!
    const other = server.worlds.create({
      id: 'sdk_other',
      seed: {
        ...demoSeed(1),
        identity: {
          clients: [{ key: 'mailer', name: 'Mail Helper', redirectUris: [REDIRECT], scopes: [GMAIL_READONLY] }],
        },
      },
    })
    try {
      const otherSecret = clientSecret(other.keys, clientId)
      const post = (body: Record<string, string>) =>
        fetch(`${server.url}token`, { method: 'POST', body: new URLSearchParams(body) })
      const swapped = code.replace(`.${server.entry.id}.`, '.sdk_other.')
      const r1 = await post({
        grant_type: 'authorization_code',
        code: swapped,
        redirect_uri: REDIRECT,
        client_id: clientId,
        client_secret: otherSecret,
      })
      expect(await r1.json()).toEqual({ error: 'invalid_grant', error_description: 'Malformed auth code.' })
      const { tokens } = await client.getToken(code)
      const r2 = await post({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!.replace(`.${server.entry.id}.`, '.sdk_other.'),
        client_id: clientId,
        client_secret: otherSecret,
      })
      expect(await r2.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Token has been expired or revoked.',
      })
    } finally {
      server.worlds.delete('sdk_other')
    }
  })
})

describe('OpenID discovery and key sets', () => {
  test('the provider metadata names this origin; an unknown world gets a key set shaped like a real one', async () => {
    const meta = (await (await fetch(`${server.url}.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >
    expect(meta.token_endpoint).toBe(`${server.url}token`)
    expect(meta.issuer).toBe('https://accounts.google.com')
    const real = (await (await fetch(`${server.url}oauth2/v3/certs?world=${server.entry.id}`)).json()) as JSONWebKeySet
    const none = (await (await fetch(`${server.url}oauth2/v3/certs?world=nosuchworld`)).json()) as JSONWebKeySet
    expect(Object.keys(none.keys[0]!).sort()).toEqual(Object.keys(real.keys[0]!).sort())
    expect(none.keys[0]!.x).not.toBe(real.keys[0]!.x)
  })
})

describe('scope enforcement', () => {
  test('every Google method has the scopes of its discovery document to check', () => {
    const tables: Record<string, Readonly<Record<string, readonly string[]>>> = {
      gmail,
      calendar,
      drive,
      docs,
      identity,
    }
    const missing = services
      .filter((svc) => svc.family === 'google')
      .flatMap((svc) => svc.specMethods.filter((m) => !tables[svc.name]?.[m.id]?.length).map((m) => m.id))
    // The 2018 Directory document lists no scopes for these two (not implemented: they answer 501).
    expect(missing).toEqual([
      'directory.resolvedAppAccessSettings.GetSettings',
      'directory.resolvedAppAccessSettings.ListTrustedApps',
    ])
  })

  test('a seeded token narrowed by the seed is refused outside its scopes', async () => {
    const narrow = await startSdkServer({
      ...demoSeed(1),
      identity: { tokenScopes: [{ user: 'bob', scopes: [GMAIL_READONLY] }] },
    })
    try {
      const gmail = google.gmail({ version: 'v1', auth: narrow.auth('bob'), rootUrl: narrow.url })
      expect((await gmail.users.labels.list({ userId: 'me' })).status).toBe(200)
      const drive = google.drive({ version: 'v3', auth: narrow.auth('bob'), rootUrl: narrow.url })
      const res = await drive.files.list({}).catch((e) => e.response)
      expect(res.status).toBe(403)
      expect(res.data.error.errors[0].reason).toBe('insufficientPermissions')
      const full = google.drive({ version: 'v3', auth: narrow.auth('carol'), rootUrl: narrow.url })
      expect((await full.files.list({})).status).toBe(200)
      const auth = narrow.auth('bob')
      const denied = [
        google.calendar({ version: 'v3', auth, rootUrl: narrow.url }).calendarList.list({}),
        google.docs({ version: 'v1', auth, rootUrl: narrow.url }).documents.get({ documentId: 'x' }),
        google.admin({ version: 'directory_v1', auth, rootUrl: narrow.url }).users.list({ customer: 'my_customer' }),
        google
          .gmail({ version: 'v1', auth, rootUrl: narrow.url })
          .users.settings.updateVacation({ userId: 'me', requestBody: { enableAutoReply: true } }),
      ]
      for (const res of await Promise.all(denied.map((p) => (p as Promise<unknown>).catch((e) => e.response)))) {
        expect((res as { status: number }).status).toBe(403)
        expect((res as { data: { error: { details: { reason: string }[] } } }).data.error.details[0]!.reason).toBe(
          'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        )
      }
    } finally {
      await narrow.close()
    }
  })
})

describe('directory.tokens.list, directory.tokens.get, directory.tokens.delete through googleapis', () => {
  test("an admin lists, gets and deletes a user's connected app; a non-admin gets 403", async () => {
    const admin = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
    const list = await admin.tokens.list({ userKey: 'carol@northwind.test' })
    expect(list.data.items?.map((t) => [t.clientId, t.displayText, t.scopes])).toEqual([
      [clientId, 'Mail Helper', [GMAIL_READONLY]],
    ])
    const one = await admin.tokens.get({ userKey: 'carol@northwind.test', clientId })
    expect(one.data.kind).toBe('admin#directory#token')
    const bob = google.admin({ version: 'directory_v1', auth: server.auth('bob'), rootUrl: server.url })
    const denied = await bob.tokens.list({ userKey: 'carol@northwind.test' }).catch((e) => e.response)
    expect(denied.status).toBe(403)
    expect((await admin.tokens.delete({ userKey: 'carol@northwind.test', clientId })).status).toBe(204)
    expect((await admin.tokens.list({ userKey: 'carol@northwind.test' })).data.items).toEqual([])
    const gone = await admin.tokens.get({ userKey: 'carol@northwind.test', clientId }).catch((e) => e.response)
    expect(gone.status).toBe(404)
  })
})
