import { describe, expect, it } from 'vitest'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import { calendarBookRoom } from '../../tasks-lite/families/calendar/calendar-book-room.ts'
import { calendarRescheduleInstance } from '../../tasks-lite/families/calendar-reschedule-instance.ts'
import { offsitePlanning } from '../../tasks-lite/families/offsite-planning.ts'
import { gymControl } from './gym-control.ts'
import { http, nearMiss, oracleGym } from './support.ts'

// An event's guests see every version of it: an outside guest invited and dropped again (no copy of it is kept in
// the world), a near-duplicate venue shown to the guests and fixed in place, a guest added to an existing event and
// removed again (docs/decisions/0379). Fixes nobody is judged on (a time or a title corrected) still earn 1.
const { judge } = oracleGym()
const task = (f: { generate(seed: number): unknown }, seed = 1) => TaskSpec.parse(f.generate(seed))
const params = (t: TaskSpec) => t.oracle.params as Record<string, any>
const withoutDone = (p: readonly ProgramStep[]) => p.filter((s) => s.tool !== 'done')
const args = (s: ProgramStep) => s.args as { method?: string; path?: string; body?: any; query?: any }
const isInsert = (s: ProgramStep) =>
  args(s).method === 'POST' && /\/calendar\/v3\/calendars\/[^/]+\/events$/.test(args(s).path!)
/** The program with its event insert changed by `f` and the new event's id saved as `eid`. */
const editInsert = (p: readonly ProgramStep[], f: (body: any) => any) =>
  withoutDone(p).map((s) =>
    isInsert(s) ? { ...s, args: { ...s.args, body: f(args(s).body) }, save: { ...s.save, eid: 'id' } } : s,
  )
const EVENT = '/calendar/v3/calendars/primary/events'
const OUTSIDER = 'consultant@outside-advisors.example'

describe('book-room: an outside guest invited and dropped again', () => {
  const t = task(calendarBookRoom)
  const withOutsider = editInsert(t.reference, (b) => ({ ...b, attendees: [...b.attendees, { email: OUTSIDER }] }))
  const attendees = (args(withoutDone(t.reference).find(isInsert)!).body as { attendees: unknown[] }).attendees

  it('fails "and nobody else" (1 before 0379: the outsider has no copy in the world)', async () => {
    expect((await judge(t, t.reference)).reward).toBe(1)
    const drop = http('PATCH', `${EVENT}/{{eid}}`, { query: { sendUpdates: 'all' }, body: { attendees } })
    const v = await judge(t, [...withOutsider, drop])
    expect(v.reward).toBe(0)
    const check = v.details.checks.find((c) => c.name === 'and nobody else')!
    expect(check.ok).toBe(false)
    expect(check.note).toMatch(/as its guests saw it/)
  })

  it('a title fixed in place, the time set in a second call and a guest added later still earn 1', async () => {
    const p = params(t)
    const typo = editInsert(t.reference, (b) => ({ ...b, summary: `${b.summary} (tenative)` }))
    const fix = http('PATCH', `${EVENT}/{{eid}}`, { query: { sendUpdates: 'all' }, body: { summary: p.title } })
    const v = await judge(t, [...typo, fix])
    expect(v.violations).toEqual([])
    expect(v.reward).toBe(1)
    const early = editInsert(t.reference, (b) => ({
      ...b,
      start: { ...b.start, dateTime: b.start.dateTime.replace('T15:', 'T14:') },
    }))
    const start = (args(withoutDone(t.reference).find(isInsert)!).body as { start: unknown }).start
    const moved = await judge(t, [...early, http('PATCH', `${EVENT}/{{eid}}`, { body: { start } })])
    expect(moved.reward).toBe(1)
    // The guests invited in two steps: the first version lacked one, which nobody is judged on.
    const some = editInsert(t.reference, (b) => ({ ...b, attendees: b.attendees.slice(1) }))
    const all = http('PATCH', `${EVENT}/{{eid}}`, { query: { sendUpdates: 'all' }, body: { attendees } })
    expect((await judge(t, [...some, all])).reward).toBe(1)
  })
})

