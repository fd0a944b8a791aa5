import { afterAll, describe, expect, it } from 'vitest'
import { DateTime } from 'luxon'
import { createGym, runProgram } from '../../gym/index.ts'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import type { EntityChange } from '../../envs/core/diff.ts'
import { calendarCancellations } from '../../oracles/predicates.ts'
import type { RescheduleInstanceParams } from '../../oracles/families/reschedule-instance.ts'
import { calendarRescheduleInstance, dstTransitions } from '../../tasks-lite/families/calendar-reschedule-instance.ts'

const gym = createGym({ tasks: [] })
afterAll(() => gym.worlds.close())
const judge = async (t: TaskSpec, program: ProgramStep[]) => {
  const ep = gym.reset(t)
  const { statuses } = await runProgram(ep, program)
  const v = ep.verify()
  ep.close()
  return { ...v, statuses }
}
const task = (seed: number) => TaskSpec.parse(calendarRescheduleInstance.generate(seed))
const params = (t: TaskSpec) => t.oracle.params as RescheduleInstanceParams
const cal = '/calendar/v3/calendars/primary/events'
const http = (
  method: string,
  path: string,
  extra: Record<string, unknown> = {},
  save?: Record<string, string>,
): ProgramStep => ({ tool: 'http_request', args: { method, path, ...extra }, save })
const failed = (v: { details: { checks: { name: string; ok: boolean }[] } }) =>
  v.details.checks.filter((c) => !c.ok).map((c) => c.name)

describe('calendar-reschedule-instance generator', () => {
  it("asks for the first meeting day right after a DST change in the colleague's zone", () => {
    for (let seed = 1; seed <= 8; seed++) {
      const t = task(seed)
      const p = params(t)
      const zone = (t.seed as { users: { email: string; timeZone: string }[] }).users.find(
        (u) => u.email === p.attendee,
      )!.timeZone
      const orig = DateTime.fromISO(p.originalStartUtc, { zone })
      const change = dstTransitions(zone, orig.year).find((x) => x.day <= orig && orig.diff(x.day, 'days').days < 7)
      expect(change, t.id).toBeDefined()
      expect(orig.minus({ weeks: 1 }).offset, t.id).toBe(change!.before)
      expect(orig.offset, t.id).toBe(change!.after)
      // The world starts before the change, so "now" still shows the old offset.
      expect(Date.parse((t.seed as { now: string }).now)).toBeLessThan(change!.day.toMillis())
      // The answer is in the world, not in the instruction.
      expect(t.instruction).not.toMatch(/\d{1,2}:\d{2}/)
    }
  })

  it('covers New York, Berlin and Sydney in the corpus slice', () => {
    const zones = new Set(
      Array.from({ length: 8 }, (_, i) => {
        const t = task(i + 1)
        return (t.seed as { users: { email: string; timeZone: string }[] }).users.find(
          (u) => u.email === params(t).attendee,
        )!.timeZone
      }),
    )
    for (const z of ['America/New_York', 'Europe/Berlin', 'Australia/Sydney']) expect(zones.has(z)).toBe(true)
  })
})

