import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { calendar } from '../../envs/calendar/index.ts'
import { buildWorld } from '../../server/seeding.ts'
import { serviceAccountSeed } from '../support/service-account-seed.ts'
import { ownToken } from '../support/own-token.ts'

// A service account's primary calendar is made with the account (seeding), so its Calendar reads never write the
// world (docs/decisions/0410; before, its first Calendar request made the calendar, even a GET).

const SA = 'report-bot@acme-ops.iam.gserviceaccount.com'
const OFF = 'paused-bot@acme-ops.iam.gserviceaccount.com'
const seed = serviceAccountSeed('sa-calendar-reads', [
  { email: SA, displayName: 'Report bot' },
  { email: OFF, displayName: 'Paused bot' },
])
const CAL = '/calendar/v3'
const SCOPES = ['https://www.googleapis.com/auth/calendar']

/**
 * Every row of every table, by table, but for what any agent call writes: its action-log row and the clock's tick.
 * Equal before and after a call: the call changed nothing of the world.
 */
function worldRows(h: Harness): Record<string, string> {
  const raw = h.entry.world.raw
  const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()
  const out: Record<string, string> = {}
  for (const t of tables as string[]) {
    if (t === 'world_action_log') continue
    const rows = raw.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][]
    const kept = t === 'world_meta' ? rows.filter((r) => !String(r[0]).startsWith('clock')) : rows
    out[t] = kept
      .map((r) => JSON.stringify(r))
      .sort()
      .join('\n')
  }
  return out
}

const lastAction = (h: Harness) =>
  h.entry.world.raw.prepare('SELECT method, path, status, wrote FROM world_action_log ORDER BY rowid DESC').get()

describe('identity seeding of service accounts', () => {
  test("makes each account's primary calendar with the account, before any request", () => {
    const h = harness(seed)
    const cals = calendar.dump(h.entry.world).entities.calendars ?? {}
    for (const id of [SA, OFF]) {
      expect(cals[id]).toMatchObject({ owner: `serviceAccount:${id}`, primary: true, summary: id, timeZone: 'UTC' })
    }
  })

  test('the same seed gives byte-identical worlds', () => {
    // Two independent builds (a harness clones one template per seed).
    const [a, b] = [buildWorld(seed, 7), buildWorld(seed, 7)]
    expect(a.snapshot().bytes.equals(b.snapshot().bytes)).toBe(true)
    a.close()
    b.close()
  })
})

describe("calendar reads with a service account's own token", () => {
  test('its first Calendar call, a freeBusy.query POST, is no write', async () => {
    const h = harness(seed)
    const sa = await ownToken(h, h.google('ann'), SA, SCOPES)
    const before = worldRows(h)
    const body = { timeMin: '2026-03-02T00:00:00Z', timeMax: '2026-03-03T00:00:00Z', items: [{ id: SA }] }
    const res = await h.call('POST', `${CAL}/freeBusy`, { token: sa, json: body })
    expect(res.status).toBe(200)
    expect(res.body.calendars[SA]).toEqual({ busy: [] })
    expect(lastAction(h)).toEqual({ method: 'POST', path: `${CAL}/freeBusy`, status: 200, wrote: 0 })
    expect(worldRows(h)).toEqual(before)
  })

  test('calendarList.list, calendars.get, acl.list and events.list leave every row of the world alone', async () => {
    const h = harness(seed)
    const sa = await ownToken(h, h.google('ann'), SA, SCOPES)
    const before = worldRows(h)
    const list = await h.call('GET', `${CAL}/users/me/calendarList`, { token: sa })
    expect(list.body.items).toEqual([expect.objectContaining({ id: SA, primary: true, accessRole: 'owner' })])
    expect((await h.call('GET', `${CAL}/calendars/primary`, { token: sa })).body).toMatchObject({ id: SA })
    const acl = await h.call('GET', `${CAL}/calendars/primary/acl`, { token: sa })
    expect(acl.body.items.map((r: { id: string }) => r.id)).toEqual([`user:${SA}`])
    expect((await h.call('GET', `${CAL}/calendars/primary/events`, { token: sa })).body.items).toEqual([])
    expect(lastAction(h)).toMatchObject({ method: 'GET', status: 200, wrote: 0 })
    expect(worldRows(h)).toEqual(before)
  })
})
