import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { refusal as failure } from './refusal.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { buildWorld } from '../../server/seeding.ts'
import { dumpIdentity } from '../../envs/identity/state.ts'

// A user's app passwords and backup codes through googleapis (directory.asps.*, directory.verificationCodes.*), as an
// administrator revokes them when an account is compromised or its owner leaves (docs/decisions/0471).
let server: SdkServer
let alice: admin_directory_v1.Admin
const seed = () => ({
  ...demoSeed(1),
  identity: {
    appPasswords: [
      { user: 'dan', name: 'Thunderbird', created: '2026-01-10T09:00:00Z', lastUsed: '2026-02-27T18:00:00Z' },
      { user: 'dan', name: 'Old phone' },
    ],
    backupCodes: ['dan'],
  },
})

beforeAll(async () => {
  server = await startSdkServer(seed())
  alice = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
})
afterAll(async () => {
  await server.close()
})

const userKey = 'dan@northwind.test'

describe('directory.asps.list, directory.asps.get, directory.asps.delete', () => {
  test('lists a user’s app passwords, gets one, revokes it; unknown ids are 404, others 400', async () => {
    const listed = (await alice.asps.list({ userKey })).data
    expect(listed.kind).toBe('admin#directory#aspList')
    expect(listed.items!.map((a) => [a.codeId, a.name])).toEqual([
      [1, 'Thunderbird'],
      [2, 'Old phone'],
    ])
    const id = (await alice.users.get({ userKey })).data.id
    expect(listed.items![0]).toMatchObject({
      kind: 'admin#directory#asp',
      creationTime: String(Date.parse('2026-01-10T09:00:00Z')),
      lastTimeUsed: String(Date.parse('2026-02-27T18:00:00Z')),
      userKey: id,
    })
    expect(listed.items![1]!.lastTimeUsed).toBe('0')
    expect((await alice.asps.get({ userKey, codeId: 2 })).data.name).toBe('Old phone')
    await alice.asps.delete({ userKey, codeId: 2 })
    expect((await alice.asps.list({ userKey })).data.items!.map((a) => a.codeId)).toEqual([1])
    expect(await failure(alice.asps.get({ userKey, codeId: 2 }))).toEqual({ status: 404, reason: 'notFound' })
    expect(await failure(alice.asps.delete({ userKey, codeId: 2 }))).toEqual({ status: 404, reason: 'notFound' })
    const bob = google.admin({ version: 'directory_v1', auth: server.auth('bob'), rootUrl: server.url })
    expect(await failure(bob.asps.list({ userKey }))).toEqual({ status: 403, reason: 'forbidden' })
    // A user with none lists none.
    expect((await alice.asps.list({ userKey: 'carol@northwind.test' })).data.items).toEqual([])
  })
})

// directory.verificationCodes.list, directory.verificationCodes.generate, directory.verificationCodes.invalidate
describe('directory.verificationCodes', () => {
  test('ten eight-digit codes; generate replaces them, invalidate removes them', async () => {
    const codes = async () =>
      (await alice.verificationCodes.list({ userKey })).data.items!.map((c) => c.verificationCode!)
    const first = await codes()
    expect(first).toHaveLength(10)
    for (const c of first) expect(c).toMatch(/^\d{8}$/)
    const item = (await alice.verificationCodes.list({ userKey })).data.items![0]!
    expect(item).toMatchObject({
      kind: 'admin#directory#verificationCode',
      userId: (await alice.users.get({ userKey })).data.id,
    })
    await alice.verificationCodes.generate({ userKey })
    const second = await codes()
    expect(second).toHaveLength(10)
    expect(second).not.toEqual(first)
    await alice.verificationCodes.invalidate({ userKey })
    expect(await codes()).toEqual([])
  })

  test('the same seed gives the same codes, and the dump counts what is left', () => {
    const a = buildWorld(seed(), 1)
    const b = buildWorld(seed(), 1)
    const entities = (w: typeof a) => dumpIdentity(w).entities as Record<string, Record<string, unknown>>
    expect(entities(a).backupCodes).toEqual({ dan: { userId: 'dan', count: 10 } })
    expect(Object.keys(entities(a).appPasswords!)).toEqual(['dan 1', 'dan 2'])
    const codes = (w: typeof a) => w.sqlite.prepare('SELECT code FROM identity_backup_codes ORDER BY seq').pluck().all()
    expect(codes(a)).toEqual(codes(b))
    a.close()
    b.close()
  })
})
