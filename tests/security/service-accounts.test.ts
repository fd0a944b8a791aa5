import { createSign } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { serviceAccountSeed } from '../support/service-account-seed.ts'

// Attacks on domain-wide delegation, as an agent holding one world's admin token would try them.

const ADMIN = 'admin-secret'
const SA = 'mail-tool@acme-ops.iam.gserviceaccount.com'
const UNDELEGATED = 'other-tool@acme-ops.iam.gserviceaccount.com'
const SETTINGS = 'https://www.googleapis.com/auth/gmail.settings.basic'
const seed = serviceAccountSeed(
  'dwd-sec',
  [{ email: SA }, { email: UNDELEGATED }],
  [{ client: SA, scopes: [SETTINGS] }],
)

function server() {
  const worlds = new WorldManager()
  const agent = createAgentApp(worlds)
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const create = async (id: string) => {
    const res = await control.request('/worlds', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id, seed }),
    })
    const body = (await res.json()) as { users: { id: string; googleToken: string }[] }
    return body.users.find((u) => u.id === 'ann')!.googleToken
  }
  const keyFile = async (token: string, account = SA) => {
    const res = await agent.request(`/v1/projects/-/serviceAccounts/${account}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    const body = (await res.json()) as { privateKeyData: string }
    return JSON.parse(Buffer.from(body.privateKeyData, 'base64').toString()) as Record<string, string>
  }
  const token = async (assertion: string, world: string) => {
    const res = await agent.request('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
        world,
      }).toString(),
    })
    return { status: res.status, body: (await res.json()) as Record<string, string> }
  }
  const nowS = (world: string) => Math.floor(nowMs(worlds.get(world).world.db) / 1000)
  return { worlds, create, keyFile, token, nowS }
}

const b64u = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
function assertion(file: Record<string, string>, claims: Record<string, unknown>, header: object = { alg: 'RS256' }) {
  const input = `${b64u(header)}.${b64u(claims)}`
  return `${input}.${createSign('RSA-SHA256').update(input).sign(file.private_key!).toString('base64url')}`
}
const claims = (iat: number, extra: Record<string, unknown> = {}) => ({
  iss: SA,
  sub: 'ben@example.com',
  scope: SETTINGS,
  aud: 'https://oauth2.googleapis.com/token',
  iat,
  exp: iat + 600,
  ...extra,
})
const BAD_SIGNATURE = { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }

describe('service-account keys', () => {
  test('equal seeds and requests give byte-identical worlds but different private keys', async () => {
    const s = server()
    const one = await s.keyFile(await s.create('w1'))
    const two = await s.keyFile(await s.create('w2'))
    expect(one.private_key_id).toBe(two.private_key_id)
    expect(one.private_key).not.toBe(two.private_key)
    expect(s.worlds.get('w1').world.snapshot().bytes.equals(s.worlds.get('w2').world.snapshot().bytes)).toBe(true)
    const pemLine = Buffer.from(one.private_key!.split('\n')[1]!)
    expect(s.worlds.get('w1').world.snapshot().bytes.includes(pemLine)).toBe(false)
  })

  test('a key of one world cannot mint a token in another world of the same seed', async () => {
    const s = server()
    const file = await s.keyFile(await s.create('w1'))
    // The same requests in w2 give it a key with the same id; only the world's secret tells the two apart.
    expect((await s.keyFile(await s.create('w2'))).private_key_id).toBe(file.private_key_id)
    expect((await s.token(assertion(file, claims(s.nowS('w1'))), 'w1')).status).toBe(200)
    expect(await s.token(assertion(file, claims(s.nowS('w2'))), 'w2')).toEqual({ status: 400, body: BAD_SIGNATURE })
  })

  test('an unknown world answers as a bad signature does', async () => {
    const s = server()
    const file = await s.keyFile(await s.create('w1'))
    expect(await s.token(assertion(file, claims(s.nowS('w1'))), 'nosuchworld')).toEqual({
      status: 400,
      body: BAD_SIGNATURE,
    })
    expect(await s.token(assertion(file, claims(s.nowS('w1'))), '')).toEqual({ status: 400, body: BAD_SIGNATURE })
  })

  test('unsigned and HMAC-signed assertions are refused', async () => {
    const s = server()
    const file = await s.keyFile(await s.create('w1'))
    const none = `${b64u({ alg: 'none' })}.${b64u(claims(s.nowS('w1')))}.`
    expect((await s.token(none, 'w1')).body).toEqual(BAD_SIGNATURE)
    const signed = assertion(file, claims(s.nowS('w1')))
    const relabelled = `${b64u({ alg: 'HS256' })}.${signed.split('.').slice(1).join('.')}`
    expect((await s.token(relabelled, 'w1')).body).toEqual(BAD_SIGNATURE)
  })

  test('an account without delegation cannot act as a user; delegation does not widen to other scopes', async () => {
    const s = server()
    const admin = await s.create('w1')
    const other = await s.keyFile(admin, UNDELEGATED)
    const asOther = await s.token(assertion(other, claims(s.nowS('w1'), { iss: UNDELEGATED })), 'w1')
    expect(asOther).toMatchObject({ status: 401, body: { error: 'unauthorized_client' } })
    const file = await s.keyFile(admin)
    const wider = claims(s.nowS('w1'), { sub: 'ann@example.com', scope: `${SETTINGS} https://mail.google.com/` })
    expect((await s.token(assertion(file, wider), 'w1')).body.error).toBe('unauthorized_client')
  })

  test('an assertion signed by one account cannot claim to be another', async () => {
    const s = server()
    const admin = await s.create('w1')
    const other = await s.keyFile(admin, UNDELEGATED)
    expect((await s.token(assertion(other, claims(s.nowS('w1'))), 'w1')).body).toEqual(BAD_SIGNATURE)
  })

  test('a suspended user cannot be impersonated', async () => {
    const s = server()
    const admin = await s.create('w1')
    const file = await s.keyFile(admin)
    const suspend = await createAgentApp(s.worlds).request('/admin/directory/v1/users/ben@example.com', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ suspended: true }),
    })
    expect(suspend.status).toBe(200)
    expect((await s.token(assertion(file, claims(s.nowS('w1'))), 'w1')).body).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid email or User ID',
    })
  })
})
