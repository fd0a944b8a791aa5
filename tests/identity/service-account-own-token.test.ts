import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { calendar } from '../../envs/calendar/index.ts'
import { serviceAccountSeed } from '../support/service-account-seed.ts'
import { ownToken } from '../support/own-token.ts'

// A service account's own token (the JWT-bearer grant without `sub`) on Calendar and Docs: the account has its own
// primary calendar and reaches calendars and documents shared with it (decision 0399; Drive: 0394).

const SA = 'report-bot@acme-ops.iam.gserviceaccount.com'
const SCOPES = [
  'https://www.googleapis.com/auth/calendar',
  'https://www.googleapis.com/auth/documents',
  'https://www.googleapis.com/auth/drive',
]
const seed = serviceAccountSeed('sa-calendar-docs', [{ email: SA, displayName: 'Report bot' }])

/** The world, Ann's token and the account's own token, minted with a key file Ann creates. */
async function setUp(): Promise<{ h: Harness; ann: string; sa: string }> {
  const h = harness(seed)
  const ann = h.google('ann')
  return { h, ann, sa: await ownToken(h, ann, SA, SCOPES) }
}

const CAL = '/calendar/v3'
const event = (summary: string, extra: object = {}) => ({
  summary,
  start: { dateTime: '2026-03-05T10:00:00Z' },
  end: { dateTime: '2026-03-05T11:00:00Z' },
  ...extra,
})
const NO_INVITES = {
  code: 403,
  message: 'Service accounts cannot invite attendees without Domain-Wide Delegation of Authority.',
  errors: [{ domain: 'calendar', reason: 'forbiddenForServiceAccounts' }],
}

describe("calendar.calendarList.list with a service account's own token", () => {
  test('the account has its own primary calendar, alone in its list, made once', async () => {
    const { h, sa } = await setUp()
    const list = await h.call('GET', `${CAL}/users/me/calendarList`, { token: sa })
    expect(list.status).toBe(200)
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: SA, summary: SA, primary: true, accessRole: 'owner', timeZone: 'UTC' }),
    ])
    const primary = await h.call('GET', `${CAL}/calendars/primary`, { token: sa })
    expect(primary.body).toMatchObject({ id: SA, summary: SA, timeZone: 'UTC' })
    // Its calendar is shared with nobody: no domain rule as a Workspace user's primary has.
    const acl = await h.call('GET', `${CAL}/calendars/primary/acl`, { token: sa })
    expect(acl.body.items.map((r: { id: string }) => r.id)).toEqual([`user:${SA}`])
    expect((await h.call('GET', `${CAL}/users/me/calendarList`, { token: sa })).body.items).toHaveLength(1)
    // The state dump shows it, its owner the account's user id (it is no world user).
    const dumped = calendar.dump(h.entry.world).entities
    expect(dumped.calendars?.[SA]).toMatchObject({ owner: `serviceAccount:${SA}`, primary: true })
    // Gmail still refuses the token.
    const gmail = await h.call('GET', '/gmail/v1/users/me/profile', { token: sa })
    expect(gmail).toMatchObject({ status: 400, body: { error: { status: 'FAILED_PRECONDITION' } } })
  })
})

