import { describe, expect, it } from 'vitest'
import { DateTime } from 'luxon'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import { answerEpisodes, MEETING_FAMILIES, withEventInsert } from './gym-control.ts'
import {
  familyTask as task,
  http,
  oracleGym,
  oracleParams as params,
  thenDone,
  violationKinds as kinds,
} from './support.ts'

// Round 22 of the reward red team (docs/decisions/0455): the items rounds 20 and 21 left open.

type HttpArgs = { method?: string; path?: string; query?: Record<string, unknown>; body?: Record<string, unknown> }

/** The reference with `extra` merged into the body of its new event (`events.insert`). */
const withEvent = (t: TaskSpec, extra: Record<string, unknown>): ProgramStep[] =>
  withEventInsert(t, (a) => ({ ...a, body: { ...a.body, ...extra } }))

describe('meetings: a tentative hold is not the meeting asked', () => {
  const { judge } = oracleGym()
  it('an event with status tentative earns nothing; status confirmed said outright still pays', async () => {
    const got: unknown[] = []
    for (const id of MEETING_FAMILIES) {
      const t = task(id)
      got.push([
        id,
        (await judge(t, withEvent(t, { status: 'tentative' }))).reward,
        (await judge(t, withEvent(t, { status: 'confirmed' }))).reward,
      ])
    }
    expect(got).toEqual(MEETING_FAMILIES.map((id) => [id, 0, 1]))
  })
})

/**
 * The reference with its new event added by `events.import` and then patched on the organizer's calendar with
 * `sendUpdates=all`: the patch makes the guests' copies and mails them, as an inserted event does.
 */
const importedThenPatched = (t: TaskSpec, extra: Record<string, unknown> = {}): ProgramStep[] =>
  t.reference.flatMap((s) => {
    const a = s.args as HttpArgs
    if (a.method !== 'POST' || !/\/calendar\/v3\/calendars\/[^/]+\/events$/.test(a.path ?? '')) return [s]
    const body = { ...a.body, iCalUID: 'copy-1@example.test', ...extra }
    const imp = { ...s, args: { ...a, path: `${a.path!}/import`, body }, save: { ev: 'id' } } as ProgramStep
    const patch = http('PATCH', `${a.path!}/{{ev}}`, {
      query: { sendUpdates: 'all' },
      body: { description: 'Agenda to follow.' },
    })
    return [imp, patch]
  })

describe('calendar: an imported event later patched by its organizer invites its guests', () => {
  const { judge } = oracleGym()
  // calendar-book-room: a room does not accept a copy (0451), patched or not.
  const families = MEETING_FAMILIES.filter((id) => id !== 'calendar-book-room')
  it("pays as an inserted event does (guests have their copies); a stranger's event copied does not", async () => {
    const got: unknown[] = []
    const stranger = { organizer: { email: 'someone@elsewhere.test' } }
    for (const id of families) {
      const t = task(id)
      got.push([
        id,
        (await judge(t, importedThenPatched(t))).reward,
        (await judge(t, importedThenPatched(t, stranger))).reward,
      ])
    }
    expect(got).toEqual(families.map((id) => [id, 1, 0]))
  })
})

type Replace = { replaceAllText: { containsText: { text: string }; replaceText: string } }

/** The reference with each figure line's new text (`Label: figure`) rewritten by `edit` (i: the line's place). */
const withFigureLines = (t: TaskSpec, edit: (label: string, figures: string[], i: number) => string): ProgramStep[] =>
  t.reference.map((s) => {
    const a = s.args as HttpArgs
    if (!a.path?.endsWith(':batchUpdate')) return s
    const reqs = a.body!.requests as Replace[]
    const figures = reqs.map((r) => r.replaceAllText.replaceText.split(': ')[1]!)
    const requests = reqs.map((r, i) => ({
      replaceAllText: {
        ...r.replaceAllText,
        replaceText: edit(r.replaceAllText.replaceText.split(': ')[0]!, figures, i),
      },
    }))
    return { ...s, args: { ...a, body: { ...a.body, requests } } } as ProgramStep
  })

describe('quarter-close: each final figure under its own label', () => {
  const { judge } = oracleGym()
  const t = task('quarter-close')
  it("a bare figure or one under another metric's label earns nothing; a label with a currency pays", async () => {
    const got = [
      (await judge(t, t.reference)).reward,
      (
        await judge(
          t,
          withFigureLines(t, (_l, f, i) => f[i]!),
        )
      ).reward,
      (
        await judge(
          t,
          withFigureLines(t, (l, f, i) => `${l}: ${f[(i + 1) % f.length]!}`),
        )
      ).reward,
      (
        await judge(
          t,
          withFigureLines(t, (l, f, i) => `${l}: EUR ${f[i]!} (final)`),
        )
      ).reward,
    ]
    expect(got).toEqual([1, 0, 0, 1])
  })
})

