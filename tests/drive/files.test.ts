import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { parseDriveQuery } from '../../envs/drive/query/parse.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
const names = (body: { files: { name: string }[] }) => body.files.map((f) => f.name).sort()

describe('drive q grammar', () => {
  test('binds not tighter than and, and and tighter than or', () => {
    expect(parseDriveQuery("name = 'a' or name = 'b' and not starred = true")).toEqual({
      kind: 'or',
      items: [
        { kind: 'cmp', field: 'name', op: '=', value: 'a' },
        {
          kind: 'and',
          items: [
            { kind: 'cmp', field: 'name', op: '=', value: 'b' },
            { kind: 'not', item: { kind: 'cmp', field: 'starred', op: '=', value: true } },
          ],
        },
      ],
    })
  })

  test('reads escaped quotes and properties has', () => {
    expect(
      parseDriveQuery("name contains 'Ann\\'s' and properties has { key='team' and value='atlas' }"),
    ).toMatchObject({ items: [{ value: "Ann's" }, { kind: 'has', key: 'team', value: 'atlas' }] })
  })

  test.each(["name = 'x", 'name =', 'foo bar', "'x' in nowhere", "(name = 'a'"])('rejects %s', (bad) => {
    expect(() => parseDriveQuery(bad)).toThrow()
  })
})

