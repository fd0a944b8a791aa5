import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Ownership transfer between consumer accounts (docs/decisions/0456): the owner marks a writer's permission
// `pendingOwner`, the prospective owner accepts by making their own permission `owner` with transferOwnership.

const F = '/drive/v3/files'
const consumers = {
  name: 'drive-consumers',
  now: '2026-03-10T15:00:00Z',
  users: [
    { id: 'ann', email: 'ann@gmail.com', name: 'Ann Lee' },
    { id: 'ben', email: 'ben@gmail.com', name: 'Ben Ode' },
    { id: 'cy', email: 'cy@gmail.com', name: 'Cy Ray' },
  ],
}
type H = ReturnType<typeof harness>
type Perm = { id: string; emailAddress: string; role: string; pendingOwner?: boolean }

async function sharedWithBen(h: H, role = 'writer') {
  const id = (await h.call('POST', F, { json: { name: 'Notes' } })).body.id as string
  const p = await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
    json: { type: 'user', role, emailAddress: 'ben@gmail.com' },
  })
  return { id, ben: p.body.id as string }
}
const perms = async (h: H, id: string) =>
  ((await h.call('GET', `${F}/${id}/permissions?fields=*`)).body.permissions as Perm[]).map((p) => ({
    email: p.emailAddress,
    role: p.role,
    pending: p.pendingOwner,
  }))
const fields = 'ownedByMe,owners(emailAddress),capabilities(canAcceptOwnership)'
const file = async (h: H, id: string, who: string) =>
  (await h.call('GET', `${F}/${id}?fields=${fields}`, { token: h.google(who) })).body

describe('pendingOwner: consumer ownership transfer', () => {
  test('the owner asks, the prospective owner accepts; until then nothing moves', async () => {
    const h = harness(consumers)
    const { id, ben } = await sharedWithBen(h)
    // A direct transfer between consumer accounts needs consent.
    const direct = await h.call('PATCH', `${F}/${id}/permissions/${ben}?transferOwnership=true`, {
      json: { role: 'owner' },
    })
    expect(direct.status).toBe(403)
    expect(direct.body.error.errors[0].reason).toBe('consentRequiredForOwnershipTransfer')

    const ask = await h.call('PATCH', `${F}/${id}/permissions/${ben}?fields=*`, {
      json: { role: 'writer', pendingOwner: true },
    })
    expect(ask.status).toBe(200)
    expect(ask.body).toMatchObject({ role: 'writer', pendingOwner: true })
    expect(await perms(h, id)).toEqual([
      { email: 'ann@gmail.com', role: 'owner', pending: false },
      { email: 'ben@gmail.com', role: 'writer', pending: true },
    ])
    expect(await file(h, id, 'ann')).toMatchObject({ ownedByMe: true, capabilities: { canAcceptOwnership: false } })
    expect(await file(h, id, 'ben')).toMatchObject({ ownedByMe: false, capabilities: { canAcceptOwnership: true } })
    // Listings render the same (their own permission loader).
    const listed = await h.call('GET', `${F}?fields=files(id,capabilities(canAcceptOwnership),permissions)`, {
      token: h.google('ben'),
    })
    const seen = listed.body.files.find((x: { id: string }) => x.id === id)
    expect(seen.capabilities.canAcceptOwnership).toBe(true)
    expect(seen.permissions.map((p: Perm) => p.pendingOwner)).toEqual([false, true])

    const accept = await h.call('PATCH', `${F}/${id}/permissions/${ben}?transferOwnership=true`, {
      json: { role: 'owner' },
      token: h.google('ben'),
    })
    expect(accept.status).toBe(200)
    expect(accept.body).toMatchObject({ role: 'owner', pendingOwner: false })
    expect(await perms(h, id)).toEqual([
      { email: 'ann@gmail.com', role: 'writer', pending: false },
      { email: 'ben@gmail.com', role: 'owner', pending: false },
    ])
    expect(await file(h, id, 'ben')).toMatchObject({
      ownedByMe: true,
      owners: [{ emailAddress: 'ben@gmail.com' }],
      capabilities: { canAcceptOwnership: false },
    })
  })

  test('the pending owner may accept by permissions.create; only the owner asks', async () => {
    const h = harness(consumers)
    const { id, ben } = await sharedWithBen(h)
    // Only the owner asks: Ben (a writer) cannot mark himself or anyone else.
    const byBen = await h.call('PATCH', `${F}/${id}/permissions/${ben}`, {
      json: { pendingOwner: true },
      token: h.google('ben'),
    })
    expect(byBen.status).toBe(403)
    // Without a pending request Ben cannot take the file.
    const early = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@gmail.com' },
      token: h.google('ben'),
    })
    expect(early.status).toBe(403)
    await h.call('PATCH', `${F}/${id}/permissions/${ben}`, { json: { pendingOwner: true } })
    // Cy, not the pending owner, cannot accept for himself.
    await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'cy@gmail.com' },
    })
    const cy = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'cy@gmail.com' },
      token: h.google('cy'),
    })
    expect(cy.status).toBe(403)
    const accept = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@gmail.com' },
      token: h.google('ben'),
    })
    expect(accept.status).toBe(200)
    expect((await file(h, id, 'ben')).ownedByMe).toBe(true)
    expect((await file(h, id, 'ann')).ownedByMe).toBe(false)
  })

  test('a pending owner must be a writer; the request ends when the role does', async () => {
    const h = harness(consumers)
    const { id, ben } = await sharedWithBen(h, 'reader')
    const reader = await h.call('PATCH', `${F}/${id}/permissions/${ben}`, { json: { pendingOwner: true } })
    expect(reader.status).toBe(403)
    expect(reader.body.error.errors[0].reason).toBe('pendingOwnerWriterRequired')
    // Made a writer and asked in one call; then made a reader again: no longer pending.
    expect(
      (await h.call('PATCH', `${F}/${id}/permissions/${ben}`, { json: { role: 'writer', pendingOwner: true } })).status,
    ).toBe(200)
    await h.call('PATCH', `${F}/${id}/permissions/${ben}`, { json: { role: 'reader' } })
    expect((await perms(h, id))[1]).toEqual({ email: 'ben@gmail.com', role: 'reader', pending: false })
    const late = await h.call('PATCH', `${F}/${id}/permissions/${ben}?transferOwnership=true`, {
      json: { role: 'owner' },
      token: h.google('ben'),
    })
    expect(late.status).toBe(403)
    // Asked at creation: a new writer's permission pending at once; withdrawn by the owner.
    const cy = await h.call('POST', `${F}/${id}/permissions?fields=*`, {
      json: { type: 'user', role: 'writer', emailAddress: 'cy@gmail.com', pendingOwner: true },
    })
    expect(cy.body).toMatchObject({ role: 'writer', pendingOwner: true })
    await h.call('PATCH', `${F}/${id}/permissions/${cy.body.id}`, { json: { pendingOwner: false } })
    expect((await file(h, id, 'cy')).capabilities.canAcceptOwnership).toBe(false)
  })

  test('a grant to the owner’s own address is refused and leaves the owner’s permission alone', async () => {
    const h = harness(consumers)
    const { id } = await sharedWithBen(h)
    for (const who of ['ann', 'ben']) {
      const r = await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
        json: { type: 'user', role: 'reader', emailAddress: 'ann@gmail.com' },
        token: h.google(who),
      })
      expect(r.status, who).toBe(403)
    }
    expect((await perms(h, id))[0]).toEqual({ email: 'ann@gmail.com', role: 'owner', pending: false })
  })
})

