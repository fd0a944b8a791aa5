import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Without `fields`, files.list reads only each file's id, name and MIME type in SQL (store/visibility.ts `heads`)
// and files.create answers without reading the new row back: both must answer what the rendered file gives.

const DEFAULT_ONLY = 'kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)'
const FOLDER = 'application/vnd.google-apps.folder'

describe('drive.files.list', () => {
  test('answers a page without fields as the rendered page narrowed to kind, id, name and mimeType', async () => {
    const h = harness('demo')
    const token = h.google()
    const names = ['report 1', 'Report two', 'notes', 'réport', 'x\ud800y report', 'REPORT-3', ' report padded ']
    for (const [i, name] of names.entries()) {
      const json = { name, mimeType: i % 2 ? 'text/plain' : 'application/vnd.google-apps.folder' }
      expect((await h.call('POST', '/drive/v3/files', { token, json })).status).toBe(200)
    }
    const queries = [
      '',
      "name contains 'report'",
      "name contains 'report' and 'root' in parents",
      "'root' in parents",
      "mimeType = 'application/vnd.google-apps.folder'",
      'sharedWithMe',
      "'me' in owners and trashed = false",
    ]
    const scopes = ['', '&corpora=allDrives&includeItemsFromAllDrives=true&supportsAllDrives=true']
    let compared = 0
    for (const q of queries)
      for (const orderBy of ['', 'name', 'modifiedTime desc,name'])
        for (const scope of scopes) {
          let pageToken = ''
          do {
            const path =
              `/drive/v3/files?pageSize=4&q=${encodeURIComponent(q)}` +
              `${orderBy && `&orderBy=${orderBy}`}${scope}${pageToken && `&pageToken=${pageToken}`}`
            const plain = await h.call('GET', path, { token })
            const narrowed = await h.call('GET', `${path}&fields=${encodeURIComponent(DEFAULT_ONLY)}`, { token })
            expect(plain.status).toBe(200)
            expect(plain.body).toEqual(narrowed.body)
            compared += plain.body.files.length
            pageToken = plain.body.nextPageToken ?? ''
          } while (pageToken)
        }
    expect(compared).toBeGreaterThan(200)
  })
})

describe('drive.files.list kept pages', () => {
  test('answers a page asked again after each kind of write as the freshly rendered page', async () => {
    // A page without fields over the caller's own My Drive files is kept while drive_files is unwritten (0328).
    const h = harness('demo')
    const token = h.google()
    const call = async (method: string, path: string, json?: unknown) => {
      const r = await h.call(method, path, { token, json })
      expect(r.status).toBeLessThan(300)
      return r
    }
    for (let i = 0; i < 9; i++) await call('POST', '/drive/v3/files', { name: `report ${i}`, mimeType: 'text/plain' })
    const folder = (await call('POST', '/drive/v3/files', { name: 'box', mimeType: FOLDER })).body.id
    const q = "name contains 'report' and 'root' in parents and trashed = false"
    const path = `/drive/v3/files?pageSize=4&q=${encodeURIComponent(q)}`
    const expectFresh = async () => {
      const kept = await call('GET', path)
      const fresh = await call('GET', `${path}&fields=${encodeURIComponent(DEFAULT_ONLY)}`)
      expect(kept.body).toEqual(fresh.body)
      expect(await call('GET', path)).toEqual(kept)
      return kept.body.files as { id: string }[]
    }
    let files = await expectFresh()
    const writes: ((id: string) => Promise<unknown>)[] = [
      (id) => call('PATCH', `/drive/v3/files/${id}`, { name: 'a renamed report' }),
      (id) => call('PATCH', `/drive/v3/files/${id}`, { name: 'renamed away' }),
      (id) => call('PATCH', `/drive/v3/files/${id}`, { trashed: true }),
      (id) => call('PATCH', `/drive/v3/files/${id}?addParents=${folder}&removeParents=root`, {}),
      (id) => call('DELETE', `/drive/v3/files/${id}`),
      (id) => call('POST', `/drive/v3/files/${id}/copy`, {}),
      () => call('POST', '/drive/v3/files', { name: 'newest report' }),
    ]
    for (const write of writes) {
      const before = files
      await write(files[0]!.id)
      files = await expectFresh()
      expect(files, String(writes.indexOf(write))).not.toEqual(before)
    }
  })
})

describe('drive.files.create', () => {
  test('answers without fields the kind, id, name and mimeType the stored file has', async () => {
    const h = harness('demo')
    const token = h.google()
    const bodies = [
      { name: 'plain', mimeType: 'text/plain' },
      { name: 'x\ud800y' },
      {},
      { name: '' },
      { name: 'doc', mimeType: 'application/vnd.google-apps.document' },
      { name: 'starred', starred: true },
      { name: 'folder', mimeType: 'application/vnd.google-apps.folder', properties: { a: '1' } },
    ]
    for (const json of bodies) {
      const created = await h.call('POST', '/drive/v3/files', { token, json })
      expect(created.status).toBe(200)
      const got = await h.call('GET', `/drive/v3/files/${created.body.id}?fields=kind,id,name,mimeType`, { token })
      expect(created.text).toBe(got.text)
    }
  })
})