describe('drive.files.list', () => {
  test.each([
    ["name contains 'atlas'", ['Atlas', 'Atlas budget.txt', 'Atlas plan.txt']],
    ["name contains 'plan' and starred = true", ['Atlas plan.txt']],
    // Every word of the value must start a word of the name, in any order; a word's middle never matches.
    ["name contains 'plan atlas'", ['Atlas plan.txt']],
    ["name contains 'atlas bud'", ['Atlas budget.txt']],
    ["name contains 'atlas-plan.txt'", ['Atlas plan.txt']],
    ["name contains 'tlas'", []],
    ["name contains 'atlas zebra'", []],
    ["fullText contains 'zephyr'", ['Atlas budget.txt']],
    ["mimeType = 'application/vnd.google-apps.folder' and trashed = false", ['Atlas', 'Press kit', 'Projects']],
    ['trashed = true', ['Old notes.txt']],
    ["'folderProjects0000000001' in parents", ['Atlas']],
    ["'root' in parents and trashed = false", ['Press kit', 'Projects']],
    [
      "not 'folderProjects0000000001' in parents and mimeType = 'application/vnd.google-apps.folder'",
      ['Press kit', 'Projects'],
    ],
    ["modifiedTime > '2026-03-03T00:00:00Z' and name contains 'atlas'", ['Atlas', 'Atlas plan.txt']],
    ["modifiedTime < '2026-03-03T00:00:00Z'", ['Atlas budget.txt']],
    ["properties has { key='team' and value='atlas' }", ['Atlas budget.txt']],
    ["'cy@example.com' in owners", ['Handbook.txt']],
    ["'ben@example.com' in writers", ['Projects']],
    ["visibility = 'anyoneWithLink'", ['Press kit']],
    [
      "not name contains 'atlas' and mimeType != 'application/vnd.google-apps.folder' and trashed = false",
      ['Handbook.txt', 'Logo.png'],
    ],
  ])('q=%s', async (query, expected) => {
    const h = harness(driveSeed)
    const res = await h.call('GET', `${F}?q=${q(query)}`)
    expect(res.status).toBe(200)
    expect(names(res.body)).toEqual(expected)
  })

  test('answers only kind, id, name and mimeType unless fields asks for more', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', `${F}?pageSize=1`)
    expect(Object.keys(res.body)).toEqual(['kind', 'nextPageToken', 'incompleteSearch', 'files'])
    expect(Object.keys(res.body.files[0])).toEqual(['kind', 'id', 'name', 'mimeType'])
    const nested = await h.call('GET', `${F}?pageSize=2&fields=${q('nextPageToken,files(id,name,parents)')}`)
    expect(Object.keys(nested.body.files[0]).sort()).toEqual(['id', 'name', 'parents'])
  })

  test('renders listed files as files.get does, as far as fields selects', async () => {
    const h = harness(driveSeed)
    const token = h.google('ben')
    const full = (await h.call('GET', `${F}?fields=*`, { token })).body.files as Record<string, unknown>[]
    expect(full.length).toBeGreaterThan(3)
    for (const f of full) expect(f).toEqual((await h.call('GET', `${F}/${f.id}?fields=*`, { token })).body)
    const pick = (f: Record<string, unknown>, keys: string[]) =>
      Object.fromEntries(keys.filter((k) => k in f).map((k) => [k, f[k]]))
    for (const keys of [
      ['id', 'name', 'modifiedTime', 'owners'],
      ['id', 'capabilities'],
      ['id', 'permissions'],
      ['shared'],
      ['permissionIds'],
    ]) {
      const listed = (await h.call('GET', `${F}?fields=${q(`files(${keys.join(',')})`)}`, { token })).body.files
      expect(listed).toEqual(full.map((f) => pick(f, keys)))
    }
  })

  test('shows a user what is shared with them, directly, through a folder or the domain, but not link-only items', async () => {
    const h = harness(driveSeed)
    const ben = await h.call('GET', `${F}?q=${q('trashed = false')}`, { token: h.google('ben') })
    expect(names(ben.body)).toEqual(['Atlas', 'Atlas budget.txt', 'Atlas plan.txt', 'Handbook.txt', 'Projects'])
    const cy = await h.call('GET', `${F}?q=sharedWithMe`, { token: h.google('cy') })
    expect(names(cy.body)).toEqual([])
    const benShared = await h.call('GET', `${F}?q=sharedWithMe`, { token: h.google('ben') })
    expect(names(benShared.body)).toEqual(['Projects'])
  })

  test('refuses unknown terms and dates that do not parse with 400, and reads a date without offset as UTC', async () => {
    const h = harness(driveSeed)
    for (const bad of [
      "modifiedTime > 'garbage'",
      "createdTime < 'soon'",
      "NAME = 'Atlas'",
      "owner = 'ann@example.com'",
      'modifiedTime > true',
    ]) {
      const res = await h.call('GET', `${F}?q=${q(bad)}`)
      expect(res.status, bad).toBe(400)
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'invalid', location: 'q' })
    }
    const tz = process.env.TZ
    process.env.TZ = 'Asia/Tokyo'
    try {
      const res = await h.call('GET', `${F}?q=${q("modifiedTime < '2026-03-01T12:00:00' and trashed = false")}`)
      expect(names(res.body)).toEqual(['Atlas budget.txt'])
    } finally {
      if (tz === undefined) delete process.env.TZ
      else process.env.TZ = tz
    }
  })

  test('fullText contains a double-quoted value matches the exact phrase', async () => {
    const h = harness(driveSeed)
    expect(names((await h.call('GET', `${F}?q=${q(`fullText contains '"vendor quote"'`)}`)).body)).toEqual([
      'Atlas budget.txt',
    ])
    expect(names((await h.call('GET', `${F}?q=${q(`fullText contains '"quote vendor"'`)}`)).body)).toEqual([])
  })

  test('accepts sharedWithMe with the documented = and != operators', async () => {
    const h = harness(driveSeed)
    const token = h.google('ben')
    const eqTrue = await h.call('GET', `${F}?q=${q('sharedWithMe = true')}`, { token })
    expect(eqTrue.status).toBe(200)
    expect(names(eqTrue.body)).toEqual(['Projects'])
    const notShared = await h.call('GET', `${F}?q=${q('sharedWithMe != true and trashed = false')}`, { token })
    expect(names(notShared.body)).toEqual(['Atlas', 'Atlas budget.txt', 'Atlas plan.txt', 'Handbook.txt'])
    const eqFalse = await h.call('GET', `${F}?q=${q('sharedWithMe = false and trashed = false')}`, { token })
    expect(names(eqFalse.body)).toEqual(names(notShared.body))
    expect((await h.call('GET', `${F}?q=${q("sharedWithMe = 'x'")}`, { token })).status).toBe(400)
  })

  test('corpora and includeItemsFromAllDrives never widen visibility', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', `${F}?corpora=allDrives&includeItemsFromAllDrives=true&supportsAllDrives=true`, {
      token: h.google('cy'),
    })
    expect(names(res.body)).toEqual(['Handbook.txt'])
  })

  test('orders by several keys and pages', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', `${F}?orderBy=${q('folder,name desc')}&pageSize=3`)
    expect(res.body.files.map((f: { name: string }) => f.name)).toEqual(['Projects', 'Press kit', 'Atlas'])
    const next = await h.call(
      'GET',
      `${F}?orderBy=${q('folder,name desc')}&pageSize=3&pageToken=${res.body.nextPageToken}`,
    )
    expect(next.body.files[0].name).toBe('Old notes.txt')
    expect((await h.call('GET', `${F}?orderBy=${q('size sideways')}`)).status).toBe(400)
    expect((await h.call('GET', `${F}?q=${q("name = 'x")}`)).status).toBe(400)
  })
})

