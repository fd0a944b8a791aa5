import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed } from './fixtures.ts'

// Seeded grants and file flags are written with prepared statements (docs/decisions/0325): what they store is what
// the API reads back.
const seed = {
  ...driveSeed,
  drive: {
    sharedDrives: [
      {
        key: 'team',
        name: 'Team',
        creator: 'ann',
        members: [
          { user: 'ann', role: 'reader' as const },
          { user: 'ben', role: 'writer' as const },
          { emailAddress: 'Ext@Partner.test', role: 'commenter' as const },
        ],
      },
    ],
    files: [
      ...driveSeed.drive.files,
      {
        name: 'Shared.txt',
        owner: 'ann',
        text: 'x',
        starred: true,
        trashed: true,
        properties: { stage: 'draft' },
        permissions: [
          { type: 'user' as const, role: 'reader' as const, user: 'ben', expiration: '2026-04-01T00:00:00Z' },
          { type: 'user' as const, role: 'commenter' as const, user: 'ben' },
          { type: 'anyone' as const, role: 'reader' as const, allowFileDiscovery: true },
          { type: 'user' as const, role: 'writer' as const, user: 'ann' },
        ],
      },
      { name: 'In team.txt', owner: 'ann', parent: 'team', text: 'y' },
    ],
  },
}

describe('drive seed', () => {
  test('a repeated seeded grant takes the last role and expiration; flags and properties are stored', async () => {
    const h = harness(seed)
    const q = encodeURIComponent("name = 'Shared.txt' and trashed = true")
    const trashed = await h.call('GET', `/drive/v3/files?q=${q}`)
    const id = trashed.body.files[0].id
    const file = await h.call('GET', `/drive/v3/files/${id}?fields=starred,trashed,explicitlyTrashed,properties`)
    expect(file.body).toEqual({ starred: true, trashed: true, explicitlyTrashed: true, properties: { stage: 'draft' } })
    const perms = await h.call('GET', `/drive/v3/files/${id}/permissions?fields=*`)
    const byType = (t: string) => perms.body.permissions.filter((p: { type: string }) => p.type === t)
    expect(byType('user').map((p: any) => [p.emailAddress, p.role, p.expirationTime])).toEqual([
      ['ann@example.com', 'owner', undefined],
      ['ben@example.com', 'commenter', undefined],
    ])
    expect(byType('anyone')).toMatchObject([{ id: 'anyone', role: 'reader', allowFileDiscovery: true }])
  })

  test('a shared drive member grant to its creator takes the member role; others keep theirs', async () => {
    const h = harness(seed)
    const drives = await h.call('GET', '/drive/v3/drives')
    const driveId = drives.body.drives[0].id
    const perms = await h.call('GET', `/drive/v3/files/${driveId}/permissions?supportsAllDrives=true&fields=*`)
    expect(perms.body.permissions.map((p: any) => [p.emailAddress, p.role]).sort()).toEqual([
      ['ann@example.com', 'reader'],
      ['ben@example.com', 'writer'],
      ['ext@partner.test', 'commenter'],
    ])
  })
})
