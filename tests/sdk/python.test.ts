import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { discovery } from '../support/discovery.ts'
import { startSdkServer, type SdkServer } from './server.ts'

// google-api-python-client (Debian `python3-googleapi`, imported by the system python3) over a real socket.
const PYTHON = process.env.WSGYM_PYTHON ?? '/usr/bin/python3'
const probe = spawnSync(PYTHON, ['-c', 'import googleapiclient, google_auth_httplib2'], { encoding: 'utf8' })
const missing = probe.status === 0 ? '' : `${PYTHON} cannot import googleapiclient (apt-get install python3-googleapi)`

describe.skipIf(missing !== '')(`google-api-python-client${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let server: SdkServer
  let specs: string
  let out: Record<string, any>

  beforeAll(async () => {
    server = await startSdkServer('demo')
    specs = mkdtempSync(join(tmpdir(), 'wsgym-py-specs-'))
    for (const [api, file] of [
      ['gmail', 'gmail.v1'],
      ['drive', 'drive.v3'],
      ['calendar', 'calendar.v3'],
      ['directory', 'admin.directory_v1'],
    ] as const) {
      writeFileSync(join(specs, `${file}.discovery.json`), JSON.stringify(discovery(api)))
    }
    const [me, peer] = server.tokens
    const args = [
      join(import.meta.dirname, 'python', 'google_clients.py'),
      '--url',
      server.url,
      '--token',
      me!.googleToken!,
      '--specs',
      specs,
      '--peer',
      peer!.email,
    ]
    // Async: the server runs in this process, so a blocking child call would starve it.
    const { stdout } = await promisify(execFile)(PYTHON, args, {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 16 << 20,
    })
    out = JSON.parse(stdout)
  }, 150_000)
  afterAll(async () => {
    await server?.close()
    if (specs) rmSync(specs, { recursive: true, force: true })
  })

  const ok = (name: string) => {
    expect(out[name]?.error, out[name]?.trace).toBeUndefined()
    return out[name]
  }

  it('runs a Gmail batch, folded Content-IDs included, with a 404 part reported per call', () => {
    const r = ok('gmailBatch')
    expect(r.ids.length).toBeGreaterThan(1)
    expect(r.seen).toEqual(r.ids.map((id: string) => ({ id })))
    expect(r.missing).toEqual({ error: 404 })
  })

  it('pages messages.list and decodes raw with strict base64 padding', () => {
    expect(ok('gmailPaddingPaging')).toMatchObject({ pages: 3, listed: 9, rawDecodes: true })
  })

  it('follows a send through history.list (sync from a historyId)', () => {
    const r = ok('gmailHistory')
    expect(r.added).toContain(r.sentId)
    expect(r.advanced).toBe(true)
  })

  it('sends a message through a chunked resumable upload', () => {
    const r = ok('gmailResumable')
    expect(r.chunks).toBeGreaterThan(1)
    expect(r.labelIds).toContain('SENT')
  })

  it('uploads multipart and resumable (checksums match) and downloads alt=media in chunks', () => {
    const r = ok('driveUploads')
    expect(r.multipart).toEqual({ size: '1024', md5ok: true })
    expect(r.resumable).toEqual({ chunks: 3, size: String(600 * 1024), md5ok: true })
    expect(r.download.same).toBe(true)
    expect(r.download.parts).toBeGreaterThan(1)
  })

  it('pages files.list and gets Drive error envelopes as HttpError', () => {
    const r = ok('drivePagingErrors')
    expect(r.pages).toBe(4)
    expect(r.listed).toBe(8)
    expect(r.missing.status).toBe(404)
    expect(r.missing.body.error.errors[0]).toMatchObject({ reason: 'notFound', location: 'fileId' })
    expect(r.aboutWithoutFields.status).toBe(400)
  })

  it('pages events.list and syncs with nextSyncToken; a bad token is 410 fullSyncRequired', () => {
    const r = ok('calendarSync')
    expect(r.items).toBeGreaterThan(5)
    expect(r.deltaIds).toEqual([r.madeId])
    expect(r.badSyncToken.status).toBe(410)
    expect(r.badSyncToken.body.error.errors[0].reason).toBe('fullSyncRequired')
  })

  it('makes, reads, renames and deletes org units by path (slashes encoded) and by id (directory.orgunits.*)', () => {
    const r = ok('directoryOrgUnits')
    expect(r).toMatchObject({ got: '/Py Team/Night Shift', parent: true, listed: ['/Py Team/Night Shift'] })
    expect(r.renamed).toBe('/Py Team/Late Shift')
    expect(r.gone.status).toBe(404)
  })

  it('makes a custom admin role, assigns it and takes both away (directory.roles, directory.roleAssignments)', () => {
    const r = ok('directoryRoles')
    expect(r.privileges).toEqual(['ORGANIZATION_UNITS_ALL', 'USERS_ALL', 'GROUPS_ALL', 'CALENDAR_RESOURCES_ALL'])
    expect(r.names).toEqual(expect.arrayContaining(['_SEED_ADMIN_ROLE', 'Py viewers']))
    expect(r.assignedTo).toEqual([r.me])
    expect(r.gone.status).toBe(404)
  })

  it('sets, reads and removes a photo; adds a secondary domain with an alias (directory.users.photos, domains)', () => {
    const r = ok('directoryPhotosDomains')
    expect(r).toMatchObject({ photo: ['image/gif', 1, 1], same: true, verified: false, alias: 'py-labs.test' })
    expect(r.gone.status).toBe(404)
    expect(r.domains).toEqual([
      ['northwind.test', []],
      ['py-labs.test', ['py-alias.test']],
    ])
    expect(r.aliasesAfter).toEqual([])
  })
})
