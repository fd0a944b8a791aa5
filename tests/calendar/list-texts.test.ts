import { describe, expect, it } from 'vitest'
import { cal, timed } from './helpers.ts'
import { calSeed } from './fixtures.ts'

// Listings write unchanged events from texts kept per world connection (docs/decisions/0300): whatever changes
// between two listings must show in the second, and every form of the answer must be the rendering's bytes.
const LIST = '/calendars/primary/events?singleEvents=true&orderBy=startTime'
const WEEK = `${LIST}&timeMin=2026-03-02T00:00:00Z&timeMax=2026-03-09T00:00:00Z`

describe('calendar.events.list', () => {
  it('renders an event changed after it was listed with its change', async () => {
    const t = cal()
    const before = await t.ok('Events', 'GET', WEEK)
    const lunch = before.items.find((e: { summary: string }) => e.summary === 'Lunch with Cy')
    const json = { summary: 'Lunch moved', location: 'Deli' }
    await t.ok('Event', 'PATCH', `/calendars/primary/events/${lunch.id}`, { json })
    const after = await t.ok('Events', 'GET', WEEK)
    const listed = after.items.find((e: { id: string }) => e.id === lunch.id)
    expect(listed.summary).toBe('Lunch moved')
    expect(listed.location).toBe('Deli')
    expect(listed.etag).not.toBe(lunch.etag)
    expect(listed).toEqual(await t.ok('Event', 'GET', `/calendars/primary/events/${lunch.id}`))
  })

  it('renders an instance changed after its series was listed, and the other instances as before', async () => {
    const t = cal()
    const first = (await t.ok('Events', 'GET', `${WEEK.replace('03-09', '03-30')}`)).items
    const instances = first.filter((e: { recurringEventId?: string }) => e.recurringEventId)
    expect(instances.length).toBeGreaterThan(2)
    await t.ok('Event', 'PATCH', `/calendars/primary/events/${instances[1].id}`, { json: { summary: 'Sync (moved)' } })
    const again = (await t.ok('Events', 'GET', `${WEEK.replace('03-09', '03-30')}`)).items
    const byId = new Map(again.map((e: { id: string }) => [e.id, e]))
    expect((byId.get(instances[1].id) as { summary: string }).summary).toBe('Sync (moved)')
    expect(byId.get(instances[0].id)).toEqual(instances[0])
    expect(byId.get(instances[2].id)).toEqual(instances[2])
  })

  it('renders a deleted event as cancelled when listed again with showDeleted', async () => {
    const t = cal()
    const q = `${WEEK}&showDeleted=true`
    const lunch = (await t.ok('Events', 'GET', q)).items.find((e: { summary: string }) => e.summary === 'Lunch with Cy')
    expect((await t.call('DELETE', `/calendars/primary/events/${lunch.id}`)).status).toBe(204)
    const listed = (await t.ok('Events', 'GET', q)).items.find((e: { id: string }) => e.id === lunch.id)
    expect(listed.status).toBe('cancelled')
    expect(listed.summary).toBeUndefined()
  })

  it('renders each time zone, prettyPrint and fields form of a listing asked before', async () => {
    const t = cal()
    const plain = await t.call('GET', WEEK)
    const tokyo = await t.call('GET', `${WEEK}&timeZone=Asia/Tokyo`)
    expect(tokyo.body.items[0].start.dateTime).toMatch(/\+09:00$/)
    expect(plain.body.items[0].start.dateTime).not.toMatch(/\+09:00$/)
    // Google's default prettyPrint indents by two; the same listing asked again is the same bytes.
    expect(plain.text).toBe(JSON.stringify(plain.body, null, 2))
    const etagFree = (s: string) => s.replace(/"etag": ?"[^"]*"/g, '')
    expect(etagFree((await t.call('GET', WEEK)).text)).toBe(etagFree(plain.text))
    const compact = await t.call('GET', `${WEEK}&prettyPrint=false`)
    expect(compact.text).toBe(JSON.stringify(compact.body))
    expect(compact.body.items).toEqual(plain.body.items)
    const some = await t.call('GET', `${WEEK}&fields=items(id,summary)`)
    const picked = plain.body.items.map((e: { id: string; summary: string }) => ({ id: e.id, summary: e.summary }))
    expect(some.body).toEqual({ items: picked })
  })

  it('shows only free/busy fields to a reader whose access dropped to freeBusyReader after listing', async () => {
    const t = cal()
    const scope = { type: 'user', value: 'cy@example.com' }
    const rule = await t.ok('AclRule', 'POST', '/calendars/primary/acl', { json: { role: 'reader', scope } })
    const other = WEEK.replace('primary', 'ann%40example.com')
    const full = await t.ok('Events', 'GET', other, { as: 'cy' })
    expect(full.items[0].summary).toBeDefined()
    const ruleUrl = `/calendars/primary/acl/${encodeURIComponent(rule.id)}`
    await t.ok('AclRule', 'PATCH', ruleUrl, { json: { role: 'freeBusyReader' } })
    const busy = await t.ok('Events', 'GET', other, { as: 'cy' })
    expect(busy.items.map((e: { id: string }) => e.id)).toEqual(full.items.map((e: { id: string }) => e.id))
    for (const e of busy.items) expect(e.summary).toBeUndefined()
  })

  it("shows a world user's new name on events listed before the rename", async () => {
    const t = cal({ ...calSeed, users: calSeed.users.map((u) => (u.id === 'ann' ? { ...u, admin: true } : u)) })
    const before = await t.ok('Events', 'GET', WEEK)
    expect(before.items[0].creator.displayName).toBe('Ann Lee')
    const json = { name: { givenName: 'Annabel', familyName: 'Lee' } }
    const res = await t.h.call('PATCH', '/admin/directory/v1/users/ann@example.com', { json, token: t.h.google('ann') })
    expect(res.status, res.text).toBe(200)
    const after = await t.ok('Events', 'GET', WEEK)
    expect(after.items[0].creator.displayName).toBe('Annabel Lee')
  })

  it('answers a listing asked again, in another zone, by another reader, after a rename as a fresh world', async () => {
    // World `warm` lists between the changes (its kept rows and texts are reused); `cold` lists once at the end.
    const [warm, cold] = [cal(), cal()]
    const scope = { type: 'user', value: 'cy@example.com' }
    const other = WEEK.replace('primary', 'ann%40example.com')
    // The user row only (no request): the events table stays unwritten, so its kept rows stay in use.
    const rename = (t: ReturnType<typeof cal>) =>
      t.h.entry.world.sqlite.prepare("UPDATE world_users SET name = 'Annabel Lee' WHERE id = 'ann'").run()
    const share = { json: { role: 'reader', scope } }
    for (const t of [warm, cold]) await t.ok('AclRule', 'POST', '/calendars/primary/acl', share)
    // Each form is asked twice in a row: the second answer reuses what the first kept.
    const twice = async (t: ReturnType<typeof cal>, path: string, as?: string) => {
      const first = (await t.call('GET', path, { as })).text
      expect((await t.call('GET', path, { as })).text).toBe(first)
      return first
    }
    // In one order, then the other, so the form asked last before the rename is the first asked after it.
    const answers = async (t: ReturnType<typeof cal>, reversed = false) => {
      const forms: [string, string?][] = [[WEEK], [`${WEEK}&timeZone=Asia/Tokyo`], [other, 'cy']]
      const out: string[] = []
      for (const [path, as] of reversed ? forms.reverse() : forms) out.push(await twice(t, path, as))
      return reversed ? out.reverse() : out
    }
    const before = await answers(warm)
    expect(await answers(warm)).toEqual(before)
    for (const t of [warm, cold]) expect(rename(t).changes).toBe(1)
    const after = await answers(warm, true)
    expect(after[0]!.match(/Annabel Lee/g)?.length).toBe(before[0]!.match(/Ann Lee/g)?.length)
    expect(after[1]).toContain('+09:00')
    expect(after).toEqual(await answers(cold))
  })

  it('renders a streamed listing (over 200 events) as JSON.stringify does, before and after a change', async () => {
    const t = cal()
    for (let i = 0; i < 205; i++) {
      const h = String(i % 10).padStart(2, '0')
      const day = `2026-04-0${1 + (i % 5)}T1${h[1]}`
      const json = { summary: `m${i}`, ...timed(`${day}:00:00Z`, `${day}:30:00Z`) }
      await t.ok(null, 'POST', '/calendars/primary/events', { json })
    }
    const q = `${LIST}&timeMin=2026-04-01T00:00:00Z&timeMax=2026-04-07T00:00:00Z&maxResults=2500`
    const first = await t.call('GET', q)
    expect(first.body.items.length).toBe(205)
    expect(first.text).toBe(JSON.stringify(first.body, null, 2))
    const changed = `/calendars/primary/events/${first.body.items[100].id}`
    await t.ok('Event', 'PATCH', changed, { json: { summary: 'changed' } })
    const second = await t.call('GET', q)
    expect(second.text).toBe(JSON.stringify(second.body, null, 2))
    expect(second.body.items.filter((e: { summary: string }) => e.summary === 'changed')).toHaveLength(1)
  })
})
