import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Without `fields`, files.list reads only each file's id, name and MIME type in SQL (store/visibility.ts `heads`)
// and files.create answers without reading the new row back: both must answer what the rendered file gives.

const DEFAULT_ONLY = 'kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)'

describe('drive.files.list', () => {
  test('answers a page without fields as the rendered page narrowed to kind, id, name and mimeType', async () => {
    const h = harness('demo')
    const token = h.google()
    const names = ['report 1', 'Report two', 'notes', 'réport', 'x\ud800y report', 'REPORT-3', ' report padded ']
    for (const [i, name] of names.entries()) {
      const json = { name, mimeType: i % 2 ? 'text/plain' : 'application/vnd.google-apps.folder' }
      expect((await h.call('POST', '/drive/v3/files', { token, json })).status).toBe(200)
    }
    const queries = ['', "name contains 'report'", "name contains 'report' and 'root' in parents", "'root' in parents",
      "mimeType = 'application/vnd.google-apps.folder'", 'sharedWithMe', "'me' in owners and trashed = false"]
    const scopes = ['', '&corpora=allDrives&includeItemsFromAllDrives=true&supportsAllDrives=true']
    let compared = 0
    for (const q of queries) for (const orderBy of ['', 'name', 'modifiedTime desc,name']) for (const scope of scopes) {
      let pageToken = ''
      do {
        const path = `/drive/v3/files?pageSize=4&q=${encodeURIComponent(q)}` +
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

describe('drive.files.create', () => {
  test('answers without fields the kind, id, name and mimeType the stored file has', async () => {
    const h = harness('demo')
    const token = h.google()
    const bodies = [{ name: 'plain', mimeType: 'text/plain' }, { name: 'x\ud800y' }, {}, { name: '' },
      { name: 'doc', mimeType: 'application/vnd.google-apps.document' }, { name: 'starred', starred: true },
      { name: 'folder', mimeType: 'application/vnd.google-apps.folder', properties: { a: '1' } }]
    for (const json of bodies) {
      const created = await h.call('POST', '/drive/v3/files', { token, json })
      expect(created.status).toBe(200)
      const got = await h.call('GET', `/drive/v3/files/${created.body.id}?fields=kind,id,name,mimeType`, { token })
      expect(created.text).toBe(got.text)
    }
  })
})