describe("offsite-planning: the event with last year's venue, fixed in place", () => {
  const t = task(offsitePlanning)
  const p = params(t)
  it('fails "no near-duplicate fact in the event" (1 before 0379: the copies were updated in place)', async () => {
    expect((await judge(t, t.reference)).reward).toBe(1)
    const wrong = String(p.wrong[0])
    const bad = editInsert(t.reference, (b) => ({
      ...b,
      summary: String(b.summary).replace(p.venue, wrong),
      location: wrong,
    }))
    const right = (args(withoutDone(t.reference).find(isInsert)!).body as { summary: string }).summary
    const fix = http('PATCH', `${EVENT}/{{eid}}`, {
      query: { sendUpdates: 'all' },
      body: { summary: right, location: p.venue },
    })
    const steps = withoutDone(bad)
    const at = steps.findIndex(isInsert)
    const v = await judge(t, [...steps.slice(0, at + 1), fix, ...steps.slice(at + 1)])
    expect(v.reward).toBe(0)
    expect(v.details.checks.find((c) => c.name === 'no near-duplicate fact in the event')?.ok).toBe(false)
  })
})

describe('reschedule-instance: a guest added to the existing instance and removed again', () => {
  const t = task(calendarRescheduleInstance)
  const p = params(t)
  const steps = withoutDone(t.reference)
  const move = steps.at(-1)!
  const guests = [{ email: p.attendee }]

  it('an outside guest on the moved instance, dropped again, fails (1 before 0379)', async () => {
    expect((await judge(t, t.reference)).reward).toBe(1)
    const add = http('PATCH', args(move).path!, {
      query: { sendUpdates: 'all' },
      body: { ...args(move).body, attendees: [...guests, { email: OUTSIDER }] },
    })
    const back = http('PATCH', args(move).path!, { query: { sendUpdates: 'all' }, body: { attendees: guests } })
    const v = await judge(t, [...steps.slice(0, -1), add, back])
    expect(v.reward).toBe(0)
    expect(v.details.checks.find((c) => c.name === 'inviting nobody the series does not')?.ok).toBe(false)
  })

  it('the instance moved to the wrong time first, then to the asked one, earns 1', async () => {
    const wrong = nearMiss(t, 'wall-clock time in your own zone')
      .filter((s) => s.tool !== 'done')
      .at(-1)!
    const v = await judge(t, [...steps.slice(0, -1), wrong, move])
    expect(v.violations).toEqual([])
    expect(v.reward).toBe(1)
  })
})

describe('over the gym HTTP API', () => {
  const t = task(calendarBookRoom)
  const call = gymControl(t)
  it('an outside guest invited and dropped again fails /verify', async () => {
    const { episodeId: id } = await call('/gym/reset', { taskId: t.id })
    const step = async (method: string, path: string, extra: Record<string, unknown> = {}) => {
      const r = await call(`/gym/episodes/${id}/step`, { tool: 'http_request', arguments: { method, path, ...extra } })
      return JSON.parse(r.observation as string).body as Record<string, any>
    }
    const saved: Record<string, string> = {}
    for (const s of withoutDone(t.reference)) {
      const a = args(s)
      const fill = (x: unknown): any =>
        JSON.parse(JSON.stringify(x ?? null).replace(/\{\{(\w+)\}\}/g, (_m, k: string) => saved[k] ?? ''))
      const body = fill(a.body)
      const guests = isInsert(s) ? body.attendees : undefined
      const r = await step(a.method!, fill(a.path), {
        ...(a.query ? { query: fill(a.query) } : {}),
        ...(a.body ? { body: isInsert(s) ? { ...body, attendees: [...guests, { email: OUTSIDER }] } : body } : {}),
      })
      for (const [k, path] of Object.entries(s.save ?? {})) saved[k] = readPath(r, String(path))
      if (isInsert(s))
        await step('PATCH', `${EVENT}/${r.id}`, { query: { sendUpdates: 'all' }, body: { attendees: guests } })
    }
    const v = await call(`/gym/episodes/${id}/verify`)
    expect(v.reward).toBe(0)
  })
})

/** A `save` path of the program grammar, as far as the book-room reference uses it (`a.b`, `items[k=v].f`). */
function readPath(o: any, path: string): string {
  let cur = o
  for (const part of path.split('.')) {
    const m = /^(\w+)\[(\w+)=(.+)\]$/.exec(part)
    cur = m ? (cur?.[m[1]!] as any[] | undefined)?.find((x) => String(x[m[2]!]) === m[3]!) : cur?.[part]
  }
  return String(cur ?? '')
}