describe("calendar.events.insert with a service account's own token", () => {
  test('writes events on its own calendar; inviting a guest is refused 403 forbiddenForServiceAccounts', async () => {
    const { h, sa } = await setUp()
    const made = await h.call('POST', `${CAL}/calendars/primary/events`, { token: sa, json: event('Report run') })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ organizer: { email: SA, self: true }, creator: { email: SA } })
    const listed = await h.call('GET', `${CAL}/calendars/primary/events`, { token: sa })
    expect(listed.body.items.map((e: { summary: string }) => e.summary)).toEqual(['Report run'])
    const invite = event('Sync', { attendees: [{ email: 'ben@example.com' }] })
    const refused = await h.call('POST', `${CAL}/calendars/primary/events`, { token: sa, json: invite })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatchObject(NO_INVITES)
    // Naming only itself invites nobody.
    const self = event('Solo', { attendees: [{ email: SA }] })
    expect((await h.call('POST', `${CAL}/calendars/primary/events`, { token: sa, json: self })).status).toBe(200)
    const quick = await h.call('POST', `${CAL}/calendars/primary/events/quickAdd?text=Lunch%20with%20ben@example.com`, {
      token: sa,
    })
    expect(quick.status).toBe(403)
  })

  test('reaches a calendar shared with it, which joins its list only by calendarList.insert', async () => {
    const { h, ann, sa } = await setUp()
    const cal = (await h.call('POST', `${CAL}/calendars`, { token: ann, json: { summary: 'Ops' } })).body.id as string
    const rule = { role: 'writer', scope: { type: 'user', value: SA } }
    expect((await h.call('POST', `${CAL}/calendars/${cal}/acl`, { token: ann, json: rule })).status).toBe(200)
    // Ann's primary calendar is not shared with it (the domain's free/busy rule does not reach it either).
    expect((await h.call('GET', `${CAL}/calendars/ann@example.com/events`, { token: sa })).status).toBe(404)
    const before = await h.call('GET', `${CAL}/users/me/calendarList`, { token: sa })
    expect(before.body.items.map((e: { id: string }) => e.id)).toEqual([SA])
    expect((await h.call('GET', `${CAL}/calendars/${cal}`, { token: sa })).body.summary).toBe('Ops')
    const added = await h.call('POST', `${CAL}/users/me/calendarList`, { token: sa, json: { id: cal } })
    expect(added.body).toMatchObject({ id: cal, accessRole: 'writer' })
    const after = await h.call('GET', `${CAL}/users/me/calendarList`, { token: sa })
    expect(after.body.items.map((e: { id: string }) => e.id).sort()).toEqual([SA, cal].sort())
    // Ann's event with Ben as a guest: the account may edit it, not invite anyone more.
    const guests = { attendees: [{ email: 'ben@example.com' }] }
    const ev = await h.call('POST', `${CAL}/calendars/${cal}/events`, { token: ann, json: event('Standup', guests) })
    const path = `${CAL}/calendars/${cal}/events/${ev.body.id}`
    const renamed = await h.call('PATCH', path, { token: sa, json: { summary: 'Standup (moved)' } })
    expect(renamed.status).toBe(200)
    expect((await h.call('GET', path, { token: ann })).body.summary).toBe('Standup (moved)')
    const more = { attendees: [{ email: 'ben@example.com' }, { email: 'ann@example.com' }] }
    const refused = await h.call('PATCH', path, { token: sa, json: more })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatchObject(NO_INVITES)
  })

  test("Calendar's batch endpoint serves the account", async () => {
    const { h, sa } = await setUp()
    const part = `--b\r\nContent-Type: application/http\r\n\r\nGET ${CAL}/users/me/calendarList\r\n\r\n`
    const res = await h.app.request('/batch/calendar/v3', {
      method: 'POST',
      headers: { authorization: `Bearer ${sa}`, 'content-type': 'multipart/mixed; boundary=b' },
      body: `${part}--b--\r\n`,
    })
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(text).toContain('HTTP/1.1 200')
    expect(text).toContain(SA)
  })
})

describe("docs.documents with a service account's own token", () => {
  test('documents.create is refused: the account has no storage quota for a file in its My Drive', async () => {
    const { h, sa } = await setUp()
    const res = await h.call('POST', '/v1/documents', { token: sa, json: { title: 'Weekly report' } })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      error: {
        code: 403,
        status: 'PERMISSION_DENIED',
        message: expect.stringMatching(/^Service Accounts do not have storage quota\. Leverage shared drives/),
      },
    })
    const listed = await h.call('GET', '/drive/v3/files?q=name%3D%27Weekly%20report%27', { token: sa })
    expect(listed.body.files).toEqual([])
  })

  test('documents.get and batchUpdate on a document shared with the account follow its role', async () => {
    const { h, ann, sa } = await setUp()
    const doc = (await h.call('POST', '/v1/documents', { token: ann, json: { title: 'Plan' } })).body.documentId
    expect((await h.call('GET', `/v1/documents/${doc}`, { token: sa })).status).toBe(403)
    const share = (role: string) =>
      h.call('POST', `/drive/v3/files/${doc}/permissions?sendNotificationEmail=false`, {
        token: ann,
        json: { type: 'user', role, emailAddress: SA },
      })
    const perm = await share('reader')
    expect(perm.status).toBe(200)
    const got = await h.call('GET', `/v1/documents/${doc}`, { token: sa })
    expect(got).toMatchObject({ status: 200, body: { documentId: doc, title: 'Plan' } })
    const edit = { requests: [{ insertText: { location: { index: 1 }, text: 'From the bot. ' } }] }
    const asReader = await h.call('POST', `/v1/documents/${doc}:batchUpdate`, { token: sa, json: edit })
    expect(asReader.status).toBe(403)
    const patch = { role: 'writer' }
    const up = await h.call('PATCH', `/drive/v3/files/${doc}/permissions/${perm.body.id}`, { token: ann, json: patch })
    expect(up.status).toBe(200)
    expect((await h.call('POST', `/v1/documents/${doc}:batchUpdate`, { token: sa, json: edit })).status).toBe(200)
    const text = await h.call('GET', `/drive/v3/files/${doc}/export?mimeType=text/plain`, { token: ann })
    expect(text.text).toContain('From the bot.')
  })
})