describe('drive.files.get', () => {
  test('answers 404 to someone who cannot see the file, and serves link-shared files by id', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    expect((await h.call('GET', `${F}/${id}`, { token: h.google('cy') })).status).toBe(404)
    expect((await h.call('GET', `${F}/${id}`, { token: h.google('cy') })).body.error.message).toBe(
      `File not found: ${id}.`,
    )
    const logo = (await h.call('GET', `${F}?q=${q("name = 'Logo.png'")}`)).body.files[0].id
    expect((await h.call('GET', `${F}/${logo}`, { token: h.google('cy') })).status).toBe(200)
  })

  test('reports capabilities per caller', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const ann = (await h.call('GET', `${F}/${id}?fields=capabilities,ownedByMe`)).body
    const ben = (await h.call('GET', `${F}/${id}?fields=capabilities,ownedByMe`, { token: h.google('ben') })).body
    expect(ann).toMatchObject({ ownedByMe: true, capabilities: { canEdit: true, canDelete: true, canShare: true } })
    expect(ben).toMatchObject({ ownedByMe: false, capabilities: { canEdit: true, canDelete: false } })
  })

  test('downloads bytes with alt=media and Range', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas budget.txt'")}`)).body.files[0].id
    const res = await h.app.request(`${F}/${id}?alt=media`, {
      headers: { authorization: `Bearer ${h.google('ann')}`, range: 'bytes=0-6' },
    })
    expect(res.status).toBe(206)
    expect(await res.text()).toBe('Budget:')
    expect(res.headers.get('content-range')).toBe('bytes 0-6/42')
  })

  test('answers an unsatisfiable Range with a JSON 416 and ignores a reversed one', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas budget.txt'")}`)).body.files[0].id
    const past = await h.call('GET', `${F}/${id}?alt=media`, { headers: { range: 'bytes=99-' } })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe('bytes */42')
    expect(past.body.error).toMatchObject({ code: 416, errors: [{ reason: 'requestedRangeNotSatisfiable' }] })
    const reversed = await h.call('GET', `${F}/${id}?alt=media`, { headers: { range: 'bytes=5-2' } })
    expect(reversed.status).toBe(200)
    expect(reversed.text).toHaveLength(42)
  })
})

