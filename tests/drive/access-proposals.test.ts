import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { validateAgainst } from '../support/discovery.ts'
import { driveSeed } from './fixtures.ts'

// Cy asked for access to Ann's Projects folder; a shared drive is seeded with Ben as a member.
const seed = {
  ...driveSeed,
  drive: {
    sharedDrives: [
      {
        key: 'ops',
        id: '0AopsDrive01Uk9PVA',
        name: 'Operations',
        creator: 'ann',
        members: [{ user: 'ben', role: 'writer' as const }],
      },
    ],
    files: [...driveSeed.drive.files, { name: 'Ops plan.txt', owner: 'ann', parent: 'ops', text: 'ops' }],
    accessProposals: [
      { file: 'folderProjects0000000001', requester: 'cy', role: 'writer' as const, message: 'I am joining Atlas.' },
    ],
  },
}
const P = '/drive/v3/files/folderProjects0000000001/accessproposals'

describe('drive.accessproposals.list', () => {
  test('shows pending requests to approvers only; drive.accessproposals.get reads one', async () => {
    const h = harness(seed)
    const list = (await h.call('GET', P)).body
    expect(list.accessProposals).toHaveLength(1)
    const p = list.accessProposals[0]
    expect(p).toMatchObject({
      fileId: 'folderProjects0000000001',
      requesterEmailAddress: 'cy@example.com',
      rolesAndViews: [{ role: 'writer' }],
      requestMessage: 'I am joining Atlas.',
    })
    expect(validateAgainst('drive', 'AccessProposal', p)).toEqual([])
    expect((await h.call('GET', `${P}/${p.proposalId}`)).body).toEqual(p)
    expect((await h.call('GET', `${P}/nope`)).status).toBe(404)
    expect((await h.call('GET', P, { token: h.google('cy') })).status).toBe(404)
    expect((await h.call('GET', P, { token: h.google('ben') })).status).toBe(200)
  })
})

describe('drive.accessproposals.resolve', () => {
  test('accepting grants the requested access and removes the proposal; denying only removes it', async () => {
    const h = harness(seed)
    const id = (await h.call('GET', P)).body.accessProposals[0].proposalId
    expect((await h.call('GET', '/drive/v3/files/folderProjects0000000001', { token: h.google('cy') })).status).toBe(
      404,
    )
    expect((await h.call('POST', `${P}/${id}:resolve`, { json: { action: 'ACCEPT' } })).status).toBe(400)
    expect((await h.call('POST', `${P}/${id}:resolve`, { json: { action: 'MAYBE' } })).status).toBe(400)
    expect(
      (
        await h.call('POST', `${P}/${id}:resolve`, {
          json: { action: 'ACCEPT', role: ['commenter'], sendNotification: false },
        })
      ).status,
    ).toBe(204)
    expect(
      (
        await h.call('GET', '/drive/v3/files/folderProjects0000000001?fields=capabilities(canComment,canEdit)', {
          token: h.google('cy'),
        })
      ).body.capabilities,
    ).toEqual({ canComment: true, canEdit: false })
    expect((await h.call('GET', P)).body.accessProposals).toEqual([])
    expect((await h.call('POST', `${P}/${id}:resolve`, { json: { action: 'DENY' } })).status).toBe(404)
  })
})

describe('seeded shared drives', () => {
  test('keep their id, members and items', async () => {
    const h = harness(seed)
    expect((await h.call('GET', '/drive/v3/drives', { token: h.google('ben') })).body.drives).toEqual([
      { kind: 'drive#drive', id: '0AopsDrive01Uk9PVA', name: 'Operations' },
    ])
    const items = (
      await h.call(
        'GET',
        '/drive/v3/files?corpora=drive&driveId=0AopsDrive01Uk9PVA&includeItemsFromAllDrives=true&supportsAllDrives=true&fields=files(name,driveId)',
        { token: h.google('ben') },
      )
    ).body.files
    expect(items).toEqual([{ name: 'Ops plan.txt', driveId: '0AopsDrive01Uk9PVA' }])
  })
})
