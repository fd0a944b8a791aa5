import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type drive_v3 } from 'googleapis'
import { Readable } from 'node:stream'
import { startSdkServer, type SdkServer } from './server.ts'
import { driveSeed } from '../drive/fixtures.ts'

let server: SdkServer
let ann: drive_v3.Drive
let ben: drive_v3.Drive
beforeAll(async () => {
  server = await startSdkServer(driveSeed)
  ann = google.drive({ version: 'v3', auth: server.auth('ann'), rootUrl: server.url })
  ben = google.drive({ version: 'v3', auth: server.auth('ben'), rootUrl: server.url })
})
afterAll(async () => server.close())

describe('drive workflows through googleapis', () => {
  test('multipart upload into a shared folder, then read it as a collaborator', async () => {
    const made = await ann.files.create(
      { requestBody: { name: 'minutes.txt', parents: ['folderProjects0000000001'] }, media: { mimeType: 'text/plain', body: 'Decisions: ship Friday.' }, fields: 'id,name,size' },
      { rootUrl: server.url } as never,
    )
    const file = made.data as unknown as drive_v3.Schema$File
    expect(file).toMatchObject({ name: 'minutes.txt', size: '23' })
    const seen = await ben.files.get({ fileId: file.id!, alt: 'media' }, { responseType: 'text' })
    expect(seen.data).toBe('Decisions: ship Friday.')
  })

  test('resumable upload of a stream', async () => {
    const made = await ann.files.create(
      { requestBody: { name: 'stream.bin' }, media: { mimeType: 'application/octet-stream', body: Readable.from([Buffer.from('abc'), Buffer.from('def')]) }, uploadType: 'resumable', fields: 'id,size' } as never,
      { rootUrl: server.url } as never,
    )
    expect((made as unknown as { data: { size: string } }).data.size).toBe('6')
  })

  test('compound search with nested fields selection', async () => {
    const res = await ben.files.list({ q: "(name contains 'atlas' or fullText contains 'zephyr') and mimeType != 'application/vnd.google-apps.folder' and trashed = false", fields: 'files(id,name,owners(emailAddress))', orderBy: 'name' })
    expect(res.data.files!.map((f) => f.name)).toEqual(['Atlas budget.txt', 'Atlas plan.txt'])
    expect(res.data.files![0]!.owners).toEqual([{ emailAddress: 'ann@example.com' }])
  })

  test('share, then the grantee sees it under sharedWithMe', async () => {
    const file = await ann.files.create({ requestBody: { name: 'for-ben.txt' }, fields: 'id' })
    await ann.permissions.create({ fileId: file.data.id!, sendNotificationEmail: false, requestBody: { type: 'user', role: 'commenter', emailAddress: 'ben@example.com' } })
    const shared = await ben.files.list({ q: 'sharedWithMe and trashed = false', fields: 'files(name)' })
    expect(shared.data.files!.map((f) => f.name)).toContain('for-ben.txt')
    await expect(ben.files.delete({ fileId: file.data.id! }, { retry: false })).rejects.toMatchObject({ status: 403 })
  })
})
