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
      {
        requestBody: { name: 'minutes.txt', parents: ['folderProjects0000000001'] },
        media: { mimeType: 'text/plain', body: 'Decisions: ship Friday.' },
        fields: 'id,name,size',
      },
      { rootUrl: server.url } as never,
    )
    const file = made.data as unknown as drive_v3.Schema$File
    expect(file).toMatchObject({ name: 'minutes.txt', size: '23' })
    const seen = await ben.files.get({ fileId: file.id!, alt: 'media' }, { responseType: 'text' })
    expect(seen.data).toBe('Decisions: ship Friday.')
  })

  test('resumable upload of a stream', async () => {
    const made = await ann.files.create(
      {
        requestBody: { name: 'stream.bin' },
        media: { mimeType: 'application/octet-stream', body: Readable.from([Buffer.from('abc'), Buffer.from('def')]) },
        uploadType: 'resumable',
        fields: 'id,size',
      } as never,
      { rootUrl: server.url } as never,
    )
    expect((made as unknown as { data: { size: string } }).data.size).toBe('6')
  })

  test('compound search with nested fields selection', async () => {
    const res = await ben.files.list({
      q: "(name contains 'atlas' or fullText contains 'zephyr') and mimeType != 'application/vnd.google-apps.folder' and trashed = false",
      fields: 'files(id,name,owners(emailAddress))',
      orderBy: 'name',
    })
    expect(res.data.files!.map((f) => f.name)).toEqual(['Atlas budget.txt', 'Atlas plan.txt'])
    expect(res.data.files![0]!.owners).toEqual([{ emailAddress: 'ann@example.com' }])
  })

  test('share, then the grantee sees it under sharedWithMe', async () => {
    const file = await ann.files.create({ requestBody: { name: 'for-ben.txt' }, fields: 'id' })
    await ann.permissions.create({
      fileId: file.data.id!,
      sendNotificationEmail: false,
      requestBody: { type: 'user', role: 'commenter', emailAddress: 'ben@example.com' },
    })
    const shared = await ben.files.list({ q: 'sharedWithMe and trashed = false', fields: 'files(name)' })
    expect(shared.data.files!.map((f) => f.name)).toContain('for-ben.txt')
    await expect(ben.files.delete({ fileId: file.data.id! }, { retry: false })).rejects.toMatchObject({ status: 403 })
  })

  test('shared drive: create, add a member, work inside it as the member, find it by corpora, watch a file', async () => {
    const cy = google.drive({ version: 'v3', auth: server.auth('cy'), rootUrl: server.url })
    const drive = (
      await ann.drives.create({
        requestId: 'sdk-team-1',
        requestBody: { name: 'Team Alpha' },
        fields: 'id,name,capabilities(canManageMembers)',
      })
    ).data
    expect(drive).toMatchObject({ name: 'Team Alpha', capabilities: { canManageMembers: true } })
    const dup = await ann.drives
      .create({ requestId: 'sdk-team-1', requestBody: { name: 'Team Alpha' } }, { retry: false } as never)
      .catch((e: { status: number }) => e)
    expect((dup as { status: number }).status).toBe(409)
    await ann.permissions.create({
      fileId: drive.id!,
      supportsAllDrives: true,
      sendNotificationEmail: false,
      requestBody: { type: 'user', role: 'fileOrganizer', emailAddress: 'ben@example.com' },
    })
    const made = await ben.files.create(
      {
        supportsAllDrives: true,
        requestBody: { name: 'roadmap.txt', parents: [drive.id!] },
        media: { mimeType: 'text/plain', body: 'Q3: launch.' },
        fields: 'id,driveId,owners',
      },
      { rootUrl: server.url } as never,
    )
    const file = made.data as unknown as drive_v3.Schema$File
    expect(file.driveId).toBe(drive.id)
    expect(file.owners).toBeUndefined()
    const listed = await ann.files.list({
      corpora: 'drive',
      driveId: drive.id!,
      includeItemsFromAllDrives: true,
      supportsAllDrives: true,
      q: "name contains 'roadmap'",
      fields: 'files(id,name,driveId)',
    })
    expect(listed.data.files).toEqual([{ id: file.id, name: 'roadmap.txt', driveId: drive.id }])
    const stranger = await cy.drives
      .get({ driveId: drive.id! }, { retry: false } as never)
      .catch((e: { status: number; message: string }) => e)
    expect(stranger as { status: number; message: string }).toMatchObject({
      status: 404,
      message: `Shared drive not found: ${drive.id}`,
    })
    expect((await ben.drives.list({})).data.drives!.map((d) => d.name)).toEqual(['Team Alpha'])
    const channel = (
      await ben.files.watch({
        fileId: file.id!,
        supportsAllDrives: true,
        requestBody: { id: 'sdk-ch', type: 'web_hook', address: 'https://hooks.example.com/x' },
      })
    ).data
    expect(channel.kind).toBe('api#channel')
    await ben.channels.stop({ requestBody: { id: 'sdk-ch', resourceId: channel.resourceId! } })
    await ben.files.delete({ fileId: file.id!, supportsAllDrives: true })
    await ann.drives.hide({ driveId: drive.id! })
    expect((await ann.drives.list({ q: 'hidden = true' })).data.drives!.map((d) => d.id)).toEqual([drive.id])
    await ann.drives.delete({ driveId: drive.id! })
    expect((await ann.drives.list({})).data.drives).toEqual([])
  })
})
