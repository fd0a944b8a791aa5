import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
const DOC = 'application/vnd.google-apps.document'
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** A multipart/related upload of `data` (typed `type`) with JSON metadata. */
const related = (meta: object, type: string, data: Buffer) => {
  const head = Buffer.from(
    `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(meta)}\r\n--b\r\nContent-Type: ${type}\r\n\r\n`,
  )
  return {
    body: new Uint8Array(Buffer.concat([head, data, Buffer.from('\r\n--b--')])),
    headers: { 'content-type': 'multipart/related; boundary=b' },
  }
}

describe('drive.about.get fields', () => {
  test('answers 400 without fields, as Drive v3 does', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', '/drive/v3/about')
    expect(res.status).toBe(400)
    expect(res.body.error.errors[0]).toMatchObject({ reason: 'required', location: 'fields' })
    expect(res.body.error.status).toBeUndefined()
  })
})

describe('drive root alias', () => {
  test('files.get(root) answers the My Drive folder whose id is the parent of top-level files', async () => {
    const h = harness(driveSeed)
    const root = await h.call('GET', `${F}/root`)
    expect(root.status).toBe(200)
    expect(root.body).toEqual({
      kind: 'drive#file',
      id: expect.stringMatching(/^0A/),
      name: 'My Drive',
      mimeType: 'application/vnd.google-apps.folder',
    })
    const byId = await h.call('GET', `${F}/${root.body.id}?fields=id,name,parents,ownedByMe`)
    expect(byId.body).toEqual({ id: root.body.id, name: 'My Drive', ownedByMe: true })
    const made = await h.call('POST', `${F}?fields=id,parents`, { json: { name: 'top.txt', parents: ['root'] } })
    expect(made.body.parents).toEqual([root.body.id])
    const listed = await h.call('GET', `${F}?q=${q("'root' in parents and name = 'top.txt'")}`)
    expect(listed.body.files.map((f: { id: string }) => f.id)).toEqual([made.body.id])
    const byRootId = await h.call('GET', `${F}?q=${q(`'${root.body.id}' in parents and name = 'top.txt'`)}`)
    expect(byRootId.body.files).toHaveLength(1)
    expect((await h.call('GET', `${F}/root?alt=media`)).status).toBe(400)
  })

  test('addParents=root moves a file to My Drive when its old parent is removed, and is refused otherwise', async () => {
    const h = harness(driveSeed)
    const plan = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}&fields=files(id,parents)`)).body.files[0]
    const refused = await h.call('PATCH', `${F}/${plan.id}?addParents=root`, { json: {} })
    expect(refused.status).toBe(403)
    expect(refused.body.error.errors[0].reason).toBe('cannotAddParent')
    const moved = await h.call(
      'PATCH',
      `${F}/${plan.id}?addParents=root&removeParents=${plan.parents[0]}&fields=parents`,
      { json: {} },
    )
    const root = (await h.call('GET', `${F}/root`)).body.id
    expect(moved.body.parents).toEqual([root])
  })
})

describe('drive checksums', () => {
  test('sets md5, sha1 and sha256 on binary uploads and updates, none on Google types', async () => {
    const h = harness(driveSeed)
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 10, 13])
    const hex = (algo: string, b: Buffer) => createHash(algo).update(b).digest('hex')
    const fields = 'fields=id,md5Checksum,sha1Checksum,sha256Checksum'
    const up = await h.call(
      'POST',
      `/upload/drive/v3/files?uploadType=multipart&${fields}`,
      related({ name: 'blob.bin' }, 'application/octet-stream', bytes),
    )
    expect(up.body).toEqual({
      id: up.body.id,
      md5Checksum: hex('md5', bytes),
      sha1Checksum: hex('sha1', bytes),
      sha256Checksum: hex('sha256', bytes),
    })
    const next = Buffer.from('second version')
    const updated = await h.call('PATCH', `/upload/drive/v3/files/${up.body.id}?uploadType=media&${fields}`, {
      body: new Uint8Array(next),
      headers: { 'content-type': 'application/octet-stream' },
    })
    expect(updated.body.md5Checksum).toBe(hex('md5', next))
    const listed = await h.call('GET', `${F}?q=${q("name = 'blob.bin'")}&fields=files(sha256Checksum)`)
    expect(listed.body.files[0].sha256Checksum).toBe(hex('sha256', next))
    const doc = await h.call('POST', `${F}?${fields}`, { json: { name: 'D', mimeType: DOC } })
    expect(doc.body).toEqual({ id: doc.body.id })
  })
})

describe('drive import conversion', () => {
  const docText = async (h: ReturnType<typeof harness>, id: string) =>
    (
      await h.app.request(`${F}/${id}/export?mimeType=text/plain`, {
        headers: { authorization: `Bearer ${h.google()}` },
      })
    ).text()
  type Para = { text: string; style: string; bullet: boolean }
  const paragraphs = async (h: ReturnType<typeof harness>, id: string): Promise<Para[]> => {
    const doc = (await h.call('GET', `/v1/documents/${id}`)).body
    return doc.body.content
      .filter((e: { paragraph?: unknown }) => e.paragraph)
      .map((e: any) => ({
        text: e.paragraph.elements
          .map((r: any) => r.textRun?.content ?? '')
          .join('')
          .replace(/\n$/, ''),
        style: e.paragraph.paragraphStyle.namedStyleType,
        bullet: Boolean(e.paragraph.bullet),
      }))
  }

  test('converts text/plain into a Doc, one paragraph per line, searchable by its text', async () => {
    const h = harness(driveSeed)
    const res = await h.call(
      'POST',
      `/upload/drive/v3/files?uploadType=multipart&fields=id,mimeType`,
      related({ name: 'Notes', mimeType: DOC }, 'text/plain', Buffer.from('First line\nSecond line\n')),
    )
    expect(res.body.mimeType).toBe(DOC)
    expect((await paragraphs(h, res.body.id)).map((p) => p.text)).toEqual(['First line', 'Second line'])
    expect(await docText(h, res.body.id)).toContain('Second line')
    const found = await h.call('GET', `${F}?q=${q("fullText contains 'Second line'")}`)
    expect(found.body.files.map((f: { id: string }) => f.id)).toContain(res.body.id)
  })

  test('converts text/html headings, lists, tables and whole-paragraph emphasis (resumable upload)', async () => {
    const h = harness(driveSeed)
    const auth = { authorization: `Bearer ${h.google()}` }
    const html =
      '<html><head><title>x</title><style>p{}</style></head><body><h1>Plan &amp; scope</h1><p><b>All bold</b></p>' +
      '<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table><p>after</p></body></html>'
    const start = await h.app.request('/upload/drive/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'x-upload-content-type': 'text/html' },
      body: JSON.stringify({ name: 'Web', mimeType: DOC }),
    })
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const done = await h.app.request(session, { method: 'PUT', headers: auth, body: html })
    const id = ((await done.json()) as { id: string }).id
    const paras = await paragraphs(h, id)
    expect(paras.find((p) => p.text === 'Plan & scope')?.style).toBe('HEADING_1')
    expect(paras.filter((p) => p.bullet).map((p) => p.text)).toEqual(['one', 'two'])
    expect(paras.map((p) => p.text)).toContain('after')
    const doc = (await h.call('GET', `/v1/documents/${id}`)).body
    expect(doc.body.content.some((e: { table?: unknown }) => e.table)).toBe(true)
    const bold = doc.body.content.find((e: any) => e.paragraph?.elements[0]?.textRun?.content === 'All bold\n')
    expect(bold.paragraph.elements[0].textRun.textStyle.bold).toBe(true)
  })

  test('keeps an html entity named like an Object.prototype member (&constructor;) as written', async () => {
    const h = harness(driveSeed)
    const auth = { authorization: `Bearer ${h.google()}` }
    const html = '<body><p>a &constructor; b &valueof; c &amp; d</p></body>'
    const start = await h.app.request('/upload/drive/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'x-upload-content-type': 'text/html' },
      body: JSON.stringify({ name: 'Odd entities', mimeType: DOC }),
    })
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const done = await h.app.request(session, { method: 'PUT', headers: auth, body: html })
    expect(done.status).toBe(200)
    const id = ((await done.json()) as { id: string }).id
    const paras = await paragraphs(h, id)
    expect(paras.map((p) => p.text).join('')).toContain('a &constructor; b &valueof; c & d')
  })

  test('converts html whose tags are named like Object.prototype members as unknown tags (text kept)', async () => {
    const h = harness(driveSeed)
    const auth = { authorization: `Bearer ${h.google()}` }
    const html = '<body><constructor>one</constructor><p>two</p><__proto__>three</__proto__><valueOf>four</body>'
    const start = await h.app.request('/upload/drive/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'x-upload-content-type': 'text/html' },
      body: JSON.stringify({ name: 'Odd tags', mimeType: DOC }),
    })
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const done = await h.app.request(session, { method: 'PUT', headers: auth, body: html })
    expect(done.status).toBe(200)
    const id = ((await done.json()) as { id: string }).id
    const paras = await paragraphs(h, id)
    expect(paras.map((p) => p.text).join(' ')).toMatch(/one.*two.*three.*four/)
    for (const p of paras) expect(p.style ?? 'NORMAL_TEXT').toMatch(/^(NORMAL_TEXT|HEADING_\d|TITLE|SUBTITLE)$/)
  })

  test('converts a docx upload, keeping heading levels', async () => {
    const h = harness(driveSeed)
    const docx = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ text: 'Quarterly review', heading: HeadingLevel.HEADING_2 }),
              new Paragraph({ children: [new TextRun('Revenue grew.')] }),
            ],
          },
        ],
      }),
    )
    const res = await h.call(
      'POST',
      `/upload/drive/v3/files?uploadType=multipart&fields=id`,
      related({ name: 'Review', mimeType: DOC }, DOCX, docx),
    )
    expect(res.status).toBe(200)
    const paras = await paragraphs(h, res.body.id)
    expect(paras.filter((p) => p.text)).toEqual([
      { text: 'Quarterly review', style: 'HEADING_2', bullet: false },
      { text: 'Revenue grew.', style: 'NORMAL_TEXT', bullet: false },
    ])
    const bad = await h.call(
      'POST',
      `/upload/drive/v3/files?uploadType=multipart`,
      related({ name: 'Bad', mimeType: DOC }, DOCX, Buffer.from('not a zip')),
    )
    expect(bad.status).toBe(400)
  })
})
