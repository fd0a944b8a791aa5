import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { google } from 'googleapis'
import { harness } from '../../envs/core/testing/harness.ts'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'

// Google's refusals of a bad query value, in Google's words (docs/decisions/0378): never zod's.
const ZOD_WORDS = /expected|too big|too small|invalid input|invalid option|received|must be between|nan\b/i

/** [service, method path, parameter, bad value] — a sweep over many parameters of each Google service. */
const BAD: [string, string, string, string][] = [
  ['drive', '/drive/v3/files', 'pageSize', '1001'],
  ['drive', '/drive/v3/files', 'pageSize', '0'],
  ['drive', '/drive/v3/files', 'pageSize', 'NOPE'],
  ['drive', '/drive/v3/files', 'pageSize', '1.5'],
  ['drive', '/drive/v3/files', 'supportsAllDrives', 'maybe'],
  ['drive', '/drive/v3/files', 'includeItemsFromAllDrives', 'x'],
  ['drive', '/drive/v3/changes?pageToken=1', 'pageSize', '5000'],
  ['drive', '/drive/v3/drives', 'pageSize', '101'],
  ['drive', '/drive/v3/files/generateIds', 'count', '-3'],
  ['gmail', '/gmail/v1/users/me/messages', 'maxResults', 'ten'],
  ['gmail', '/gmail/v1/users/me/messages', 'maxResults', '-1'],
  ['gmail', '/gmail/v1/users/me/messages', 'includeSpamTrash', 'perhaps'],
  ['gmail', '/gmail/v1/users/me/threads', 'maxResults', '2.5'],
  ['gmail', '/gmail/v1/users/me/drafts', 'includeSpamTrash', 'yes please'],
  ['calendar', '/calendar/v3/calendars/primary/events', 'maxResults', '0'],
  ['calendar', '/calendar/v3/calendars/primary/events', 'maxResults', 'lots'],
  ['calendar', '/calendar/v3/calendars/primary/events', 'singleEvents', 'sometimes'],
  ['calendar', '/calendar/v3/calendars/primary/events', 'orderBy', 'random'],
  ['calendar', '/calendar/v3/calendars/primary/events', 'maxAttendees', '0'],
  ['calendar', '/calendar/v3/users/me/calendarList', 'maxResults', '-5'],
  ['calendar', '/calendar/v3/users/me/calendarList', 'showHidden', '2'],
  ['calendar', '/calendar/v3/calendars/primary/acl', 'maxResults', 'abc'],
]

type Envelope = {
  error: {
    code: number
    message: string
    status?: string
    errors?: { message: string; domain: string; reason: string; location?: string; locationType?: string }[]
  }
}

/** The shape every Google service's refusal has: no zod wording, `errors[]` with the same message. */
function expectGoogleShape(body: Envelope, status = 400) {
  const { error } = body
  expect(error.code).toBe(status)
  expect(error.message).not.toMatch(ZOD_WORDS)
  expect(error.errors).toHaveLength(1)
  const [item] = error.errors!
  expect(item!.message).toBe(error.message)
  expect(item!.domain).toBe('global')
  expect(typeof item!.reason).toBe('string')
  for (const key of Object.keys(item!)) {
    expect(['message', 'domain', 'reason', 'location', 'locationType']).toContain(key)
  }
}

