import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type iam_v1, type iamcredentials_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { advanceClock, nowMs } from '../../envs/core/clock.ts'
import { startSdkServer, type SdkServer } from './server.ts'

const SA = 'offboarding-bot@northwind-admin.iam.gserviceaccount.com'
const OTHER = 'reports-bot@northwind-admin.iam.gserviceaccount.com'
const SETTINGS = 'https://www.googleapis.com/auth/gmail.settings.basic'
const SHARING = 'https://www.googleapis.com/auth/gmail.settings.sharing'
const seed = () => ({
  ...demoSeed(1),
  identity: {
    ...(demoSeed(1) as unknown as { identity: Record<string, unknown> }).identity,
    serviceAccounts: [{ email: SA, displayName: 'Offboarding bot' }, { email: OTHER }],
    iamBindings: [
      { resource: 'projects/northwind-admin', role: 'roles/owner', members: ['alice'] },
      { resource: SA, role: 'roles/iam.serviceAccountTokenCreator', members: ['alice'] },
    ],
    delegations: [{ client: SA, scopes: [SETTINGS, SHARING] }],
  },
})

let server: SdkServer
let iam: iam_v1.Iam
let creds: iamcredentials_v1.Iamcredentials

/** Points a google-auth-library client's token requests (hard-wired to oauth2.googleapis.com) at this server. */
function redirectTokenCalls(client: InstanceType<typeof google.auth.JWT>, world = 'sdk') {
  client.transporter.interceptors.request.add({
    resolved: async (config) => {
      const url = new URL(String(config.url))
      if (url.host === 'oauth2.googleapis.com') config.url = new URL(`${server.url}token?world=${world}`)
      return config
    },
  })
  return client
}

/** A key file's JWT client acting as dan through domain-wide delegation, its token calls sent to this server. */
const delegatedJwt = (file: Record<string, string>, scope: string) =>
  redirectTokenCalls(
    new google.auth.JWT({
      email: file.client_email,
      key: file.private_key,
      scopes: [scope],
      subject: 'dan@northwind.test',
    }),
  )

