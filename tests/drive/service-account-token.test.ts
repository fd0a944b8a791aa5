import { createSign } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { serviceAccountSeed } from '../support/service-account-seed.ts'

// A service account's own token (the JWT-bearer grant without `sub`) on Drive, as duplicity's gdrive backend uses
// it (tests/sdk/duplicity.test.ts runs the tool): the key file, the assertion google-auth for Python signs, then
// Drive in a shared drive the account is a member of.

const ADMIN = 'admin-secret'
const SA = 'backup-bot@acme-ops.iam.gserviceaccount.com'
const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive'
const seed = serviceAccountSeed('sa-drive', [{ email: SA, displayName: 'Backup bot' }])

type Res = { status: number; body: Record<string, any> }

function server() {
  const worlds = new WorldManager()
  const agent = createAgentApp(worlds)
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const call = async (method: string, path: string, token: string, json?: unknown): Promise<Res> => {
    const res = await agent.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json === undefined ? undefined : JSON.stringify(json),
    })
    const text = await res.text()
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} }
  }
  const create = async (id: string) => {
    const res = await control.request('/worlds', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id, seed }),
    })
    const body = (await res.json()) as { users: { id: string; googleToken: string }[] }
    return body.users.find((u) => u.id === 'ann')!.googleToken
  }
  const keyFile = async (token: string) => {
    const res = await call('POST', `/v1/projects/-/serviceAccounts/${SA}/keys`, token, {})
    return JSON.parse(Buffer.from(res.body.privateKeyData, 'base64').toString()) as Record<string, string>
  }
  /** POSTs a grant to `path` (a key file's token_uri names the world in its query). */
  const grant = async (assertion: string, path: string): Promise<Res> => {
    const res = await agent.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
    })
    return { status: res.status, body: (await res.json()) as Record<string, string> }
  }
  const nowS = (world: string) => Math.floor(nowMs(worlds.get(world).world.db) / 1000)
  return { agent, call, create, keyFile, grant, nowS }
}

/** A multipart/mixed batch of `calls` (request lines) to /batch/drive/v3: the answer's text. */
async function agentBatch(s: ReturnType<typeof server>, token: string, calls: string[]): Promise<string> {
  const body = calls.map((line) => `--b\r\nContent-Type: application/http\r\n\r\n${line}\r\n\r\n`).join('')
  const res = await s.agent.request('/batch/drive/v3', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/mixed; boundary=b' },
    body: `${body}--b--\r\n`,
  })
  expect(res.status).toBe(200)
  return res.text()
}

/** A compact JWS as Debian's google-auth for Python (1.5) writes it: urlsafe base64 with `=` padding kept. */
function paddedAssertion(file: Record<string, string>, claims: object): string {
  const seg = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_')
  const input = `${seg(Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'RS256', kid: file.private_key_id })))}.${seg(
    Buffer.from(JSON.stringify(claims)),
  )}`
  return `${input}.${seg(createSign('RSA-SHA256').update(input).sign(file.private_key!))}`
}
const claimsAt = (iat: number, aud: string) => ({ iat, exp: iat + 3600, iss: SA, aud, scope: DRIVE_SCOPE })
const tokenPath = (file: Record<string, string>) => {
  const uri = new URL(file.token_uri!)
  return `${uri.pathname}${uri.search}`
}

/** World `id`, its admin's token, a key file, and the account's own Drive token (as duplicity gets it). */
async function setUp(s: ReturnType<typeof server>, id: string) {
  const ann = await s.create(id)
  const file = await s.keyFile(ann)
  const got = await s.grant(paddedAssertion(file, claimsAt(s.nowS(id), file.token_uri!)), tokenPath(file))
  expect(got.status).toBe(200)
  return { ann, file, sa: got.body.access_token as string }
}

