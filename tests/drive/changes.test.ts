import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'

describe('drive.changes.getStartPageToken', () => {
  test('starts a feed that drive.changes.list replays per caller', async () => {
    const h = harness(driveSeed)
    const start = (await h.call('GET', '/drive/v3/changes/startPageToken')).body
    expect(start.kind).toBe('drive#startPageToken')
    const empty = (await h.call('GET', `/drive/v3/changes?pageToken=${start.startPageToken}`)).body
    expect(empty).toEqual({ kind: 'drive#changeList', newStartPageToken: start.startPageToken, changes: [] })
    const plan = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    await h.call('PATCH', `${F}/${plan}`, { json: { name: 'Plan v2.txt' } })
    await h.call('PATCH', `${F}/${plan}`, { json: { description: 'edited twice' } })
    await h.call('POST', F, { json: { name: 'private.txt' } })
    const ann = (await h.call('GET', `/drive/v3/changes?pageToken=${start.startPageToken}`)).body
    expect(ann.changes.map((ch: { file: { name: string } }) => ch.file.name)).toEqual(['Plan v2.txt', 'private.txt'])
    expect(Number(ann.newStartPageToken)).toBeGreaterThan(Number(start.startPageToken))
    const ben = (await h.call('GET', `/drive/v3/changes?pageToken=${start.startPageToken}`, { token: h.google('ben') }))
      .body
    expect(ben.changes.map((ch: { fileId: string }) => ch.fileId)).toEqual([plan])
    expect((await h.call('GET', '/drive/v3/changes')).status).toBe(400)
  })
})

describe('drive.revisions.list', () => {
  test('keeps a revision per content change; drive.revisions.get downloads one, drive.revisions.update pins it, drive.revisions.delete removes old ones', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    await h.call('PATCH', `/upload/drive/v3/files/${id}?uploadType=media`, {
      body: 'v2',
      headers: { 'content-type': 'text/plain' },
    })
    const list = (await h.call('GET', `${F}/${id}/revisions`)).body
    expect(list.revisions).toHaveLength(2)
    const first = list.revisions[0].id
    const old = await h.app.request(`${F}/${id}/revisions/${first}?alt=media`, {
      headers: { authorization: `Bearer ${h.google('ann')}` },
    })
    expect(await old.text()).toBe('Plan for Atlas.')
    expect(
      (await h.call('PATCH', `${F}/${id}/revisions/${first}`, { json: { keepForever: true } })).body.keepForever,
    ).toBe(true)
    expect((await h.call('DELETE', `${F}/${id}/revisions/${list.revisions[1].id}`)).status).toBe(400)
    expect((await h.call('DELETE', `${F}/${id}/revisions/${first}`)).status).toBe(204)
    expect((await h.call('GET', `${F}/${id}/revisions`, { token: h.google('cy') })).status).toBe(404)
  })
})
