import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { harness } from '../../envs/core/testing/harness.ts'
import { erasedDrive } from '../../gym/file-text.ts'

// What deleted Drive files and revisions held, kept for the oracle only (docs/decisions/0439): the same requests keep
// the same rows and the same world image, whatever the run.

/** A world, then: a file uploaded, overwritten, a revision deleted, the file deleted; a folder with a file deleted. */
async function episode() {
  const h = harness('demo')
  const token = h.google()
  const json = (method: string, path: string, body?: unknown) => h.call(method, path, { token, json: body })
  const media = (method: string, path: string, text: string) =>
    h.call(method, `${path}?uploadType=media`, { token, body: text, headers: { 'content-type': 'text/plain' } })
  const f = (await media('POST', '/upload/drive/v3/files', 'first draft')).body.id as string
  await media('PATCH', `/upload/drive/v3/files/${f}`, 'second draft')
  await media('PATCH', `/upload/drive/v3/files/${f}`, 'third draft')
  const revs = (await json('GET', `/drive/v3/files/${f}/revisions`)).body.revisions as { id: string }[]
  expect((await json('DELETE', `/drive/v3/files/${f}/revisions/${revs[1]!.id}`)).status).toBe(204)
  const folder = (
    await json('POST', '/drive/v3/files', { name: 'Box', mimeType: 'application/vnd.google-apps.folder' })
  ).body.id as string
  const inner = (await json('POST', '/drive/v3/files', { name: 'inner.txt', parents: [folder], description: 'note' }))
    .body.id as string
  await media('PATCH', `/upload/drive/v3/files/${inner}`, 'inside the box')
  expect((await json('DELETE', `/drive/v3/files/${folder}`)).status).toBe(204)
  expect((await json('DELETE', `/drive/v3/files/${f}`)).status).toBe(204)
  const kept = erasedDrive(h.entry.world.db)
  const image = createHash('sha256').update(h.entry.world.snapshot().bytes).digest('hex')
  h.worlds.close()
  return { kept, image, ids: { f, folder, inner } }
}

describe('Drive keeps what deleted files and revisions held, for the oracle only', () => {
  it('every version of a deleted file, a deleted revision, a folder and what it held', async () => {
    const { kept, ids } = await episode()
    const texts = (id: string) => kept.find((k) => k.id === id)?.versions.map((v) => v.text)
    // The deleted revision first (it went first), then the file's head and its one other revision when it went.
    expect(texts(ids.f)).toEqual(['second draft', 'third draft', 'first draft'])
    // Its head, then the empty revision its metadata-only create made.
    expect(texts(ids.inner)).toEqual(['inside the box', ''])
    expect(kept.find((k) => k.id === ids.inner)).toMatchObject({ parents: [ids.folder], name: 'inner.txt' })
    expect(kept.find((k) => k.id === ids.inner)!.shown).toContain('note')
    expect(kept.find((k) => k.id === ids.folder)?.mimeType).toBe('application/vnd.google-apps.folder')
  })

  it('the same requests keep the same rows and the same world image', async () => {
    const a = await episode()
    const b = await episode()
    expect(b.kept).toEqual(a.kept)
    expect(b.image).toBe(a.image)
  })
})