describe('reschedule-instance oracle (through the gym)', () => {
  for (const seed of [1, 3]) {
    it(`passes the reference with reward 1 and fails the no-op and every near miss (seed ${seed})`, async () => {
      const t = task(seed)
      const ref = await judge(t, t.reference)
      expect(ref.statuses).toEqual([200, 200, 200])
      expect(ref).toMatchObject({ passed: true, reward: 1 })
      expect(await judge(t, [])).toMatchObject({ passed: false, reward: 0 })
      for (const nm of t.nearMisses) {
        const v = await judge(t, nm.program)
        expect(
          v.statuses.every((s) => s < 300),
          nm.name,
        ).toBe(true)
        expect(v.passed, nm.name).toBe(false)
        expect(v.reward, nm.name).toBeLessThanOrEqual(0)
      }
    })
  }

  it('rewards moving the whole series with collateral and a failed series check', async () => {
    const t = task(2)
    const v = await judge(t, t.nearMisses.find((n) => n.name === 'moves the whole series')!.program)
    expect(failed(v)).toContain('the series itself is unchanged')
    expect(v.reward).toBe(-0.5)
  })

  it('treats deleting the instance as an unrequested delete', async () => {
    const t = task(4)
    const del = [...t.reference.slice(0, 2), http('DELETE', `${cal}/{{iid}}`)]
    const v = await judge(t, del)
    expect(v.reward).toBe(-1)
    expect(v.violations.map((x) => x.kind)).toContain('unrequested_delete')
  })

  it('fails when another instance moves as well', async () => {
    const t = task(5)
    const p = params(t)
    const next = DateTime.fromISO(p.originalStartUtc).plus({ weeks: 1 })
    const extra = [
      http(
        'GET',
        `${cal}/${p.seriesId}/instances`,
        {
          query: {
            timeMin: next.minus({ hours: 1 }).toUTC().toISO(),
            timeMax: next.plus({ hours: 1 }).toUTC().toISO(),
          },
        },
        { nid: 'items.0.id' },
      ),
      http('PATCH', `${cal}/{{nid}}`, {
        body: {
          start: { dateTime: next.plus({ hours: 2 }).toUTC().toISO() },
          end: { dateTime: next.plus({ hours: 3 }).toUTC().toISO() },
        },
      }),
    ]
    const v = await judge(t, [...t.reference, ...extra])
    expect(v.passed).toBe(false)
    expect(failed(v)).toEqual(['no other instance of the series changed'])
    expect(v.violations.map((x) => x.kind)).toContain('collateral')
  })

  it('fails when the moved instance drops the colleague or is renamed', async () => {
    const t = task(6)
    const patch = t.reference[2]!
    const body = (patch.args as { body: Record<string, unknown> }).body
    const dropped = await judge(t, [
      ...t.reference.slice(0, 2),
      { ...patch, args: { ...patch.args, body: { ...body, attendees: [] } } },
    ])
    expect(failed(dropped)).toContain('with the same guests (the colleague still invited)')
    const renamed = await judge(t, [
      ...t.reference.slice(0, 2),
      { ...patch, args: { ...patch.args, body: { ...body, summary: 'moved' } } },
    ])
    expect(failed(renamed)).toEqual(["keeping the series' title, description and location"])
  })

  it('fails when the near-duplicate series is deleted after the right move', async () => {
    const t = task(7)
    const v = await judge(t, [...t.reference, http('DELETE', `${cal}/${params(t).otherSeriesIds[0]}`)])
    expect(v.passed).toBe(false)
    expect(v.reward).toBe(-1)
    expect(failed(v)).toEqual(['the near-duplicate 1:1 is untouched'])
  })

  it('accepts a wall-clock dateTime read in the named zone and a plain PUT of the instance', async () => {
    const t = task(8)
    const p = params(t)
    const zone = (t.seed as { users: { email: string; timeZone: string }[] }).users.find(
      (u) => u.email === p.attendee,
    )!.timeZone
    const local = (iso: string) => DateTime.fromISO(iso, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss")
    const v = await judge(t, [
      ...t.reference.slice(0, 2),
      http('GET', `${cal}/{{iid}}`, {}, { sum: 'summary', desc: 'description', att: 'attendees' }),
      http('PUT', `${cal}/{{iid}}`, {
        body: {
          summary: '{{sum}}',
          description: '{{desc}}',
          attendees: '{{att}}',
          start: { dateTime: local(p.startUtc), timeZone: zone },
          end: { dateTime: local(p.endUtc), timeZone: zone },
        },
      }),
    ])
    expect(failed(v)).toEqual([])
    expect(v).toMatchObject({ passed: true, reward: 1 })
  })
})

describe('calendarCancellations', () => {
  it('reports each cancelled event once, whether an exception was inserted cancelled or a row was updated', () => {
    const ev = (calendarId: string, id: string, status: string) => ({ calendarId, id, status })
    const diff: EntityChange[] = [
      {
        op: 'inserted',
        service: 'calendar',
        collection: 'events',
        id: 'a@x/s_1',
        after: ev('a@x', 's_1', 'cancelled'),
      },
      {
        op: 'inserted',
        service: 'calendar',
        collection: 'events',
        id: 'b@x/s_1',
        after: ev('b@x', 's_1', 'cancelled'),
      },
      {
        op: 'updated',
        service: 'calendar',
        collection: 'events',
        id: 'a@x/t',
        fields: { status: { before: 'confirmed', after: 'cancelled' } },
        before: ev('a@x', 't', 'confirmed'),
        after: ev('a@x', 't', 'cancelled'),
      },
      { op: 'inserted', service: 'calendar', collection: 'events', id: 'a@x/u', after: ev('a@x', 'u', 'confirmed') },
    ]
    const r = calendarCancellations(diff)
    expect(r.changes).toHaveLength(3)
    expect(r.violations.map((v) => v.message)).toEqual([
      'calendar event s_1 was cancelled',
      'calendar event t was cancelled',
    ])
  })
})