describe('the JWT-bearer grant with a key file read by google-auth for Python', () => {
  test("keys.create writes Google's token endpoint naming the world as the key file's token_uri", async () => {
    const s = server()
    const file = await s.keyFile(await s.create('w1'))
    expect(file.token_uri).toBe('https://oauth2.googleapis.com/token?world=w1')
  })

  test('an assertion with padded base64url segments, its aud the token_uri, gets a token', async () => {
    const s = server()
    const file = await s.keyFile(await s.create('w1'))
    const assertion = paddedAssertion(file, claimsAt(s.nowS('w1'), file.token_uri!))
    expect(assertion.split('.')[2]).toMatch(/=$/)
    const got = await s.grant(assertion, '/token?world=w1')
    expect(got).toMatchObject({ status: 200, body: { token_type: 'Bearer' } })
    expect(got.body.access_token).toMatch(/^ya29\.w1\./)
  })

  test('an aud naming another world, or carrying another query, fails the audience check', async () => {
    const s = server()
    const file = await s.keyFile(await s.create('w1'))
    const failed = { error: 'invalid_grant', error_description: 'Invalid JWT: Failed audience check.' }
    for (const aud of [
      'https://oauth2.googleapis.com/token?world=w2',
      'https://oauth2.googleapis.com/token?world=w1&x=1',
      'https://evil.example/token?world=w1',
    ]) {
      expect(await s.grant(paddedAssertion(file, claimsAt(s.nowS('w1'), aud)), '/token?world=w1')).toEqual({
        status: 400,
        body: failed,
      })
    }
  })
})

