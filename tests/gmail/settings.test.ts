import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { gmailSeed, rfc822 } from './fixtures.ts'
import { delegatedToken } from '../support/delegation.ts'

const S = '/gmail/v1/users/me/settings'
const sendFromAnn = (h: ReturnType<typeof harness>, subject: string, to = 'ben@example.com') =>
  h.call('POST', '/gmail/v1/users/me/messages/send', { json: { raw: rfc822({ To: to, Subject: subject }, 'hello') } })

describe('gmail.users.settings.getVacation', () => {
  test("answers Gmail's defaults, and gmail.users.settings.updateVacation turns on auto-replies on delivery", async () => {
    const h = harness(gmailSeed)
    expect((await h.call('GET', `${S}/vacation`, { token: h.google('ben') })).body).toEqual({
      enableAutoReply: false,
      responseSubject: '',
      restrictToContacts: false,
      restrictToDomain: false,
    })
    await h.call('PUT', `${S}/vacation`, {
      token: h.google('ben'),
      json: { enableAutoReply: true, responseSubject: 'Away', responseBodyPlainText: 'Back Monday.' },
    })
    await sendFromAnn(h, 'Question 1')
    await sendFromAnn(h, 'Question 2')
    const replies = (await h.call('GET', '/gmail/v1/users/me/messages?q=subject:away')).body
    expect(replies.resultSizeEstimate).toBe(1) // once per sender within four days
  })
})

describe('gmail.users.settings.filters.create', () => {
  test('applies on later deliveries; gmail.users.settings.filters.list, gmail.users.settings.filters.get and gmail.users.settings.filters.delete manage it', async () => {
    const h = harness(gmailSeed)
    const ben = h.google('ben')
    const label = (await h.call('POST', '/gmail/v1/users/me/labels', { token: ben, json: { name: 'From Ann' } })).body
    const filter = await h.call('POST', `${S}/filters`, {
      token: ben,
      json: { criteria: { from: 'ann@example.com' }, action: { addLabelIds: [label.id], removeLabelIds: ['INBOX'] } },
    })
    expect(filter.status).toBe(200)
    await sendFromAnn(h, 'Filtered')
    const msg = (await h.call('GET', '/gmail/v1/users/me/messages?q=subject:filtered', { token: ben })).body.messages[0]
    const labels = (await h.call('GET', `/gmail/v1/users/me/messages/${msg.id}?format=minimal`, { token: ben })).body
      .labelIds
    expect(labels).toContain(label.id)
    expect(labels).not.toContain('INBOX')
    expect((await h.call('GET', `${S}/filters`, { token: ben })).body.filter).toHaveLength(1)
    expect((await h.call('GET', `${S}/filters/${filter.body.id}`, { token: ben })).body.criteria).toEqual({
      from: 'ann@example.com',
    })
    expect(
      (
        await h.call('POST', `${S}/filters`, {
          token: ben,
          json: { criteria: {}, action: { addLabelIds: ['STARRED'] } },
        })
      ).status,
    ).toBe(400)
    expect((await h.call('DELETE', `${S}/filters/${filter.body.id}`, { token: ben })).status).toBe(204)
    expect((await h.call('GET', `${S}/filters`, { token: ben })).body).toEqual({})
  })

  test("fields at proto3's defaults are unset: '' and false are neither stored nor answered, and make no new filter", async () => {
    const h = harness(gmailSeed)
    const ben = h.google('ben')
    const blank = { from: 'ann@example.com', subject: '', query: '', hasAttachment: false }
    const made = await h.call('POST', `${S}/filters`, {
      token: ben,
      json: { criteria: blank, action: { addLabelIds: ['STARRED'], removeLabelIds: [] } },
    })
    expect(made.body).toMatchObject({ criteria: { from: 'ann@example.com' }, action: { addLabelIds: ['STARRED'] } })
    expect(Object.keys(made.body.criteria)).toEqual(['from'])
    expect(Object.keys(made.body.action)).toEqual(['addLabelIds'])
    const again = await h.call('POST', `${S}/filters`, {
      token: ben,
      json: { criteria: { from: 'ann@example.com' }, action: { addLabelIds: ['STARRED'] } },
    })
    expect(again.status).toBe(409)
  })
})