describe('drive.files.create', () => {
  test('creates folders and files under a writable parent, and refuses an unwritable one', async () => {
    const h = harness(driveSeed)
    const ben = h.google('ben')
    const made = await h.call('POST', `${F}?fields=${q('id,name,parents,owners')}`, {
      token: ben,
      json: {
        name: 'Ben notes',
        mimeType: 'application/vnd.google-apps.folder',
        parents: ['folderProjects0000000001'],
      },
    })
    expect(made.body).toMatchObject({
      name: 'Ben notes',
      parents: ['folderProjects0000000001'],
      owners: [{ emailAddress: 'ben@example.com', me: true }],
    })
    const press = (await h.call('GET', `${F}?q=${q("name = 'Press kit'")}`)).body.files[0].id
    // Ben can open the link-shared folder but not add to it.
    expect((await h.call('POST', F, { token: ben, json: { name: 'x', parents: [press] } })).status).toBe(403)
    expect(
      (await h.call('POST', F, { token: ben, json: { name: 'x', parents: ['1nosuchfolder000000000000000000000'] } }))
        .status,
    ).toBe(404)
    expect((await h.call('POST', F, { json: { name: 12 } })).status).toBe(400)
  })

  test('uploads with uploadType=multipart and resumable', async () => {
    const h = harness(driveSeed)
    const multipart = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart&fields=id,name,mimeType,size', {
      body: '--b\r\nContent-Type: application/json\r\n\r\n{"name":"report.csv"}\r\n--b\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\r\n--b--',
      headers: { 'content-type': 'multipart/related; boundary=b' },
    })
    expect(multipart.body).toMatchObject({ name: 'report.csv', mimeType: 'text/csv', size: '7' })
    const start = await h.app.request('/upload/drive/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.google('ann')}`,
        'content-type': 'application/json',
        'x-upload-content-type': 'text/plain',
      },
      body: JSON.stringify({ name: 'big.txt' }),
    })
    const session = start.headers.get('location')!
    const path = session.replace(/^https?:\/\/[^/]+/, '')
    const first = await h.app.request(path, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.google('ann')}`, 'content-range': 'bytes 0-4/10' },
      body: 'hello',
    })
    expect(first.status).toBe(308)
    const done = await h.app.request(path, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.google('ann')}`, 'content-range': 'bytes 5-9/10' },
      body: 'world',
    })
    const file = (await done.json()) as { id: string }
    const media = await h.app.request(`${F}/${file.id}?alt=media`, {
      headers: { authorization: `Bearer ${h.google('ann')}` },
    })
    expect(await media.text()).toBe('helloworld')
    const status = await h.app.request(path, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.google('ann')}`, 'content-range': 'bytes */10' },
    })
    expect(status.status).toBe(200)
    expect(await status.json()).toMatchObject({
      kind: 'drive#file',
      id: file.id,
      name: 'big.txt',
      mimeType: 'text/plain',
    })
    const listed = (await h.call('GET', `${F}?q=${q("name = 'big.txt'")}`)).body.files
    expect(listed).toHaveLength(1)
  })

  test('hands back an https session URL behind a TLS-terminating proxy (X-Forwarded-Proto)', async () => {
    // rclone talks to https://www.googleapis.com only: behind a proxy that ends TLS, the request reaches us as
    // http, and a plain-http session URL sends the client's chunks where nothing listens.
    const h = harness(driveSeed)
    const start = (proto?: string) =>
      h.app.request('http://www.googleapis.com/upload/drive/v3/files?uploadType=resumable', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.google('ann')}`,
          'content-type': 'application/json',
          ...(proto ? { 'x-forwarded-proto': proto } : {}),
        },
        body: JSON.stringify({ name: 'via-proxy.txt' }),
      })
    const behind = (await start('https')).headers.get('location')!
    expect(behind).toMatch(/^https:\/\/www\.googleapis\.com\/upload\/drive\/v3\/files\?uploadType=resumable&upload_id=/)
    expect((await start()).headers.get('location')).toMatch(/^http:\/\/www\.googleapis\.com\//)
    expect((await start('ftp')).headers.get('location')).toMatch(/^http:\/\//)
  })

  test('takes resumable chunks by POST with X-GUploader-No-308 as the Go client sends them', async () => {
    const h = harness(driveSeed)
    const auth = { authorization: `Bearer ${h.google('ann')}` }
    const start = await h.app.request('/upload/drive/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'x-upload-content-type': 'text/plain' },
      body: JSON.stringify({ name: 'go.txt' }),
    })
    const path = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const goChunk = (range: string, body?: string) =>
      h.app.request(path, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain', 'x-guploader-no-308': 'yes', 'content-range': range },
        body,
      })
    const first = await goChunk('bytes 0-4/*', 'hello')
    expect(first.status).toBe(200)
    expect(first.headers.get('x-http-status-code-override')).toBe('308')
    expect(first.headers.get('range')).toBe('bytes=0-4')
    expect((await goChunk('bytes 5-9/*', 'world')).headers.get('x-http-status-code-override')).toBe('308')
    const done = await goChunk('bytes */10')
    expect(done.status).toBe(200)
    expect(done.headers.get('x-http-status-code-override')).toBeNull()
    const file = (await done.json()) as { id: string; name: string }
    expect(file.name).toBe('go.txt')
    const media = await h.app.request(`${F}/${file.id}?alt=media`, { headers: auth })
    expect(await media.text()).toBe('helloworld')
  })
})