async function tokenRequest(assertion: string, world = 'sdk') {
  const res = await fetch(`${server.url}token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion, world }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

async function createKeyFile(account = SA) {
  const name = `projects/-/serviceAccounts/${account}`
  const res = await iam.projects.serviceAccounts.keys.create({ name, requestBody: {} })
  return JSON.parse(Buffer.from(res.data.privateKeyData!, 'base64').toString('utf8')) as Record<string, string>
}

const nowS = () => Math.floor(nowMs(server.entry.world.db) / 1000)

beforeAll(async () => {
  server = await startSdkServer(seed())
  // The token endpoint judges iat/exp by the world clock; google-auth-library stamps them from the wall clock, so the
  // world's clock moves forward to it first (what the control plane's clock advance does).
  const db = server.entry.world.db
  advanceClock(db, Date.now() - nowMs(db))
  iam = google.iam({ version: 'v1', rootUrl: server.url, auth: server.auth('alice') })
  creds = google.iamcredentials({ version: 'v1', rootUrl: server.url, auth: server.auth('alice') })
})
afterAll(() => server.close())

describe('iam.projects.serviceAccounts.list iam.projects.serviceAccounts.get', () => {
  test('list and get show the seeded accounts with their unique ids', async () => {
    const list = await iam.projects.serviceAccounts.list({ name: 'projects/northwind-admin' })
    expect(list.data.accounts?.map((a) => a.email)).toEqual([SA, OTHER])
    const got = await iam.projects.serviceAccounts.get({ name: `projects/-/serviceAccounts/${SA}` })
    expect(got.data).toMatchObject({ email: SA, projectId: 'northwind-admin', displayName: 'Offboarding bot' })
    expect(got.data.uniqueId).toMatch(/^1\d{20}$/)
    expect(got.data.oauth2ClientId).toBe(got.data.uniqueId)
  })

  test('a user without a role on the project is denied as if the account did not exist', async () => {
    const bob = google.iam({ version: 'v1', rootUrl: server.url, auth: server.auth('bob') })
    const err = await bob.projects.serviceAccounts.get({ name: `projects/-/serviceAccounts/${SA}` }).catch((e) => e)
    expect(err.status).toBe(403)
    expect(err.response.data.error.details[0]).toMatchObject({ reason: 'IAM_PERMISSION_DENIED' })
  })
})

describe(
  [
    'iam.projects.serviceAccounts.keys.create',
    'iam.projects.serviceAccounts.keys.list',
    'iam.projects.serviceAccounts.keys.get',
    'iam.projects.serviceAccounts.keys.delete',
  ].join(' '),
  () => {
    test('create returns a JSON key file, list shows it, delete removes it', async () => {
      const file = await createKeyFile()
      expect(file).toMatchObject({
        type: 'service_account',
        client_email: SA,
        token_uri: 'https://oauth2.googleapis.com/token?world=sdk',
      })
      expect(file.private_key).toContain('BEGIN PRIVATE KEY')
      const name = `projects/-/serviceAccounts/${SA}`
      const listed = await iam.projects.serviceAccounts.keys.list({ name, keyTypes: ['USER_MANAGED'] })
      const full = `projects/northwind-admin/serviceAccounts/${SA}/keys/${file.private_key_id}`
      expect(listed.data.keys?.map((k) => k.name)).toContain(full)
      const got = await iam.projects.serviceAccounts.keys.get({ name: `${name}/keys/${file.private_key_id}` })
      expect(got.data).toMatchObject({
        keyType: 'USER_MANAGED',
        keyAlgorithm: 'KEY_ALG_RSA_2048',
        validBeforeTime: '9999-12-31T23:59:59Z',
      })
      expect(got.data.privateKeyData).toBeUndefined()
      await iam.projects.serviceAccounts.keys.delete({ name: `${name}/keys/${file.private_key_id}` })
      const gone = await iam.projects.serviceAccounts.keys
        .get({ name: `${name}/keys/${file.private_key_id}` })
        .catch((e) => e)
      expect(gone.status).toBe(404)
      const after = await iam.projects.serviceAccounts.keys.list({ name, keyTypes: ['USER_MANAGED'] })
      expect(after.data.keys?.map((k) => k.name) ?? []).not.toContain(full)
    })
  },
)

describe('iamcredentials.projects.serviceAccounts.signJwt and the jwt-bearer grant with domain-wide delegation', () => {
  test("a key file and google-auth-library JWT set another user's vacation responder", async () => {
    const file = await createKeyFile()
    const jwt = delegatedJwt(file, SETTINGS)
    const gmail = google.gmail({ version: 'v1', rootUrl: server.url, auth: jwt })
    await gmail.users.settings.updateVacation({
      userId: 'me',
      requestBody: { enableAutoReply: true, responseSubject: 'Away', responseBodyPlainText: 'Ask Bob.' },
    })
    const asDan = google.gmail({ version: 'v1', rootUrl: server.url, auth: server.auth('dan') })
    const vacation = await asDan.users.settings.getVacation({ userId: 'me' })
    expect(vacation.data).toMatchObject({
      enableAutoReply: true,
      responseSubject: 'Away',
      responseBodyPlainText: 'Ask Bob.',
    })
  })

  test('the delegated token holds only the scopes asked for', async () => {
    const file = await createKeyFile()
    const jwt = delegatedJwt(file, SETTINGS)
    const gmail = google.gmail({ version: 'v1', rootUrl: server.url, auth: jwt })
    const err = await gmail.users.messages.list({ userId: 'me' }).catch((e) => e)
    expect(err.status).toBe(403)
    expect(err.response.data.error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT')
  })

  test('signJwt over HTTP signs an assertion the token endpoint accepts', async () => {
    const payload = {
      iss: SA,
      sub: 'erin@northwind.test',
      scope: SETTINGS,
      aud: 'https://oauth2.googleapis.com/token',
      iat: nowS(),
      exp: nowS() + 3600,
    }
    const signed = await creds.projects.serviceAccounts.signJwt({
      name: `projects/-/serviceAccounts/${SA}`,
      requestBody: { payload: JSON.stringify(payload) },
    })
    expect(signed.data.keyId).toMatch(/^[0-9a-f]{40}$/)
    const header = JSON.parse(Buffer.from(signed.data.signedJwt!.split('.')[0]!, 'base64url').toString())
    expect(header).toEqual({ alg: 'RS256', kid: signed.data.keyId, typ: 'JWT' })
    const token = await tokenRequest(signed.data.signedJwt!)
    expect(token.status).toBe(200)
    const gmail = google.gmail({ version: 'v1', rootUrl: server.url })
    const res = await gmail.users.settings.getVacation(
      { userId: 'me' },
      {
        headers: { authorization: `Bearer ${token.body.access_token}` },
      },
    )
    expect(res.status).toBe(200)
    const who = await fetch(`${server.url}tokeninfo?access_token=${token.body.access_token}`).then(
      (r) => r.json() as Promise<{ scope: string }>,
    )
    expect(who.scope).toBe(SETTINGS)
  })
})

describe('gmail.users.settings.sendAs.create gmail.users.settings.forwardingAddresses.create', () => {
  test("a user's own token gets 403; the delegated service account creates, pending outside the domain", async () => {
    const asDan = google.gmail({ version: 'v1', rootUrl: server.url, auth: server.auth('dan') })
    const err = await asDan.users.settings.sendAs
      .create({ userId: 'me', requestBody: { sendAsEmail: 'bob@northwind.test' } })
      .catch((e) => e)
    expect(err.status).toBe(403)
    expect(err.response.data.error).toMatchObject({
      message: 'Access restricted to service accounts that have been delegated domain-wide authority',
      status: 'PERMISSION_DENIED',
      errors: [{ reason: 'forbidden' }],
    })
    const fwd = await asDan.users.settings.forwardingAddresses
      .create({ userId: 'me', requestBody: { forwardingEmail: 'dan@outside.test' } })
      .catch((e) => e)
    expect(fwd.status).toBe(403)

    const file = await createKeyFile()
    const jwt = delegatedJwt(file, SHARING)
    const asBot = google.gmail({ version: 'v1', rootUrl: server.url, auth: jwt })
    const alias = await asBot.users.settings.sendAs.create({
      userId: 'me',
      requestBody: { sendAsEmail: 'support@northwind.test', displayName: 'Support' },
    })
    expect(alias.data).toMatchObject({ sendAsEmail: 'support@northwind.test', verificationStatus: 'accepted' })
    const outside = await asBot.users.settings.forwardingAddresses.create({
      userId: 'me',
      requestBody: { forwardingEmail: 'dan@outside.test' },
    })
    expect(outside.data).toEqual({ forwardingEmail: 'dan@outside.test', verificationStatus: 'pending' })
    const on = await asBot.users.settings
      .updateAutoForwarding({ userId: 'me', requestBody: { enabled: true, emailAddress: 'dan@outside.test' } })
      .catch((e) => e)
    expect(on.status).toBe(400)
    expect(on.response.data.error.errors[0].reason).toBe('failedPrecondition')
  })
})

describe('jwt-bearer grant errors', () => {
  const sign = async (claims: Record<string, unknown>, account = SA) =>
    (
      await creds.projects.serviceAccounts.signJwt({
        name: `projects/-/serviceAccounts/${account}`,
        requestBody: { payload: JSON.stringify(claims) },
      })
    ).data.signedJwt!
  const base = () => ({
    iss: SA,
    scope: SETTINGS,
    aud: 'https://oauth2.googleapis.com/token',
    iat: nowS(),
    exp: nowS() + 600,
  })

  test('a scope the admin did not delegate is unauthorized_client', async () => {
    const claims = { ...base(), sub: 'dan@northwind.test', scope: 'https://mail.google.com/' }
    const res = await tokenRequest(await sign(claims))
    expect(res).toEqual({
      status: 401,
      body: {
        error: 'unauthorized_client',
        error_description:
          'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of ' +
          'the scopes requested.',
      },
    })
  })

  test('an unknown subject is invalid_grant', async () => {
    const res = await tokenRequest(await sign({ ...base(), sub: 'nobody@northwind.test' }))
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid email or User ID' })
  })

  test('an assertion living over an hour is refused', async () => {
    const res = await tokenRequest(await sign({ ...base(), sub: 'dan@northwind.test', exp: nowS() + 3700 }))
    expect(res.body.error).toBe('invalid_grant')
    expect(res.body.error_description).toMatch(/^Invalid JWT: Token must be a short-lived token \(60 minutes\)/)
  })

  test('a wrong audience is refused', async () => {
    const claims = { ...base(), sub: 'dan@northwind.test', aud: 'https://example.com/token' }
    const res = await tokenRequest(await sign(claims))
    expect(res.body.error).toBe('invalid_grant')
  })

  test('a tampered payload fails the signature check', async () => {
    const [h, , s] = (await sign({ ...base(), sub: 'dan@northwind.test' })).split('.')
    const forged = Buffer.from(JSON.stringify({ ...base(), sub: 'alice@northwind.test' })).toString('base64url')
    const res = await tokenRequest(`${h}.${forged}.${s}`)
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' })
  })

  test('a deleted key no longer signs in', async () => {
    const file = await createKeyFile()
    const name = `projects/-/serviceAccounts/${SA}/keys/${file.private_key_id}`
    await iam.projects.serviceAccounts.keys.delete({ name })
    const jwt = delegatedJwt(file, SETTINGS)
    await expect(jwt.authorize()).rejects.toThrow(/Invalid JWT Signature/)
  })

  test('signJwt needs Token Creator on the account', async () => {
    const err = await sign(base(), OTHER).catch((e) => e)
    expect(err.status).toBe(403)
    expect(err.response.data.error.message).toBe(
      "Permission 'iam.serviceAccounts.signJwt' denied on resource (or it may not exist).",
    )
  })

  test("without sub the token is the account's own, which Gmail refuses", async () => {
    const token = await tokenRequest(await sign(base()))
    expect(token.status).toBe(200)
    const res = await fetch(`${server.url}gmail/v1/users/me/settings/vacation`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { errors: { reason: string }[] } }
    expect(body.error.errors[0]!.reason).toBe('failedPrecondition')
  })
})

describe('iamcredentials.projects.serviceAccounts.signBlob', () => {
  test('signs bytes with the key signJwt reports, verifiable with that key', async () => {
    const name = `projects/-/serviceAccounts/${SA}`
    const payload = Buffer.from('hello').toString('base64')
    const blob = await creds.projects.serviceAccounts.signBlob({ name, requestBody: { payload } })
    const jwt = await creds.projects.serviceAccounts.signJwt({ name, requestBody: { payload: '{"a":1}' } })
    expect(blob.data.keyId).toBe(jwt.data.keyId)
    const { createVerify } = await import('node:crypto')
    const [h, p, sig] = jwt.data.signedJwt!.split('.')
    const { keyPairOf } = await import('../../envs/identity/sa-keys.ts')
    const { publicKey } = await keyPairOf(server.entry.keys, blob.data.keyId!)
    const blobSig = Buffer.from(blob.data.signedBlob!, 'base64')
    expect(createVerify('RSA-SHA256').update('hello').verify(publicKey, blobSig)).toBe(true)
    expect(createVerify('RSA-SHA256').update(`${h}.${p}`).verify(publicKey, Buffer.from(sig!, 'base64url'))).toBe(true)
    const exp = JSON.parse(Buffer.from(p!, 'base64url').toString()).exp as number
    expect(exp).toBeGreaterThan(nowS() + 3500)
    expect(exp).toBeLessThanOrEqual(nowS() + 3600)
  })

  test('a payload that is not base64 is a 400', async () => {
    const err = await creds.projects.serviceAccounts
      .signBlob({
        name: `projects/-/serviceAccounts/${SA}`,
        requestBody: { payload: 'not base64!' },
      })
      .catch((e) => e)
    expect(err.status).toBe(400)
  })
})