describe('gmail.users.settings.updateAutoForwarding', () => {
  test('needs a verified forwarding address, then forwards deliveries (gmail.users.settings.getAutoForwarding)', async () => {
    const h = harness(gmailSeed)
    const ben = delegatedToken(h, 'ben')
    const enable = { enabled: true, emailAddress: 'ann@example.com', disposition: 'archive' }
    const refused = await h.call('PUT', `${S}/autoForwarding`, { token: ben, json: enable })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({
      message: 'Invalid forwarding address',
      status: 'FAILED_PRECONDITION',
      errors: [{ reason: 'failedPrecondition' }],
    })
    expect(
      (await h.call('POST', `${S}/forwardingAddresses`, { token: ben, json: { forwardingEmail: 'ann@example.com' } }))
        .body,
    ).toEqual({ forwardingEmail: 'ann@example.com', verificationStatus: 'accepted' })
    expect((await h.call('PUT', `${S}/autoForwarding`, { token: ben, json: enable })).status).toBe(200)
    expect((await h.call('GET', `${S}/autoForwarding`, { token: ben })).body).toMatchObject({ enabled: true })
    await h.call('POST', '/gmail/v1/users/me/messages/send', {
      token: h.google('ann'),
      json: { raw: rfc822({ To: 'ben@example.com', Subject: 'Forward me' }, 'x') },
    })
    const annCopies = (await h.call('GET', '/gmail/v1/users/me/messages?q=subject:"forward me" in:inbox')).body
    expect(annCopies.resultSizeEstimate).toBe(1)
  })

  test('refuses forwarding to an address that is still pending', async () => {
    const h = harness(gmailSeed)
    const ann = delegatedToken(h, 'ann')
    const created = await h.call('POST', `${S}/forwardingAddresses`, {
      token: ann,
      json: { forwardingEmail: 'drop@outside.test' },
    })
    expect(created.body).toEqual({ forwardingEmail: 'drop@outside.test', verificationStatus: 'pending' })
    const enable = { enabled: true, emailAddress: 'drop@outside.test', disposition: 'leaveInInbox' }
    const res = await h.call('PUT', `${S}/autoForwarding`, { token: ann, json: enable })
    expect(res.status).toBe(400)
    expect(res.body.error.errors[0].reason).toBe('failedPrecondition')
    expect((await h.call('GET', `${S}/autoForwarding`, { token: ann })).body.enabled).toBe(false)
  })
})

describe('gmail.users.settings.forwardingAddresses.list', () => {
  test('lists, gets and deletes forwarding addresses (gmail.users.settings.forwardingAddresses.get, gmail.users.settings.forwardingAddresses.create, gmail.users.settings.forwardingAddresses.delete)', async () => {
    const h = harness(gmailSeed)
    const token = delegatedToken(h, 'ann')
    expect((await h.call('GET', `${S}/forwardingAddresses`)).body).toEqual({})
    await h.call('POST', `${S}/forwardingAddresses`, { token, json: { forwardingEmail: 'Me@Elsewhere.test' } })
    // A user's own token reads what delegation set up.
    expect((await h.call('GET', `${S}/forwardingAddresses/me@elsewhere.test`)).body).toEqual({
      forwardingEmail: 'me@elsewhere.test',
      verificationStatus: 'pending',
    })
    expect(
      (await h.call('POST', `${S}/forwardingAddresses`, { token, json: { forwardingEmail: 'me@elsewhere.test' } }))
        .status,
    ).toBe(409)
    expect((await h.call('DELETE', `${S}/forwardingAddresses/me@elsewhere.test`, { token })).status).toBe(204)
    expect((await h.call('GET', `${S}/forwardingAddresses/me@elsewhere.test`)).status).toBe(404)
  })

  test('a subdomain of the account is accepted at once, another domain gets a confirmation mail', async () => {
    const h = harness(gmailSeed)
    const token = delegatedToken(h, 'ann')
    const sub = await h.call('POST', `${S}/forwardingAddresses`, {
      token,
      json: { forwardingEmail: 'archive@eu.example.com' },
    })
    expect(sub.body.verificationStatus).toBe('accepted')
    // A world user of another domain: the confirmation mail reaches their inbox.
    const h2 = harness({
      ...gmailSeed,
      users: [...gmailSeed.users, { id: 'out', email: 'out@partner.test', name: 'O' }],
    })
    const t2 = delegatedToken(h2, 'ann')
    const ext = await h2.call('POST', `${S}/forwardingAddresses`, {
      token: t2,
      json: { forwardingEmail: 'out@partner.test' },
    })
    expect(ext.body.verificationStatus).toBe('pending')
    const inbox = await h2.call('GET', '/gmail/v1/users/me/messages?q=from:forwarding-noreply@google.com', {
      token: h2.google('out'),
    })
    expect(inbox.body.resultSizeEstimate).toBe(1)
  })
})