describe('drive.files.update', () => {
  test('renames, moves between folders and trashes a folder with its contents', async () => {
    const h = harness(driveSeed)
    const atlas = (await h.call('GET', `${F}?q=${q("name = 'Atlas'")}`)).body.files[0].id
    const plan = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const moved = await h.call(
      'PATCH',
      `${F}/${plan}?removeParents=${atlas}&addParents=folderProjects0000000001&fields=name,parents`,
      { json: { name: 'Plan.txt' } },
    )
    expect(moved.body).toEqual({ name: 'Plan.txt', parents: ['folderProjects0000000001'] })
    await h.call('PATCH', `${F}/${atlas}`, { json: { trashed: true } })
    expect(names((await h.call('GET', `${F}?q=${q('trashed = true')}`)).body)).toEqual([
      'Atlas',
      'Atlas budget.txt',
      'Old notes.txt',
    ])
    await h.call('PATCH', `${F}/${atlas}`, { json: { trashed: false } })
    expect(names((await h.call('GET', `${F}?q=${q('trashed = true')}`)).body)).toEqual(['Old notes.txt'])
    expect((await h.call('PATCH', `${F}/${plan}`, { token: h.google('cy'), json: { name: 'x' } })).status).toBe(404)
  })

  test('replaces content through the upload path and keeps a revision', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const before = (await h.call('GET', `${F}/${id}?fields=version,modifiedTime`)).body
    await h.call('PATCH', `/upload/drive/v3/files/${id}?uploadType=media`, {
      body: 'New plan',
      headers: { 'content-type': 'text/plain' },
    })
    const after = (await h.call('GET', `${F}/${id}?fields=version,modifiedTime,size`)).body
    expect(Number(after.version)).toBeGreaterThan(Number(before.version))
    expect(after.modifiedTime > before.modifiedTime).toBe(true)
    expect(after.size).toBe('8')
  })
})

describe('drive.files.copy', () => {
  test("copies a file into the caller's drive", async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas budget.txt'")}`)).body.files[0].id
    const copy = await h.call('POST', `${F}/${id}/copy?fields=name,owners`, { token: h.google('ben'), json: {} })
    expect(copy.body).toMatchObject({ name: 'Copy of Atlas budget.txt', owners: [{ emailAddress: 'ben@example.com' }] })
  })
})

describe('drive.files.delete', () => {
  test('lets only the owner delete, and deletes folder contents', async () => {
    const h = harness(driveSeed)
    const atlas = (await h.call('GET', `${F}?q=${q("name = 'Atlas'")}`)).body.files[0].id
    expect((await h.call('DELETE', `${F}/${atlas}`, { token: h.google('ben') })).status).toBe(403)
    expect((await h.call('DELETE', `${F}/${atlas}`)).status).toBe(204)
    expect((await h.call('GET', `${F}?q=${q("name contains 'atlas'")}`)).body.files).toEqual([])
  })
})

describe('drive.files.emptyTrash', () => {
  test("removes the caller's trashed files", async () => {
    const h = harness(driveSeed)
    expect((await h.call('DELETE', `${F}/trash`)).status).toBe(204)
    expect((await h.call('GET', `${F}?q=${q('trashed = true')}`)).body.files).toEqual([])
  })
})

