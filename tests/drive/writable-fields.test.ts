import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed } from './fixtures.ts'

// Drive refuses output-only File fields in a request body (403 fieldNotWritable), refuses `parents` in an update
// body (moves go through addParents/removeParents), and keeps a client's modifiedTime/createdTime, which sync tools
// (rclone, for one) set on every upload.

const F = '/drive/v3/files'
const U = '/upload/drive/v3/files'

const related = (meta: object, type: string, data: string) => ({
  body: new Uint8Array(
    Buffer.from(
      `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(meta)}\r\n--b\r\nContent-Type: ${type}\r\n\r\n` +
        `${data}\r\n--b--`,
    ),
  ),
  headers: { 'content-type': 'multipart/related; boundary=b' },
})

const errorOf = (res: { status: number; body: { error: { message: string; errors: { reason: string }[] } } }) => ({
  status: res.status,
  reason: res.body.error.errors[0]!.reason,
  message: res.body.error.message,
})

describe('drive.files.update', () => {
  test('refuses parents in the body and leaves the file where it was', async () => {
    const h = harness(driveSeed)
    const folder = (await h.call('POST', F, { json: { name: 'Dest', mimeType: 'application/vnd.google-apps.folder' } }))
      .body.id
    const id = (await h.call('POST', F, { json: { name: 'a.txt' } })).body.id
    const res = await h.call('PATCH', `${F}/${id}`, { json: { parents: [folder] } })
    expect(errorOf(res)).toEqual({
      status: 403,
      reason: 'fieldNotWritable',
      message:
        'The parents field is not directly writable in update requests. Use the addParents and removeParents ' +
        'parameters instead.',
    })
    expect((await h.call('GET', `${F}/${id}?fields=parents`)).body.parents).not.toContain(folder)
    const moved = await h.call('PATCH', `${F}/${id}?addParents=${folder}&fields=parents`, { json: {} })
    expect(moved.body.parents).toEqual([folder])
  })

  test('refuses output-only fields such as size, owners and webViewLink', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('POST', F, { json: { name: 'a.txt' } })).body.id
    for (const json of [
      { size: '3' },
      { owners: [{ emailAddress: 'ben@example.com' }] },
      { name: 'b', webViewLink: 'x' },
    ]) {
      const res = await h.call('PATCH', `${F}/${id}`, { json })
      expect(errorOf(res)).toEqual({
        status: 403,
        reason: 'fieldNotWritable',
        message: 'The resource body includes fields which are not directly writable.',
      })
    }
    expect((await h.call('GET', `${F}/${id}`)).body.name).toBe('a.txt')
  })

  test('keeps the modifiedTime the client sets, alone or with new content and a new name', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('POST', F, { json: { name: 'a.txt' } })).body.id
    const set = await h.call('PATCH', `${F}/${id}?fields=modifiedTime`, {
      json: { modifiedTime: '2021-05-06T07:08:09Z' },
    })
    expect(set.body.modifiedTime).toBe('2021-05-06T07:08:09.000Z')
    const upload = related({ name: 'b.txt', modifiedTime: '2022-01-01T00:00:00.000Z' }, 'text/plain', 'new bytes')
    const res = await h.call('PATCH', `${U}/${id}?uploadType=multipart&fields=name,modifiedTime,size`, upload)
    expect(res.body).toEqual({ name: 'b.txt', modifiedTime: '2022-01-01T00:00:00.000Z', size: '9' })
    const bad = await h.call('PATCH', `${F}/${id}`, { json: { modifiedTime: 'yesterday' } })
    expect(bad.status).toBe(400)
  })
})

describe('drive.files.create', () => {
  test('keeps the client modifiedTime and createdTime, and refuses output-only fields', async () => {
    const h = harness(driveSeed)
    const json = { name: 'old.txt', createdTime: '2019-01-01T00:00:00Z', modifiedTime: '2020-01-02T03:04:05.000Z' }
    const res = await h.call('POST', `${F}?fields=createdTime,modifiedTime`, { json })
    expect(res.body).toEqual({ createdTime: '2019-01-01T00:00:00.000Z', modifiedTime: '2020-01-02T03:04:05.000Z' })
    const owners = await h.call('POST', F, { json: { name: 'x', owners: [{ emailAddress: 'ben@example.com' }] } })
    expect(errorOf(owners)).toMatchObject({ status: 403, reason: 'fieldNotWritable' })
  })
})