describe('gmail.users.settings.sendAs.list', () => {
  test('starts with the primary address; gmail.users.settings.sendAs.create adds an alias usable as From (gmail.users.settings.sendAs.get, gmail.users.settings.sendAs.delete)', async () => {
    const h = harness(gmailSeed)
    const token = delegatedToken(h, 'ann')
    expect((await h.call('GET', `${S}/sendAs`)).body.sendAs).toEqual([
      {
        sendAsEmail: 'ann@example.com',
        displayName: 'Ann Lee',
        replyToAddress: '',
        signature: '',
        isPrimary: true,
        isDefault: true,
      },
    ])
    const created = await h.call('POST', `${S}/sendAs`, {
      token,
      json: { sendAsEmail: 'sales@example.com', displayName: 'Sales' },
    })
    expect(created.body.verificationStatus).toBe('accepted')
    expect((await h.call('GET', `${S}/sendAs/sales@example.com`)).body.displayName).toBe('Sales')
    const sent = await h.call('POST', '/gmail/v1/users/me/messages/send', {
      json: { raw: rfc822({ From: 'Sales <sales@example.com>', To: 'ben@example.com', Subject: 'alias' }, 'x') },
    })
    const raw = (await h.call('GET', `/gmail/v1/users/me/messages/${sent.body.id}?format=raw`)).body.raw
    expect(Buffer.from(raw, 'base64url').toString()).toMatch(/^From: Sales <sales@example.com>/m)
    expect((await h.call('DELETE', `${S}/sendAs/ann@example.com`, { token })).status).toBe(400)
    expect((await h.call('DELETE', `${S}/sendAs/sales@example.com`, { token })).status).toBe(204)
  })

  test('an alias outside the domain starts pending and is not used as From', async () => {
    const h = harness(gmailSeed)
    const token = delegatedToken(h, 'ann')
    const created = await h.call('POST', `${S}/sendAs`, { token, json: { sendAsEmail: 'ceo@rival.test' } })
    expect(created.body.verificationStatus).toBe('pending')
    const sent = await h.call('POST', '/gmail/v1/users/me/messages/send', {
      json: { raw: rfc822({ From: 'ceo@rival.test', To: 'ben@example.com', Subject: 'pending alias' }, 'x') },
    })
    const raw = (await h.call('GET', `/gmail/v1/users/me/messages/${sent.body.id}?format=raw`)).body.raw
    expect(Buffer.from(raw, 'base64url').toString()).toMatch(/^From: Ann Lee <ann@example.com>/m)
    // verify sends the mail again and leaves it pending; an accepted alias cannot be verified.
    expect((await h.call('POST', `${S}/sendAs/ceo@rival.test/verify`, { token })).status).toBe(204)
    expect((await h.call('GET', `${S}/sendAs/ceo@rival.test`)).body.verificationStatus).toBe('pending')
  })
})

