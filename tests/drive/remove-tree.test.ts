import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

const F = '/drive/v3/files'
const FOLDER = 'application/vnd.google-apps.folder'

/** A folder tree, and a file under a plain file (only a seed can put one there). */
const seed = {
  name: 'remove-tree',
  now: '2026-03-10T15:00:00Z',
  users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann' }],
  drive: {
    files: [
      { key: 'top', name: 'Top', mimeType: FOLDER, owner: 'ann' },
      { key: 'mid', name: 'Mid', mimeType: FOLDER, owner: 'ann', parent: 'top' },
      { name: 'Deep.txt', mimeType: 'text/plain', owner: 'ann', parent: 'mid', text: 'deep' },
      { key: 'host', name: 'Host.txt', mimeType: 'text/plain', owner: 'ann', parent: 'top', text: 'host' },
      { name: 'Guest.txt', mimeType: 'text/plain', owner: 'ann', parent: 'host', text: 'guest' },
      { name: 'Alone.txt', mimeType: 'text/plain', owner: 'ann', text: 'alone' },
      { name: 'Other.txt', mimeType: 'text/plain', owner: 'ann', text: 'other' },
    ],
  },
}

const names = async (h: ReturnType<typeof harness>) =>
  ((await h.call('GET', `${F}?fields=files(name)&orderBy=name`)).body.files as { name: string }[]).map((f) => f.name)
const idOf = async (h: ReturnType<typeof harness>, name: string) =>
  (await h.call('GET', `${F}?q=${encodeURIComponent(`name = '${name}'`)}`)).body.files[0].id as string

describe('drive.files.delete', () => {
  test('deletes a file with nothing below it alone, and records one removal', async () => {
    const h = harness(seed)
    const alone = await idOf(h, 'Alone.txt')
    expect((await h.call('DELETE', `${F}/${alone}`)).status).toBe(204)
    expect(await names(h)).toEqual(['Deep.txt', 'Guest.txt', 'Host.txt', 'Mid', 'Other.txt', 'Top'])
    const sql = 'SELECT file_id FROM drive_changes WHERE removed = 1'
    const removals = h.entry.world.db.$client.prepare(sql).pluck().all()
    expect(removals).toEqual([alone])
  })

  test('deletes what lies below a folder, and below a plain file', async () => {
    const h = harness(seed)
    expect((await h.call('DELETE', `${F}/${await idOf(h, 'Host.txt')}`)).status).toBe(204)
    expect(await names(h)).toEqual(['Alone.txt', 'Deep.txt', 'Mid', 'Other.txt', 'Top'])
    expect((await h.call('DELETE', `${F}/${await idOf(h, 'Top')}`)).status).toBe(204)
    expect(await names(h)).toEqual(['Alone.txt', 'Other.txt'])
  })
})
