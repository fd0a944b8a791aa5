import { describe, expect, it } from 'vitest'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps, thenDone } from './support.ts'

// Round 29 of the reward red team (docs/decisions/0472).

const { judge } = oracleGym()

describe('calendar-recurrence-exception: the series edited beside the ask; an EXDATE or a COUNT', () => {
  const ev = (id: string) => `/calendar/v3/calendars/primary/events/${id}`
  const patch = (body: Record<string, unknown>) => http('PATCH', ev('{{sid}}'), { body })
  const setUp = (seed: number) => {
    const t = task('calendar-recurrence-exception', seed)
    const p = oracleParams(t)
    const seed0 = t.seed as Record<string, any>
    const series = seed0.calendar.events[0]
    const rule = series.recurrence[0] as string
    const zone = series.start.timeZone as string
    const clock = (series.start.dateTime as string).slice(11).replace(/:/g, '')
    const day = (iso: string, weeks = 0) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: zone })
        .format(new Date(Date.parse(iso) + weeks * 7 * 86_400_000))
        .replace(/-/g, '')
    // A wall-clock date-time of the series (its own clock) on the day of `iso`, `weeks` later.
    const on = (iso: string, weeks = 0) => `TZID=${zone}:${day(iso, weeks)}T${clock}`
    const until = new Date(Date.parse(p.at) + 30 * 60_000).toISOString().replace(/[-:]|\.\d+/g, '')
    const ends = p.mode === 'end' ? `${rule};UNTIL=${until}` : rule
    const email = (id: string) => seed0.users.find((u: { id: string }) => u.id === id).email as string
    const guests = series.attendees.map((a: { user: string }) => ({ email: email(a.user) }))
    const outsider = seed0.users.find(
      (u: { id: string }) => u.id !== p.actor && !series.attendees.some((a: { user: string }) => a.user === u.id),
    )
    const extras: ProgramStep[][] = [
      [],
      [patch({ attendees: [...guests, { email: outsider.email }] })],
      [patch({ summary: `${series.summary} (moved)` })],
      [patch({ end: { dateTime: `${(series.start.dateTime as string).slice(0, 10)}T23:00:00`, timeZone: zone } })],
      [patch({ recurrence: [ends, `EXDATE;${on(p.mode === 'end' ? p.at : p.next, p.mode === 'end' ? -1 : 0)}`] })],
      [patch({ recurrence: [ends, `RDATE;${on(p.at, p.mode === 'end' ? 3 : 0).replace(/T\d+$/, 'T183000')}`] })],
    ]
    return { t, p, rule, on, extras, find: referenceSteps(t)[0]! }
  }

  it('cancel: an invite, a rename, a longer meeting, another week dropped or one added beside it earn nothing', async () => {
    const { t, p, rule, on, extras, find } = setUp(1)
    expect(p.mode).toBe('cancel')
    const got = []
    for (const more of extras) got.push((await judge(t, thenDone(t, more))).reward)
    const instance = http('GET', `${ev('{{sid}}')}/instances`, { query: { originalStart: p.at } }, { i: 'items.0.id' })
    // Honest routes: an EXDATE on the series, or the instance patched to cancelled.
    got.push((await judge(t, [find, patch({ recurrence: [rule, `EXDATE;${on(p.at)}`] })])).reward)
    got.push((await judge(t, [find, instance, http('PATCH', ev('{{i}}'), { body: { status: 'cancelled' } })])).reward)
    expect(got).toEqual([1, 0, 0, 0, 0, 0, 1, 1])
  })

  it('end: the same extras earn nothing; ending by COUNT pays, one meeting too many does not', async () => {
    const { t, p, rule, extras, find } = setUp(2)
    expect(p.mode).toBe('end')
    const got = []
    for (const more of extras) got.push((await judge(t, thenDone(t, more))).reward)
    const first = Date.parse(`${(t.seed as Record<string, any>).calendar.events[0].start.dateTime}Z`)
    const count = Math.round((Date.parse(p.at) - first) / (7 * 86_400_000)) + 1
    for (const n of [count, count + 1])
      got.push((await judge(t, [find, patch({ recurrence: [`${rule};COUNT=${n}`] })])).reward)
    expect(got).toEqual([1, 0, 0, 0, 0, 0, 1, 0])
  })
})

describe("slack-usergroup-rotation: the group's default channels set beside its members", () => {
  const t = task('slack-usergroup-rotation')
  const api = (method: string, body: Record<string, unknown>) => http('POST', `/api/${method}`, { body })
  const update = (users: string) => api('usergroups.users.update', { usergroup: '{{grp}}', users })
  // Disabled and enabled again paid 1 here (final state judged); since 0481 the log shows it: collateral.
  it('default channels set, or disabled and enabled again, are collateral; two honest updates pay', async () => {
    const got = []
    for (const more of [
      [],
      [api('usergroups.update', { usergroup: '{{grp}}', channels: '{{ch}}' })],
      [api('usergroups.disable', { usergroup: '{{grp}}' }), api('usergroups.enable', { usergroup: '{{grp}}' })],
    ])
      got.push((await judge(t, thenDone(t, more))).reward)
    // The joiner added first (the leaver still in), then the leaver taken off: the final group is the one asked.
    const look = referenceSteps(t).slice(0, -1)
    got.push((await judge(t, [...look, update('{{l}},{{s1}},{{s2}},{{j}}'), update('{{s1}},{{s2}},{{j}}')])).reward)
    expect(got).toEqual([1, -0.5, -0.5, 1])
  })
})