describe('gmail.users.settings.delegates.create', () => {
  test('accepts delegates in the same domain only (gmail.users.settings.delegates.list, gmail.users.settings.delegates.get, gmail.users.settings.delegates.delete)', async () => {
    const h = harness(gmailSeed)
    const token = delegatedToken(h, 'ann')
    expect((await h.call('POST', `${S}/delegates`, { token, json: { delegateEmail: 'ben@example.com' } })).status).toBe(
      200,
    )
    expect((await h.call('POST', `${S}/delegates`, { token, json: { delegateEmail: 'x@other.test' } })).status).toBe(
      400,
    )
    expect((await h.call('GET', `${S}/delegates`, { token })).body.delegates).toHaveLength(1)
    expect((await h.call('GET', `${S}/delegates/ben@example.com`, { token })).body.verificationStatus).toBe('accepted')
    expect((await h.call('DELETE', `${S}/delegates/ben@example.com`, { token })).status).toBe(204)
  })
})

describe('gmail.users.settings.sendAs.create', () => {
  test("a user's own token is refused what only delegated service accounts may do", async () => {
    const h = harness(gmailSeed)
    const admin = delegatedToken(h, 'ann')
    await h.call('POST', `${S}/sendAs`, { token: admin, json: { sendAsEmail: 'sales@example.com' } })
    await h.call('POST', `${S}/forwardingAddresses`, { token: admin, json: { forwardingEmail: 'ben@example.com' } })
    await h.call('POST', `${S}/delegates`, { token: admin, json: { delegateEmail: 'ben@example.com' } })
    const calls: [string, string, unknown?][] = [
      ['POST', `${S}/sendAs`, { sendAsEmail: 'ben@example.com' }],
      ['PATCH', `${S}/sendAs/sales@example.com`, { signature: 'x' }],
      ['PUT', `${S}/sendAs/sales@example.com`, { displayName: 'x' }],
      ['POST', `${S}/sendAs/sales@example.com/verify`],
      ['DELETE', `${S}/sendAs/sales@example.com`],
      ['POST', `${S}/forwardingAddresses`, { forwardingEmail: 'leak@outside.test' }],
      ['DELETE', `${S}/forwardingAddresses/ben@example.com`],
      ['PUT', `${S}/autoForwarding`, { enabled: true, emailAddress: 'ben@example.com' }],
      ['PUT', `${S}/autoForwarding`, { enabled: false }],
      ['POST', `${S}/delegates`, { delegateEmail: 'cy@example.com' }],
      ['GET', `${S}/delegates`],
      ['GET', `${S}/delegates/ben@example.com`],
      ['DELETE', `${S}/delegates/ben@example.com`],
    ]
    const before = JSON.stringify((await h.call('GET', `${S}/sendAs`)).body)
    for (const [method, path, json] of calls) {
      const res = await h.call(method, path, json === undefined ? {} : { json })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.error).toEqual({
        code: 403,
        message: 'Access restricted to service accounts that have been delegated domain-wide authority',
        errors: [
          {
            message: 'Access restricted to service accounts that have been delegated domain-wide authority',
            domain: 'global',
            reason: 'forbidden',
          },
        ],
        status: 'PERMISSION_DENIED',
      })
    }
    expect(JSON.stringify((await h.call('GET', `${S}/sendAs`)).body)).toBe(before)
    // The primary address stays the user's own to edit; reads stay open.
    expect((await h.call('PATCH', `${S}/sendAs/ann@example.com`, { json: { signature: 'Ann' } })).status).toBe(200)
    expect((await h.call('GET', `${S}/forwardingAddresses`)).status).toBe(200)
    expect((await h.call('GET', `${S}/autoForwarding`)).status).toBe(200)
  })
})