describe('query parameter refusals over HTTP', () => {
  const h = harness('demo')
  const token = h.google()

  it.each(BAD)('%s %s?%s=%s is a 400 in Google words', async (_svc, path, name, value) => {
    const sep = path.includes('?') ? '&' : '?'
    const res = await h.call('GET', `${path}${sep}${name}=${encodeURIComponent(value)}`, { token })
    expect(res.status).toBe(400)
    expectGoogleShape(res.body as Envelope)
    const item = (res.body as Envelope).error.errors![0]!
    expect(item.location).toBe(name)
    expect(item.locationType).toBe('parameter')
  })

  it('words an out-of-range Drive pageSize as the front end does', async () => {
    const res = await h.call('GET', '/drive/v3/files?pageSize=1001', { token })
    expect(res.body).toEqual({
      error: {
        code: 400,
        message: "Invalid value '1001'. Values must be within the range: [1, 1000]",
        errors: [
          {
            message: "Invalid value '1001'. Values must be within the range: [1, 1000]",
            domain: 'global',
            reason: 'invalidParameter',
            location: 'pageSize',
            locationType: 'parameter',
          },
        ],
      },
    })
    const drives = await h.call('GET', '/drive/v3/drives?pageSize=0', { token })
    expect(drives.body.error.message).toBe("Invalid value '0'. Values must be within the range: [1, 100]")
  })

  it("words a value the proto layer cannot read with the field's type", async () => {
    const drive = await h.call('GET', '/drive/v3/files?pageSize=NOPE', { token })
    expect(drive.body.error.message).toBe(`Invalid value at 'page_size' (TYPE_INT32), "NOPE"`)
    expect(drive.body.error.errors[0].reason).toBe('invalid')
    // The proto layer names the field in a google.rpc.BadRequest detail too.
    expect(drive.body.error.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'page_size', description: drive.body.error.message }],
      },
    ])
    const empty = await h.call('GET', '/drive/v3/files?pageSize=', { token })
    expect(empty.body.error.message).toBe(`Invalid value at 'page_size' (TYPE_INT32), ""`)
    const range = await h.call('GET', '/drive/v3/files?pageSize=0', { token })
    expect(range.body.error.details).toBeUndefined()
    const flag = await h.call('GET', '/drive/v3/files?supportsAllDrives=maybe', { token })
    expect(flag.body.error.message).toBe(`Invalid value at 'supports_all_drives' (TYPE_BOOL), "maybe"`)
    const gmail = await h.call('GET', '/gmail/v1/users/me/messages?maxResults=ten', { token })
    expect(gmail.body.error).toMatchObject({
      message: `Invalid value at 'max_results' (TYPE_UINT32), "ten"`,
      status: 'INVALID_ARGUMENT',
    })
  })

  it('serves Calendar page sizes past the documented largest instead of refusing them', async () => {
    const big = await h.call('GET', '/calendar/v3/calendars/primary/events?maxResults=10000', { token })
    expect(big.status).toBe(200)
    const list = await h.call('GET', '/calendar/v3/users/me/calendarList?maxResults=1000', { token })
    expect(list.status).toBe(200)
    const zero = await h.call('GET', '/calendar/v3/calendars/primary/events?maxResults=0', { token })
    expect(zero.body.error.message).toBe("Invalid value '0'. Values must be within the range: [1, 2147483647]")
    const conf = await h.call('POST', '/calendar/v3/calendars/primary/events?conferenceDataVersion=2', {
      token,
      json: { summary: 'x', start: { date: '2026-01-05' }, end: { date: '2026-01-06' } },
    })
    expect(conf.body.error.message).toBe("Invalid value '2'. Values must be within the range: [0, 1]")
    const word = await h.call('GET', '/calendar/v3/calendars/primary/events?singleEvents=sometimes', { token })
    expect(word.body.error).toEqual({
      code: 400,
      message: 'Invalid Value',
      errors: [
        {
          message: 'Invalid Value',
          domain: 'global',
          reason: 'invalid',
          location: 'singleEvents',
          locationType: 'parameter',
        },
      ],
    })
  })

  it('words a body that is not a JSON object as the proto layer does', async () => {
    const res = await h.call('POST', '/gmail/v1/users/me/labels', { token, json: ['not', 'an', 'object'] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      'Invalid JSON payload received. Unknown name "": Root element must be a message.',
    )
  })
})

describe('query parameter refusals through googleapis', () => {
  let server: SdkServer
  beforeAll(async () => {
    server = await startSdkServer('demo')
  })
  afterAll(async () => server.close())

  it('hands the client Google words for bad values on every service', async () => {
    const auth = server.auth()
    const opts = { auth, rootUrl: server.url }
    const drive = google.drive({ version: 'v3', ...opts })
    const gmail = google.gmail({ version: 'v1', ...opts })
    const calendar = google.calendar({ version: 'v3', ...opts })
    const docs = google.docs({ version: 'v1', ...opts })
    const calls: (() => Promise<unknown>)[] = [
      () => drive.files.list({ pageSize: 1001 }, { retry: false }),
      () => drive.changes.list({ pageToken: '1', pageSize: 0 }, { retry: false }),
      () => drive.files.generateIds({ count: 5000 }, { retry: false }),
      () => gmail.users.messages.list({ userId: 'me', maxResults: -2 }, { retry: false }),
      () => gmail.users.messages.get({ userId: 'me', id: 'x', format: 'everything' }, { retry: false }),
      () => calendar.events.list({ calendarId: 'primary', maxResults: 0 }, { retry: false }),
      () => calendar.events.list({ calendarId: 'primary', orderBy: 'random' }, { retry: false }),
      () => calendar.calendarList.list({ maxResults: -1 }, { retry: false }),
      () => docs.documents.get({ documentId: 'x', suggestionsViewMode: 'ALL' }, { retry: false }),
    ]
    for (const call of calls) {
      const err = (await call().then(
        () => undefined,
        (e: unknown) => e,
      )) as { status?: number; message?: string; errors?: unknown[] } | undefined
      expect(err?.status).toBe(400)
      expect(err?.message).not.toMatch(ZOD_WORDS)
      expect(err?.message).toMatch(/^Invalid value|^Invalid Value/)
    }
  })
})
