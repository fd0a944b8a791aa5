import { afterAll, beforeAll, expect, test } from 'vitest'
import { startServer, type Running } from '../../server/main.ts'

// Decision 0391: long lists in one agent request. An event with thousands of guests must cost time linear in the
// guest list: expanding the guests (group addresses, duplicates by case) compared every guest with every earlier
// one, so 2,000 guests took about 4 million lower-casings. Work is counted (calls to String#toLowerCase while the
// request runs), never timed. A Drive create body with a huge `parents` list is refused before it is validated.
let server: Running
let token = ''
let bobToken = ''
beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    adminToken: 'guest-list-test',
    worlds: [{ id: 'guests', seed: 'demo', seedValue: 1 }],
  })
  const users = server.worlds.credentials('guests')
  token = users[0]!.googleToken!
  bobToken = users.find((u) => u.email === 'bob@northwind.test')!.googleToken!
}, 120_000)
afterAll(() => server?.close())

const call = (path: string, auth: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${server.agentUrl}/calendar/v3/calendars/primary${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })

test('events.insert with 2,000 guests lower-cases each guest a bounded number of times', async () => {
  const n = 2000
  const attendees = Array.from({ length: n }, (_, i) => ({ email: `guest${i}@outside.test` }))
  attendees[n - 1] = { email: 'Bob@Northwind.test' }
  const body = {
    summary: 'all hands',
    start: { dateTime: '2026-03-02T10:00:00Z' },
    end: { dateTime: '2026-03-02T11:00:00Z' },
    attendees,
  }
  const lower = String.prototype.toLowerCase
  let calls = 0
  String.prototype.toLowerCase = function (this: string) {
    calls++
    return lower.call(this)
  }
  let res: Response
  let event: { id: string; attendees: { email: string }[] }
  try {
    res = await call('/events', token, { method: 'POST', body })
    event = (await res.json()) as typeof event
  } finally {
    String.prototype.toLowerCase = lower
  }
  expect(res.status).toBe(200)
  expect(event.attendees).toHaveLength(n)
  // Linear work is a few calls per guest; the quadratic scan made about n * n of them.
  expect(calls).toBeLessThan(50 * n)
  // The one world user among the guests still gets the event on their calendar.
  const copy = await call(`/events/${event.id}`, bobToken)
  expect(copy.status).toBe(200)
  expect(((await copy.json()) as { summary: string }).summary).toBe('all hands')
}, 60_000)

const create = async (parents: string[], folder?: boolean) => {
  const res = await fetch(`${server.agentUrl}/drive/v3/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'n', parents, ...(folder ? { mimeType: 'application/vnd.google-apps.folder' } : {}) }),
  })
  return { status: res.status, body: (await res.json()) as { id?: string; error?: unknown } }
}

test('files.create with 100,000 parents gets the answer to a second parent, not a file', async () => {
  // Every entry is an alias of My Drive, so checking them one by one used to end in a new file.
  const many = await create(Array.from({ length: 100_000 }, () => 'root'))
  const a = (await create([], true)).body.id!
  const b = (await create([], true)).body.id!
  const two = await create([a, b])
  expect(two.status).toBe(403)
  expect(many).toEqual(two)
  // Short lists are checked as before: aliases of My Drive are dropped, then each parent is looked up.
  expect((await create(Array.from({ length: 100 }, () => 'root'))).status).toBe(200)
  expect((await create(['root', 'missing', a])).status).toBe(404)
}, 60_000)