describe('gmail.users.settings.getImap', () => {
  test('round-trips imap, pop and language settings (gmail.users.settings.updateImap, gmail.users.settings.getPop, gmail.users.settings.updatePop, gmail.users.settings.getLanguage, gmail.users.settings.updateLanguage)', async () => {
    const h = harness(gmailSeed)
    expect((await h.call('GET', `${S}/imap`)).body).toEqual({
      enabled: false,
      autoExpunge: true,
      expungeBehavior: 'archive',
      maxFolderSize: 0,
    })
    expect((await h.call('PUT', `${S}/imap`, { json: { enabled: true } })).body.enabled).toBe(true)
    expect((await h.call('GET', `${S}/pop`)).body).toEqual({ accessWindow: 'disabled', disposition: 'leaveInInbox' })
    expect((await h.call('PUT', `${S}/pop`, { json: { accessWindow: 'allMail' } })).body.accessWindow).toBe('allMail')
    expect((await h.call('PUT', `${S}/pop`, { json: { accessWindow: 'sometimes' } })).status).toBe(400)
    expect((await h.call('GET', `${S}/language`)).body).toEqual({ displayLanguage: 'en' })
    expect((await h.call('PUT', `${S}/language`, { json: { displayLanguage: 'de' } })).body.displayLanguage).toBe('de')
  })
})

describe('gmail.users.settings.sendAs.patch', () => {
  test('edits an alias and moves the default; gmail.users.settings.sendAs.update replaces; gmail.users.settings.sendAs.verify wants a pending alias', async () => {
    const h = harness(gmailSeed)
    const token = delegatedToken(h, 'ann')
    await h.call('POST', `${S}/sendAs`, { token, json: { sendAsEmail: 'sales@example.com', displayName: 'Sales' } })
    const patched = await h.call('PATCH', `${S}/sendAs/sales@example.com`, {
      token,
      json: { signature: 'Cheers', isDefault: true },
    })
    expect(patched.body).toMatchObject({
      sendAsEmail: 'sales@example.com',
      displayName: 'Sales',
      signature: 'Cheers',
      isDefault: true,
    })
    expect((await h.call('GET', `${S}/sendAs/ann@example.com`)).body.isDefault).toBe(false)
    const put = await h.call('PUT', `${S}/sendAs/sales@example.com`, { token, json: { displayName: 'Sales Team' } })
    expect(put.body).toMatchObject({ displayName: 'Sales Team', signature: '', isDefault: false })
    expect((await h.call('POST', `${S}/sendAs/sales@example.com/verify`, { token })).status).toBe(400)
    expect((await h.call('POST', `${S}/sendAs/ann@example.com/verify`, { token })).status).toBe(400)
    expect((await h.call('PATCH', `${S}/sendAs/nobody@example.com`, { token, json: {} })).status).toBe(404)
  })
})

describe('gmail.users.settings.sendAs.smimeInfo.insert', () => {
  test('stores S/MIME configs per alias (gmail.users.settings.sendAs.smimeInfo.list, gmail.users.settings.sendAs.smimeInfo.get, gmail.users.settings.sendAs.smimeInfo.setDefault, gmail.users.settings.sendAs.smimeInfo.delete)', async () => {
    const h = harness(gmailSeed)
    const base = `${S}/sendAs/ann@example.com/smimeInfo`
    expect((await h.call('POST', base, { json: {} })).status).toBe(400)
    const info = (
      await h.call('POST', base, { json: { pem: '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----' } })
    ).body
    expect(info).toMatchObject({ id: expect.any(String), isDefault: false })
    expect((await h.call('GET', base)).body.smimeInfo).toHaveLength(1)
    expect((await h.call('POST', `${base}/${info.id}/setDefault`)).status).toBe(204)
    expect((await h.call('GET', `${base}/${info.id}`)).body.isDefault).toBe(true)
    expect((await h.call('DELETE', `${base}/${info.id}`)).status).toBe(204)
    expect((await h.call('GET', `${base}/${info.id}`)).status).toBe(404)
  })
})
