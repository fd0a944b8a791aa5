import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google } from 'googleapis'
import { createControlApp } from '../../server/control/app.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { serviceAccountSeed } from '../support/service-account-seed.ts'

// google-auth-library's JWT client without `subject`: the service account's own token, on Calendar and Docs
// (decision 0399), as a script holding a key file uses it.

const SA = 'report-bot@acme-ops.iam.gserviceaccount.com'
const SCOPES = ['https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/documents']
const seed = serviceAccountSeed('sdk-sa-own-token', [{ email: SA, displayName: 'Report bot' }])

let server: SdkServer
let jwt: InstanceType<typeof google.auth.JWT>

beforeAll(async () => {
  server = await startSdkServer(seed)
  // The token endpoint judges iat/exp by the world clock; the client stamps them from the wall clock: the control
  // plane moves the world's clock to the host's (`set: now`) and stops its per-request tick.
  const control = createControlApp(server.worlds, { adminToken: 'admin' })
  const clock = await control.request('/worlds/sdk/clock', {
    method: 'POST',
    headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
    body: JSON.stringify({ set: 'now', tickMs: 0 }),
  })
  expect(clock.status).toBe(200)
  const iam = google.iam({ version: 'v1', rootUrl: server.url, auth: server.auth('ann') })
  const key = await iam.projects.serviceAccounts.keys.create({ name: `projects/-/serviceAccounts/${SA}` })
  const file = JSON.parse(Buffer.from(key.data.privateKeyData!, 'base64').toString()) as Record<string, string>
  jwt = new google.auth.JWT({ email: file.client_email, key: file.private_key, scopes: SCOPES })
  // Its token requests go to oauth2.googleapis.com whatever the key file says: sent to this server's world.
  jwt.transporter.interceptors.request.add({
    resolved: async (config) => {
      const url = new URL(String(config.url))
      if (url.host === 'oauth2.googleapis.com') config.url = new URL(`${server.url}token?world=sdk`)
      return config
    },
  })
})
afterAll(() => server.close())

describe('calendar.calendarList.list calendar.events.insert', () => {
  test('the account lists its primary calendar, writes an event there, and may not invite a guest', async () => {
    const calendar = google.calendar({ version: 'v3', rootUrl: server.url, auth: jwt })
    const list = await calendar.calendarList.list()
    expect(list.data.items?.map((e) => [e.id, e.primary, e.accessRole])).toEqual([[SA, true, 'owner']])
    const times = { start: { dateTime: '2026-03-05T10:00:00Z' }, end: { dateTime: '2026-03-05T11:00:00Z' } }
    const made = await calendar.events.insert({ calendarId: 'primary', requestBody: { summary: 'Run', ...times } })
    expect(made.data.organizer).toMatchObject({ email: SA, self: true })
    const err = await calendar.events
      .insert({ calendarId: 'primary', requestBody: { ...times, attendees: [{ email: 'ben@example.com' }] } })
      .catch((e) => e)
    expect(err.status).toBe(403)
    expect(err.response.data.error.errors[0]).toMatchObject({
      domain: 'calendar',
      reason: 'forbiddenForServiceAccounts',
    })
  })
})

describe('docs.documents.create docs.documents.get', () => {
  test('the account reads a document shared with it and cannot create one', async () => {
    const docs = google.docs({ version: 'v1', rootUrl: server.url, auth: jwt })
    const err = await docs.documents.create({ requestBody: { title: 'Mine' } }).catch((e) => e)
    expect(err.status).toBe(403)
    expect(err.message).toMatch(/^Service Accounts do not have storage quota/)
    const asAnn = google.docs({ version: 'v1', rootUrl: server.url, auth: server.auth('ann') })
    const doc = await asAnn.documents.create({ requestBody: { title: 'Plan' } })
    const drive = google.drive({ version: 'v3', rootUrl: server.url, auth: server.auth('ann') })
    await drive.permissions.create({
      fileId: doc.data.documentId!,
      sendNotificationEmail: false,
      requestBody: { type: 'user', role: 'reader', emailAddress: SA },
    })
    const got = await docs.documents.get({ documentId: doc.data.documentId! })
    expect(got.data).toMatchObject({ documentId: doc.data.documentId, title: 'Plan' })
  })
})
