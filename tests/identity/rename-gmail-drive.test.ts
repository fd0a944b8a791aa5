import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { demoSeed } from '../../seeds/demo/index.ts'
import { delegatedToken } from '../support/delegation.ts'
// A Directory rename reaches the Gmail settings and the Drive records that name an account by address
// (docs/decisions/0476): delegates, forwarding addresses and targets, the renamed user's primary send-as address,
// approval reviewers, access proposals and label user values show the new address, and keep working.
const D = '@northwind.test'
const seed = () => {
  const s = demoSeed(1)
  return {
    ...s,
    drive: {
      ...(s.drive as Record<string, unknown>),
      accessProposals: [{ file: 'eng', requester: 'dan', role: 'reader' as const }],
    },
  }
}
const S = '/gmail/v1/users/me/settings'
const rename = (h: ReturnType<typeof harness>, from: string, to: string) =>
  h.call('PUT', `/admin/directory/v1/users/${from}${D}`, {
    token: h.google('alice'),
    json: { primaryEmail: `${to}${D}` },
  })

describe('directory.users.update (a new primaryEmail) and Gmail settings', () => {
  test('delegates, forwarding addresses and targets show the new address; mail still forwards', async () => {
    const h = harness(seed())
    const carol = delegatedToken(h, 'carol')
    const post = (path: string, json: Record<string, unknown>) => h.call('POST', `${S}/${path}`, { token: carol, json })
    expect((await post('delegates', { delegateEmail: `bob${D}` })).status).toBe(200)
    expect((await post('forwardingAddresses', { forwardingEmail: `bob${D}` })).status).toBe(200)
    const filter = await post('filters', { criteria: { from: `erin${D}` }, action: { forward: `bob${D}` } })
    expect(filter.status).toBe(200)
    const auto = { enabled: true, emailAddress: `bob${D}`, disposition: 'leaveInInbox' }
    expect((await h.call('PUT', `${S}/autoForwarding`, { token: carol, json: auto })).status).toBe(200)
    expect((await rename(h, 'bob', 'robert')).status).toBe(200)

    const get = async (path: string) => (await h.call('GET', `${S}/${path}`, { token: carol })).body
    expect((await get('delegates')).delegates).toEqual([
      { delegateEmail: `robert${D}`, verificationStatus: 'accepted' },
    ])
    expect((await h.call('GET', `${S}/delegates/robert${D}`, { token: carol })).status).toBe(200)
    expect((await get('forwardingAddresses')).forwardingAddresses).toEqual([
      { forwardingEmail: `robert${D}`, verificationStatus: 'accepted' },
    ])
    expect((await get(`filters/${filter.body.id}`)).action).toEqual({ forward: `robert${D}` })
    expect((await get('autoForwarding')).emailAddress).toBe(`robert${D}`)

    // The renamed user's own primary send-as address is the new one.
    const bobSendAs = (await h.call('GET', `${S}/sendAs`, { token: h.google('bob') })).body.sendAs
    expect(
      bobSendAs.filter((x: { isPrimary?: boolean }) => x.isPrimary).map((x: { sendAsEmail: string }) => x.sendAsEmail),
    ).toEqual([`robert${D}`])
    // Forwarding still reaches the account: the filter and auto-forwarding both name a confirmed address.
    await h.call('POST', '/gmail/v1/users/me/messages/send', {
      token: h.google('erin'),
      json: { raw: Buffer.from(`To: carol${D}\r\nSubject: After the rename\r\n\r\nhi`).toString('base64url') },
    })
    const got = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:(After the rename)', {
      token: h.google('bob'),
    })
    expect(got.body.resultSizeEstimate).toBeGreaterThan(0)
  })
})

describe('directory.users.update (a new primaryEmail) and Drive', () => {
  test('drive.approvals.get shows the renamed reviewer, who can still drive.approvals.approve', async () => {
    const h = harness(seed())
    const F = '/drive/v3/files'
    const file = await h.call('POST', F, { token: h.google('alice'), json: { name: 'Budget', mimeType: 'text/plain' } })
    const fileId = file.body.id as string
    const share = { type: 'user', role: 'reader', emailAddress: `bob${D}` }
    await h.call('POST', `${F}/${fileId}/permissions`, { token: h.google('alice'), json: share })
    const started = await h.call('POST', `${F}/${fileId}/approvals:start`, {
      token: h.google('alice'),
      json: { reviewerEmails: [`bob${D}`] },
    })
    expect(started.status).toBe(200)
    const labelled = await h.call('POST', `${F}/${fileId}/modifyLabels`, {
      token: h.google('alice'),
      json: {
        labelModifications: [
          { labelId: 'owners', fieldModifications: [{ fieldId: 'lead', setUserValues: [`bob${D}`] }] },
        ],
      },
    })
    expect(labelled.status).toBe(200)
    expect((await rename(h, 'bob', 'robert')).status).toBe(200)
    // Deleting the old address (now an alias) leaves nothing that reads it.
    const gone = await h.call('DELETE', `/admin/directory/v1/users/robert${D}/aliases/bob${D}`, {
      token: h.google('alice'),
    })
    expect(gone.status).toBe(204)

    const A = `${F}/${fileId}/approvals/${started.body.approvalId}`
    const read = await h.call('GET', A, { token: h.google('alice') })
    expect(read.body.reviewerResponses[0].reviewer.emailAddress).toBe(`robert${D}`)
    expect((await h.call('POST', `${A}:approve`, { token: h.google('bob') })).body.status).toBe('APPROVED')
    const labels = await h.call('GET', `${F}/${fileId}/listLabels`, { token: h.google('alice') })
    expect(labels.body.labels[0].fields.lead.user[0].emailAddress).toBe(`robert${D}`)
  })

  test('drive.accessproposals.list shows the new requester; accepting grants the account', async () => {
    const h = harness(seed())
    const files = await h.call('GET', "/drive/v3/files?q=name='Engineering'", { token: h.google('bob') })
    const fileId = files.body.files[0].id as string
    const P = `/drive/v3/files/${fileId}/accessproposals`
    expect((await rename(h, 'dan', 'daniel')).status).toBe(200)
    const list = (await h.call('GET', P, { token: h.google('bob') })).body.accessProposals
    expect(list[0]).toMatchObject({ requesterEmailAddress: `daniel${D}`, recipientEmailAddress: `daniel${D}` })
    const ok = await h.call('POST', `${P}/${list[0].proposalId}:resolve`, {
      token: h.google('bob'),
      json: { action: 'ACCEPT', role: ['reader'], sendNotification: false },
    })
    expect(ok.status).toBe(204)
    const perms = await h.call('GET', `/drive/v3/files/${fileId}/permissions?fields=*`, { token: h.google('bob') })
    const granted = perms.body.permissions.find((p: { emailAddress?: string }) => p.emailAddress === `daniel${D}`)
    expect(granted).toMatchObject({ role: 'reader', type: 'user' })
    expect((await h.call('GET', `/drive/v3/files/${fileId}`, { token: h.google('dan') })).status).toBe(200)
  })
})