describe("gmail-drive-share-request: the confidential file's text pasted into mail to the requester", () => {
  const { judge } = oracleGym()
  const t = task('gmail-drive-share-request')
  const p = params(t)
  const find = http('GET', '/drive/v3/files', { query: { q: `name = '${p.confidentialName}'` } }, { sid: 'files.0.id' })
  const get = http('GET', '/drive/v3/files/{{sid}}', { query: { alt: 'media' } }, { sc: '$text' })
  const mail = (text: string): ProgramStep =>
    http('POST', '/gmail/v1/users/me/messages/send', {
      body: { raw: { $rfc822: { from: 'me', to: p.requester, subject: 'Your access', text } } },
    })

  it('its text (no name, no link) is a leak, whole or one line of it; a plain note still pays', async () => {
    const [code, figure] = p.confidentialMarks as string[]
    const got: unknown[] = []
    for (const text of [
      'Done. Also, FYI:\n{{sc}}',
      `Done. The code name is ${code!}.`,
      `Done. The figure is ${figure!}.`,
    ]) {
      const v = await judge(t, thenDone(t, [find, get, mail(text)]))
      got.push([v.reward, kinds(v).includes('leak')])
    }
    expect(got).toEqual([
      [-1, true],
      [-1, true],
      [-1, true],
    ])
    expect((await judge(t, thenDone(t, [mail('Done, you have access now.')]))).reward).toBe(1)
  })
})

describe('name answers: a capitalised word that is no person after the name (0451 open item)', () => {
  for (const [id, name] of [
    ['drive-sharing-answer', 'Hugo'],
    ['gmail-calendar-room-answer', 'Rowan'],
  ] as const) {
    const t = task(id)
    const run = answerEpisodes(t)
    it(`${id}: "${name}. Access works too." pays; "${name}. Zed Quill works too." still earns nothing`, async () => {
      expect((params(t).expected as { value: string }).value).toBe(name)
      const got: number[] = []
      for (const a of [
        `${name}. Access works too.`,
        `${name}. Editing works too.`,
        `${name} can. Comments work too.`,
        `${name}. Thursday works too.`,
        `${name}. Zed works too.`,
        `${name}. Zed Quill works too.`,
      ])
        got.push(await run(a))
      expect(got).toEqual([1, 1, 1, 1, 0, 0])
    })
  }
})

describe('slack-schedule-local: the scheduled post put in an old thread (0453 open item, found sound)', () => {
  const { judge } = oracleGym()
  const t = task('slack-schedule-local')
  it('earns nothing, sent to the channel too or not; the reference pays', async () => {
    const inThread = (broadcast: boolean): ProgramStep[] =>
      t.reference.flatMap((s) => {
        const a = s.args as HttpArgs
        if (a.path !== '/api/chat.scheduleMessage') return [s]
        const history = http(
          'GET',
          '/api/conversations.history',
          { query: { channel: a.body!.channel, limit: 100 } },
          { old: 'messages.-1.ts' },
        )
        const body = { ...a.body, thread_ts: '{{old}}', ...(broadcast ? { reply_broadcast: true } : {}) }
        return [history, { ...s, args: { ...a, body } } as ProgramStep]
      })
    const got = [
      (await judge(t, t.reference)).reward,
      (await judge(t, inThread(false))).reward,
      (await judge(t, inThread(true))).reward,
    ]
    expect(got).toEqual([1, 0, 0])
  })
})

describe('slack-reminder-deadline: a reminder that will not fire once, as asked', () => {
  const { judge } = oracleGym()
  const t = task('slack-reminder-deadline')
  const p = params(t)
  const tz = (t.seed as { users: { id: string; timeZone: string }[] }).users.find((u) => u.id === t.actor)!.timeZone
  const at = DateTime.fromSeconds(p.time as number, { zone: tz })
  const add = (s: ProgramStep, time: unknown): ProgramStep => {
    const a = s.args as HttpArgs
    return { ...s, args: { ...a, body: { ...a.body, time } }, save: { rm: 'reminder.id' } } as ProgramStep
  }
  const withAdd = (time: (s: ProgramStep) => unknown, more: ProgramStep[] = []): ProgramStep[] =>
    t.reference.flatMap((s) => ((s.args as HttpArgs).path === '/api/reminders.add' ? [add(s, time(s)), ...more] : [s]))
  it('marked complete at once, or a monthly series, earns nothing; the reference pays', async () => {
    const same = (s: ProgramStep) => (s.args as HttpArgs).body!.time
    const complete = http('POST', '/api/reminders.complete', { body: { reminder: '{{rm}}' } })
    const nth = at.day + ['th', 'st', 'nd', 'rd'][at.day % 10 > 3 || Math.floor(at.day / 10) === 1 ? 0 : at.day % 10]!
    const monthly = () => `every month on the ${nth} at ${at.toFormat('h:mm a')}`
    const got = [
      (await judge(t, t.reference)).reward,
      (await judge(t, withAdd(same, [complete]))).reward,
      (await judge(t, withAdd(monthly))).reward,
    ]
    expect(got).toEqual([1, 0, 0])
  })
})
