import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed } from './fixtures.ts'
import { MAX_SUBTREE } from '../../envs/drive/store/access-changes.ts'

// Bugs the sequence fuzzer found (tests/robustness/fuzz/, docs/decisions/0442), each reduced to its shortest run.

const F = '/drive/v3/files'
const FOLDER = 'application/vnd.google-apps.folder'

describe('drive.files.update', () => {
  test('refuses to move a folder into itself or into a folder below it, and changes nothing', async () => {
    const h = harness(driveSeed)
    const outer = (await h.call('POST', F, { json: { name: 'Outer', mimeType: FOLDER } })).body.id as string
    const inner = (await h.call('POST', F, { json: { name: 'Inner', mimeType: FOLDER, parents: [outer] } })).body
      .id as string
    const root = (await h.call('GET', `${F}/root`)).body.id as string
    for (const target of [outer, inner]) {
      const r = await h.call('PATCH', `${F}/${outer}?addParents=${target}&removeParents=${root}`, { json: {} })
      expect(r.status, target).toBe(400)
      expect(r.body.error.errors[0].reason).toBe('invalidParent')
    }
    expect((await h.call('GET', `${F}/${outer}?fields=parents`)).body.parents).toEqual([root])
    const listed = (await h.call('GET', `${F}?q=${encodeURIComponent(`'${root}' in parents`)}`)).body.files
    expect(listed.map((f: { id: string }) => f.id)).toContain(outer)
    // A file may still move into the folder, and the folder under a sibling.
    const side = (await h.call('POST', F, { json: { name: 'Side', mimeType: FOLDER } })).body.id as string
    const moved = await h.call('PATCH', `${F}/${inner}?addParents=${side}&removeParents=${outer}&fields=parents`, {
      json: {},
    })
    expect(moved.body.parents).toEqual([side])
  })
})

describe('drive.changes.list', () => {
  test('reports a deleted file as removed to those who could see it, and to no one else', async () => {
    const h = harness(driveSeed)
    const folder = (await h.call('POST', F, { json: { name: 'Shared', mimeType: FOLDER } })).body.id as string
    await h.call('POST', `${F}/${folder}/permissions`, {
      json: { type: 'user', role: 'reader', emailAddress: 'ben@example.com' },
    })
    const inside = (await h.call('POST', F, { json: { name: 'notes.txt', parents: [folder] } })).body.id as string
    const start = (token: string) =>
      h.call('GET', '/drive/v3/changes/startPageToken', { token }).then((r) => r.body.startPageToken as string)
    const tokens = { ann: h.google('ann'), ben: h.google('ben'), cy: h.google('cy') }
    const from = { ann: await start(tokens.ann), ben: await start(tokens.ben), cy: await start(tokens.cy) }
    expect((await h.call('DELETE', `${F}/${folder}`)).status).toBe(204)
    const feed = async (who: keyof typeof tokens) =>
      (await h.call('GET', `/drive/v3/changes?pageToken=${from[who]}`, { token: tokens[who] })).body.changes as {
        fileId: string
        removed: boolean
        file?: unknown
      }[]
    for (const who of ['ann', 'ben'] as const) {
      const got = await feed(who)
      expect(
        got.map((c) => [c.fileId, c.removed, c.file]),
        who,
      ).toEqual([
        [folder, true, undefined],
        [inside, true, undefined],
      ])
    }
    expect(await feed('cy')).toEqual([])
  })
})

// docs/decisions/0445: Drive's `removed` is "for example by deletion or loss of access".
describe('drive.changes.list after a loss of access', () => {
  async function shared() {
    const h = harness(driveSeed)
    const folder = (await h.call('POST', F, { json: { name: 'Shared', mimeType: FOLDER } })).body.id as string
    const grant = await h.call('POST', `${F}/${folder}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'reader', emailAddress: 'ben@example.com' },
    })
    const inside = (await h.call('POST', F, { json: { name: 'notes.txt', parents: [folder] } })).body.id as string
    const ben = h.google('ben')
    const from = (await h.call('GET', '/drive/v3/changes/startPageToken', { token: ben })).body.startPageToken
    const feed = async (pageSize = 100) => {
      const out: [string, boolean][] = []
      for (let token = from as string | undefined; token;) {
        const r = (await h.call('GET', `/drive/v3/changes?pageToken=${token}&pageSize=${pageSize}`, { token: ben }))
          .body
        out.push(
          ...(r.changes as { fileId: string; removed: boolean }[]).map((c): [string, boolean] => [c.fileId, c.removed]),
        )
        token = r.nextPageToken
      }
      return out
    }
    return { h, folder, inside, permission: grant.body.id as string, feed }
  }
  test('a revoked folder and what it holds reach the grantee as removed', async () => {
    const { h, folder, inside, permission, feed } = await shared()
    expect((await h.call('DELETE', `${F}/${folder}/permissions/${permission}`)).status).toBe(204)
    expect(await feed()).toEqual([
      [folder, true],
      [inside, true],
    ])
  })
  test(`past ${MAX_SUBTREE} items below, a revoked folder alone reaches the grantee as removed`, async () => {
    const { h, folder, inside, permission, feed } = await shared()
    for (let i = 0; i < MAX_SUBTREE; i++) await h.call('POST', F, { json: { name: `n${i}.txt`, parents: [folder] } })
    expect((await h.call('DELETE', `${F}/${folder}/permissions/${permission}`)).status).toBe(204)
    const after = await feed(1000)
    // Below the cap every file of the folder is reported removed too (the tests above); past it the folder alone.
    expect(after.filter(([, removed]) => removed)).toEqual([[folder, true]])
    expect(after.some(([id]) => id === inside)).toBe(false)
  })
  test('a file moved out of the shared folder reaches the grantee as removed', async () => {
    const { h, folder, inside, feed } = await shared()
    const root = (await h.call('GET', `${F}/root`)).body.id as string
    expect(
      (await h.call('PATCH', `${F}/${inside}?addParents=${root}&removeParents=${folder}`, { json: {} })).status,
    ).toBe(200)
    expect(await feed()).toEqual([[inside, true]])
  })
  test('a loss of access before a later page is still reported on that page', async () => {
    const { h, folder, inside, permission, feed } = await shared()
    const other = (await h.call('POST', F, { json: { name: 'more.txt', parents: [folder] } })).body.id as string
    expect((await h.call('DELETE', `${F}/${folder}/permissions/${permission}`)).status).toBe(204)
    await h.call('PATCH', `${F}/${inside}`, { json: { name: 'renamed.txt' } })
    expect(await feed(1)).toEqual([
      [folder, true],
      [other, true],
      [inside, true],
    ])
  })
})

describe('drive.changes.list includeRemoved=false', () => {
  test('leaves removals out (docs/decisions/0445)', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('POST', F, { json: { name: 'gone.txt' } })).body.id as string
    const from = (await h.call('GET', '/drive/v3/changes/startPageToken')).body.startPageToken
    expect((await h.call('DELETE', `${F}/${id}`)).status).toBe(204)
    const all = (await h.call('GET', `/drive/v3/changes?pageToken=${from}`)).body.changes
    expect(all.map((c: { fileId: string; removed: boolean }) => [c.fileId, c.removed])).toEqual([[id, true]])
    expect((await h.call('GET', `/drive/v3/changes?pageToken=${from}&includeRemoved=false`)).body.changes).toEqual([])
  })
})