describe("Drive with a service account's own token", () => {
  test('the account works in a shared drive it is a member of; Gmail still answers failedPrecondition', async () => {
    const s = server()
    const { ann, sa } = await setUp(s, 'w1')
    const drive = await s.call('POST', '/drive/v3/drives?requestId=r1', ann, { name: 'Backups' })
    const driveId = drive.body.id as string
    const member = { type: 'user', role: 'organizer', emailAddress: SA }
    const added = await s.call('POST', `/drive/v3/files/${driveId}/permissions?supportsAllDrives=true`, ann, member)
    expect(added.status).toBe(200)
    const about = await s.call('GET', '/drive/v3/about?fields=user', sa)
    expect(about).toMatchObject({
      status: 200,
      body: { user: { emailAddress: SA, displayName: 'Backup bot', me: true } },
    })
    // duplicity's folder: `driveId` in the body with parents in that drive, as its gdrive backend sends it.
    const folder = await s.call('POST', '/drive/v3/files?supportsAllDrives=true&fields=id,driveId', sa, {
      name: 'backups',
      mimeType: 'application/vnd.google-apps.folder',
      parents: [driveId],
      driveId,
    })
    expect(folder).toMatchObject({ status: 200, body: { driveId } })
    const file = await s.call('POST', '/drive/v3/files?supportsAllDrives=true', sa, {
      name: 'duplicity-full.manifest',
      mimeType: 'text/plain',
      parents: [folder.body.id],
    })
    expect(file.status).toBe(200)
    const q = encodeURIComponent(`'${folder.body.id}' in parents and trashed = false`)
    const opts = `corpora=drive&driveId=${driveId}&includeItemsFromAllDrives=true&supportsAllDrives=true`
    const listed = await s.call('GET', `/drive/v3/files?q=${q}&${opts}&fields=files(name,id)`, sa)
    expect(listed.body.files).toEqual([{ name: 'duplicity-full.manifest', id: file.body.id }])
    // Ann, organizer of the drive, sees the account's file too.
    expect((await s.call('GET', `/drive/v3/files?q=${q}&${opts}`, ann)).body.files).toHaveLength(1)
    const del = await s.call('DELETE', `/drive/v3/files/${file.body.id}?supportsAllDrives=true`, sa)
    expect(del.status).toBe(204)
    // Drive's batch endpoint serves the account too; a Gmail call inside the batch is not run (404 part).
    const batch = await agentBatch(s, sa, [`GET /drive/v3/files?${opts}&q=${q}`, 'GET /gmail/v1/users/me/profile'])
    expect([...batch.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1])).toEqual(['200', '404'])
    const gmail = await s.call('GET', '/gmail/v1/users/me/profile', sa)
    expect(gmail).toMatchObject({ status: 400, body: { error: { status: 'FAILED_PRECONDITION' } } })
  })

  test('a create body whose driveId is not the drive its parents are in is refused as not writable', async () => {
    const s = server()
    const ann = await s.create('w1')
    const drive = await s.call('POST', '/drive/v3/drives?requestId=r1', ann, { name: 'Backups' })
    const other = await s.call('POST', '/drive/v3/drives?requestId=r2', ann, { name: 'Other' })
    const notWritable = { status: 403, body: { error: { errors: [{ reason: 'fieldNotWritable' }] } } }
    const body = { name: 'x', parents: [drive.body.id], driveId: other.body.id }
    expect(await s.call('POST', '/drive/v3/files?supportsAllDrives=true', ann, body)).toMatchObject(notWritable)
    expect(await s.call('POST', '/drive/v3/files', ann, { name: 'x', driveId: drive.body.id })).toMatchObject(
      notWritable,
    )
    const same = { name: 'y', parents: [drive.body.id], teamDriveId: drive.body.id }
    expect((await s.call('POST', '/drive/v3/files?supportsAllDrives=true', ann, same)).status).toBe(200)
  })

  test('the account cannot own a file in My Drive: 403 storageQuotaExceeded; a folder is created', async () => {
    const s = server()
    const { ann, sa } = await setUp(s, 'w1')
    const shared = await s.call('POST', '/drive/v3/files', ann, {
      name: 'Drop box',
      mimeType: 'application/vnd.google-apps.folder',
    })
    const grant = { type: 'user', role: 'writer', emailAddress: SA }
    expect((await s.call('POST', `/drive/v3/files/${shared.body.id}/permissions`, ann, grant)).status).toBe(200)
    const refused = await s.call('POST', '/drive/v3/files', sa, { name: 'a.txt', parents: [shared.body.id] })
    expect(refused.status).toBe(403)
    expect(refused.body.error.errors[0]).toMatchObject({ domain: 'usageLimits', reason: 'storageQuotaExceeded' })
    expect(refused.body.error.message).toMatch(/^Service Accounts do not have storage quota\./)
    const folder = { name: 'sub', mimeType: 'application/vnd.google-apps.folder', parents: [shared.body.id] }
    expect((await s.call('POST', '/drive/v3/files', sa, folder)).status).toBe(200)
  })

  test("another world's account of the same seed cannot reach this world's shared drive or mint a token here", async () => {
    const s = server()
    const one = await setUp(s, 'w1')
    const two = await setUp(s, 'w2')
    const drive = await s.call('POST', '/drive/v3/drives?requestId=r1', one.ann, { name: 'Backups' })
    const member = { type: 'user', role: 'organizer', emailAddress: SA }
    await s.call('POST', `/drive/v3/files/${drive.body.id}/permissions?supportsAllDrives=true`, one.ann, member)
    const opts = `corpora=drive&driveId=${drive.body.id}&includeItemsFromAllDrives=true&supportsAllDrives=true`
    expect((await s.call('GET', `/drive/v3/files?${opts}`, one.sa)).status).toBe(200)
    expect((await s.call('GET', `/drive/v3/files?${opts}`, two.sa)).status).toBe(404)
    // w1's key file, pointed at w2, is another key there (same key id, another world's secret).
    const moved = paddedAssertion(one.file, claimsAt(s.nowS('w2'), 'https://oauth2.googleapis.com/token?world=w2'))
    expect((await s.grant(moved, '/token?world=w2')).body.error_description).toBe('Invalid JWT Signature.')
  })
})