describe('drive.files.generateIds', () => {
  test('returns usable ids', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', `${F}/generateIds?count=3`)
    expect(res.body.ids).toHaveLength(3)
    const made = await h.call('POST', `${F}?fields=id`, { json: { id: res.body.ids[0], name: 'pre-id.txt' } })
    expect(made.body.id).toBe(res.body.ids[0])
    expect((await h.call('POST', F, { json: { id: res.body.ids[0], name: 'again' } })).status).toBe(409)
  })
})

describe('drive.files.export', () => {
  test('refuses files that are not Docs Editors files', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const res = await h.call('GET', `${F}/${id}/export?mimeType=text/plain`)
    expect(res.status).toBe(403)
    expect(res.body.error.errors[0].reason).toBe('fileNotExportable')
  })
})

describe('drive.about.get', () => {
  test('describes the caller and their quota', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', '/drive/v3/about?fields=user,storageQuota')
    expect(res.body.user).toMatchObject({ kind: 'drive#user', emailAddress: 'ann@example.com', me: true })
    expect(Number(res.body.storageQuota.usage)).toBeGreaterThan(0)
  })

  test('sums the bytes of the files the caller owns (folders have none), and of those in the trash', async () => {
    const h = harness(driveSeed)
    const owned = (user: string) => driveSeed.drive.files.filter((f) => f.owner === user)
    const bytes = (f: { text?: string; base64?: string }) =>
      f.text !== undefined ? Buffer.byteLength(f.text) : f.base64 ? Buffer.from(f.base64, 'base64').length : 0
    const quota = async (as?: string) =>
      (await h.call('GET', '/drive/v3/about?fields=storageQuota', as ? { token: h.google(as) } : {})).body.storageQuota
    const ann = owned('ann')
    expect(await quota()).toEqual({
      limit: '16106127360',
      usage: String(ann.reduce((n, f) => n + bytes(f), 0)),
      usageInDrive: String(ann.reduce((n, f) => n + bytes(f), 0)),
      usageInDriveTrash: String(ann.filter((f) => f.trashed).reduce((n, f) => n + bytes(f), 0)),
    })
    expect((await quota('ben')).usage).toBe('0')
    expect((await quota('cy')).usage).toBe(String(Buffer.byteLength('Company handbook')))
  })
})

describe('drive.files.update trashed on a folder', () => {
  test('trashes what the folder holds, and untrashing restores all but what was trashed on its own', async () => {
    const h = harness(driveSeed)
    const idOf = async (name: string) => (await h.call('GET', `${F}?q=${q(`name = '${name}'`)}`)).body.files[0].id
    const state = async () => {
      const res = await h.call('GET', `${F}?q=${q("'me' in owners")}&fields=files(name,trashed,explicitlyTrashed)`)
      return Object.fromEntries(
        res.body.files.map((f: Record<string, unknown>) => [f.name, [f.trashed, f.explicitlyTrashed]]),
      )
    }
    const [projects, plan] = [await idOf('Projects'), await idOf('Atlas plan.txt')]
    await h.call('PATCH', `${F}/${plan}`, { json: { trashed: true } })
    expect((await h.call('PATCH', `${F}/${projects}`, { json: { trashed: true } })).status).toBe(200)
    const trashed = await state()
    expect(trashed.Projects).toEqual([true, true])
    expect(trashed.Atlas).toEqual([true, false])
    expect(trashed['Atlas budget.txt']).toEqual([true, false])
    expect(trashed['Atlas plan.txt']).toEqual([true, true])
    expect(trashed['Press kit']).toEqual([false, false])
    await h.call('PATCH', `${F}/${projects}`, { json: { trashed: false } })
    const restored = await state()
    for (const name of ['Projects', 'Atlas', 'Atlas budget.txt']) expect(restored[name], name).toEqual([false, false])
    expect(restored['Atlas plan.txt']).toEqual([true, true])
  })
})

describe('drive.files.update parents', () => {
  test('refuses to give a file a second parent (cannotAddParent)', async () => {
    const h = harness(driveSeed)
    const plan = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const res = await h.call('PATCH', `${F}/${plan}?addParents=folderProjects0000000001`, { json: {} })
    expect(res.status).toBe(403)
    expect(res.body.error.errors[0].reason).toBe('cannotAddParent')
  })
})
