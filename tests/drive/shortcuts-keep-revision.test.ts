import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
const SHORTCUT = 'application/vnd.google-apps.shortcut'
const FIELDS = 'id,name,mimeType,size,md5Checksum,shortcutDetails'

/** A text file of Ann's to point at; returns its id. */
async function target(h: ReturnType<typeof harness>) {
  const res = await h.call('POST', `/upload/drive/v3/files?uploadType=media`, {
    body: 'target bytes',
    headers: { 'content-type': 'text/plain' },
  })
  expect(res.status).toBe(200)
  return res.body.id as string
}

describe('drive.files.create (shortcuts)', () => {
  test('a shortcut keeps its target and the target type, and has no size or checksum', async () => {
    const h = harness(driveSeed)
    const targetId = await target(h)
    const made = await h.call('POST', `${F}?fields=${FIELDS}`, {
      json: { name: 'link to target', mimeType: SHORTCUT, shortcutDetails: { targetId } },
    })
    expect(made.status).toBe(200)
    expect(made.body).toEqual({
      id: made.body.id,
      name: 'link to target',
      mimeType: SHORTCUT,
      shortcutDetails: { targetId, targetMimeType: 'text/plain' },
    })
    // files.get and files.list render it the same way (rclone lists with shortcutDetails and follows the target).
    const got = await h.call('GET', `${F}/${made.body.id}?fields=${FIELDS}`)
    expect(got.body).toEqual(made.body)
    const listed = await h.call('GET', `${F}?q=${q(`mimeType = '${SHORTCUT}'`)}&fields=files(${FIELDS})`)
    expect(listed.body.files).toEqual([made.body])
    // It holds no content to download.
    expect((await h.call('GET', `${F}/${made.body.id}?alt=media`)).status).toBe(400)
  })

  test('a shortcut needs a target the caller can see', async () => {
    const h = harness(driveSeed)
    const missing = await h.call('POST', F, { json: { name: 'dangling', mimeType: SHORTCUT } })
    expect(missing.status).toBe(400)
    expect(missing.body.error.errors[0]).toMatchObject({ reason: 'required' })
    const hidden = await h.call('POST', F, {
      json: { name: 'hidden', mimeType: SHORTCUT, shortcutDetails: { targetId: 'noSuchFile000000000000001' } },
    })
    expect(hidden.status).toBe(404)
    expect(hidden.body.error.message).toBe('File not found: noSuchFile000000000000001.')
  })

  test('a copy of a shortcut points at the same target; an update cannot retarget it', async () => {
    const h = harness(driveSeed)
    const targetId = await target(h)
    const made = await h.call('POST', F, {
      json: { name: 'link', mimeType: SHORTCUT, shortcutDetails: { targetId } },
    })
    const copy = await h.call('POST', `${F}/${made.body.id}/copy?fields=${FIELDS}`, { json: { name: 'link 2' } })
    expect(copy.status).toBe(200)
    expect(copy.body).toMatchObject({ name: 'link 2', shortcutDetails: { targetId, targetMimeType: 'text/plain' } })
    expect(copy.body.size).toBeUndefined()
    const retarget = await h.call('PATCH', `${F}/${made.body.id}`, {
      json: { shortcutDetails: { targetId: made.body.id } },
    })
    expect(retarget.status).toBe(403)
    expect(retarget.body.error.errors[0].reason).toBe('fieldNotWritable')
  })
})

describe('keepRevisionForever (files.create, files.update uploads, files.copy)', () => {
  const keeps = async (h: ReturnType<typeof harness>, id: string) =>
    (
      (await h.call('GET', `${F}/${id}/revisions?fields=revisions(id,keepForever)`)).body.revisions as {
        keepForever: boolean
      }[]
    ).map((r) => r.keepForever)

  test('pins the head revision a content upload or a copy makes, and only when asked', async () => {
    const h = harness(driveSeed)
    const up = (path: string, method = 'POST') =>
      h.call(method, path, { body: 'v1', headers: { 'content-type': 'text/plain' } })
    const plain = (await up('/upload/drive/v3/files?uploadType=media')).body.id as string
    expect(await keeps(h, plain)).toEqual([false])
    const kept = (await up('/upload/drive/v3/files?uploadType=media&keepRevisionForever=true')).body.id as string
    expect(await keeps(h, kept)).toEqual([true])
    await up(`/upload/drive/v3/files/${plain}?uploadType=media&keepRevisionForever=true`, 'PATCH')
    expect(await keeps(h, plain)).toEqual([false, true])
    const copy = await h.call('POST', `${F}/${plain}/copy?keepRevisionForever=true`, { json: {} })
    expect(await keeps(h, copy.body.id)).toEqual([true])
    // A resumable session: the query of the request that opened it holds for the upload that ends it.
    const start = await h.call('POST', '/upload/drive/v3/files?uploadType=resumable&keepRevisionForever=true', {
      json: { name: 'resumed.txt' },
    })
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const done = await h.call('PUT', session, { body: 'all of it', headers: { 'content-type': 'text/plain' } })
    expect(await keeps(h, done.body.id)).toEqual([true])
  })
})