describe('pendingOwner: other ways a grant changes', () => {
  test('an access proposal accepted as reader ends a pending request', async () => {
    const h = harness({
      ...consumers,
      drive: {
        files: [{ key: 'notes', name: 'Notes', owner: 'ann', text: 'notes' }],
        accessProposals: [{ file: 'notes', requester: 'ben', role: 'writer' as const, message: 'May I?' }],
      },
    })
    const id = (await h.call('GET', `${F}?q=name%3D'Notes'&fields=files(id)`)).body.files[0].id as string
    const ben = await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'ben@gmail.com', pendingOwner: true },
    })
    expect(ben.body.pendingOwner).toBe(true)
    const P = `${F}/${id}/accessproposals`
    const proposal = (await h.call('GET', P)).body.accessProposals[0].proposalId
    const resolved = await h.call('POST', `${P}/${proposal}:resolve`, {
      json: { action: 'ACCEPT', role: ['reader'], sendNotification: false },
    })
    expect(resolved.status).toBe(204)
    expect((await perms(h, id))[1]).toEqual({ email: 'ben@gmail.com', role: 'reader', pending: false })
    expect((await file(h, id, 'ben')).capabilities.canAcceptOwnership).toBe(false)
  })

  test('a file moved into a shared drive has no pending owner', async () => {
    const h = harness({
      name: 'drive-workspace',
      now: '2026-03-10T15:00:00Z',
      users: [
        { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
        { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
      ],
    })
    const id = (await h.call('POST', F, { json: { name: 'Plan' } })).body.id as string
    await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'ben@example.com', pendingOwner: true },
    })
    const drive = (await h.call('POST', '/drive/v3/drives?requestId=r1', { json: { name: 'Team' } })).body.id
    const moved = await h.call('PATCH', `${F}/${id}?addParents=${drive}&supportsAllDrives=true`, { json: {} })
    expect(moved.status).toBe(200)
    const listed = await h.call('GET', `${F}/${id}/permissions?supportsAllDrives=true&fields=*`)
    const benPerm = listed.body.permissions.find((p: Perm) => p.emailAddress === 'ben@example.com')
    expect(benPerm.pendingOwner).toBe(false)
  })
})
