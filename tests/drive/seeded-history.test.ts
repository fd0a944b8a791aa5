import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed } from './fixtures.ts'

// A file seeded with two earlier versions: three revisions, oldest first, each with its author, time and bytes.
const seed = {
  ...driveSeed,
  drive: {
    files: [
      ...driveSeed.drive.files,
      {
        name: 'Rates.csv',
        mimeType: 'text/csv',
        owner: 'ann',
        text: 'v3\n',
        at: '-1d',
        modifiedBy: 'ben',
        permissions: [{ type: 'user' as const, role: 'writer' as const, user: 'ben' }],
        history: [
          { text: 'v1\n', at: '-30d' },
          { text: 'v2\n', at: '-7d', by: 'ben' },
        ],
      },
    ],
  },
}

describe('drive.revisions.list', () => {
  test('lists seeded versions in order; each downloads with alt=media; the file holds the last one', async () => {
    const h = harness(seed)
    const file = (await h.call('GET', `/drive/v3/files?q=${encodeURIComponent("name = 'Rates.csv'")}&fields=*`)).body
      .files[0]
    expect(file).toMatchObject({
      headRevisionId: '0B3',
      size: '3',
      lastModifyingUser: { emailAddress: 'ben@example.com' },
    })
    const revs = (await h.call('GET', `/drive/v3/files/${file.id}/revisions?fields=*`)).body.revisions
    expect(revs.map((r: { id: string }) => r.id)).toEqual(['0B1', '0B2', '0B3'])
    expect(revs.map((r: { lastModifyingUser: { emailAddress: string } }) => r.lastModifyingUser.emailAddress)).toEqual([
      'ann@example.com',
      'ben@example.com',
      'ben@example.com',
    ])
    expect(Date.parse(revs[0].modifiedTime)).toBeLessThan(Date.parse(revs[1].modifiedTime))
    const texts = await Promise.all(
      revs.map(
        async (r: { id: string }) =>
          (await h.call('GET', `/drive/v3/files/${file.id}/revisions/${r.id}?alt=media`)).text,
      ),
    )
    expect(texts).toEqual(['v1\n', 'v2\n', 'v3\n'])
    expect((await h.call('GET', `/drive/v3/files/${file.id}?alt=media`)).text).toBe('v3\n')
    const folder = {
      name: 'F',
      mimeType: 'application/vnd.google-apps.folder',
      owner: 'ann',
      history: [{ text: 'x', at: '-1d' }],
    }
    expect(() => harness({ ...seed, name: 'drive-history-folder', drive: { files: [folder] } })).toThrow(/history/)
  })
})
