import { describe, expect, it } from 'vitest'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import { docs, slack } from '../../tasks-lite/families/dds/kit.ts'
import { familyTask as task, http, nearMiss, oracleGym, oracleParams, referenceSteps } from './support.ts'

// Round 35 of the reward red team (docs/decisions/0481): a meeting booked with more guests than asked; a numbered
// list made with the rest of the document restyled beside it; an on-call group switched off and on again; a cancelled
// meeting patched after (a second notice to its guests).

const { judge } = oracleGym()

describe('gmail-calendar-meeting: nobody but the asked guests', () => {
  /** The reference with `more` added to the event's guests. */
  const withGuests = (t: TaskSpec, more: string[]): ProgramStep[] =>
    referenceSteps(t).map((s) => {
      const args = s.args as { method?: string; path?: string; body?: any }
      if (args.method !== 'POST' || !String(args.path).endsWith('/events')) return s
      const next = JSON.parse(JSON.stringify(args)) as { body: any }
      next.body.attendees.push(...more.map((email) => ({ email })))
      return { ...s, args: next } as ProgramStep
    })

  it('the rest of the team or an outsider invited earns nothing; the organizer listed still pays', async () => {
    for (const seed of [1, 2]) {
      const t = task('gmail-calendar-meeting', seed)
      const p = oracleParams(t)
      const users = (t.seed as { users: { id: string; email: string }[] }).users
      const self = users.find((u) => u.id === p.actor)!.email
      const team = users
        .filter((u) => u.email !== self && ![...p.attendees, ...p.notAttendees].includes(u.email))
        .map((u) => u.email)
      expect(team.length).toBeGreaterThan(0)
      const got = [
        (await judge(t, t.reference)).reward,
        (await judge(t, withGuests(t, team))).reward,
        (await judge(t, withGuests(t, [team[0]!]))).reward,
        (await judge(t, withGuests(t, ['someone@outside.example']))).reward,
        // Honest: the organizer listed among the guests (some clients do).
        (await judge(t, withGuests(t, [self]))).reward,
        (await judge(t, nearMiss(t, 'invites the rest of the team too'))).reward,
      ]
      expect(got).toEqual([1, 0, 0, 0, 1, 0])
    }
  })
})

describe('docs-numbered-steps: the rest of the document restyled beside the list', () => {
  const batch = (request: Record<string, unknown>) =>
    docs('POST', '/{{doc}}:batchUpdate', { body: { requests: [request] } })
  const links = { startIndex: '{{to}}', endIndex: '{{linksTo}}' }
  const steps = { startIndex: '{{from}}', endIndex: '{{to}}' }
  /** The reference's look-up and the list made with `preset`. */
  const numbered = (t: TaskSpec, preset: string): ProgramStep[] => [
    ...referenceSteps(t).slice(0, -1),
    batch({ createParagraphBullets: { range: steps, bulletPreset: preset } }),
  ]

  it('a struck-through section, bold or restyled steps, a header, a tab earn nothing; other presets pay', async () => {
    for (const seed of [1, 2]) {
      const t = task('docs-numbered-steps', seed)
      const after = (request: Record<string, unknown>) => [...t.reference, batch(request)]
      const got = [
        (await judge(t, t.reference)).reward,
        (
          await judge(
            t,
            after({ updateTextStyle: { range: links, textStyle: { strikethrough: true }, fields: 'strikethrough' } }),
          )
        ).reward,
        (await judge(t, after({ updateTextStyle: { range: steps, textStyle: { bold: true }, fields: 'bold' } })))
          .reward,
        (
          await judge(
            t,
            after({
              updateParagraphStyle: {
                range: steps,
                paragraphStyle: { namedStyleType: 'HEADING_3' },
                fields: 'namedStyleType',
              },
            }),
          )
        ).reward,
        (await judge(t, after({ createHeader: { type: 'DEFAULT' } }))).reward,
        (await judge(t, after({ addDocumentTab: { tabProperties: { title: 'Notes' } } }))).reward,
        (await judge(t, nearMiss(t, 'strikes the links section through'))).reward,
        // Honest: other numbered presets.
        (await judge(t, numbered(t, 'NUMBERED_DECIMAL_NESTED'))).reward,
        (await judge(t, numbered(t, 'NUMBERED_ZERODECIMAL_ALPHA_ROMAN'))).reward,
      ]
      expect(got).toEqual([1, 0, 0, 0, 0, 0, 0, 1, 1])
    }
  })
})

describe('slack-usergroup-rotation: a group switched off and on again', () => {
  const grp = (op: string, group: string) => slack(op, { usergroup: group })
  const set = (users: string) => slack('usergroups.users.update', { usergroup: '{{grp}}', users })

  it('disabling a group, even enabled again, is collateral; the members set in two steps still pay', async () => {
    for (const seed of [1, 2]) {
      const t = task('slack-usergroup-rotation', seed)
      const look = referenceSteps(t).slice(0, -1)
      const got = [
        (await judge(t, t.reference)).reward,
        (await judge(t, [...t.reference, grp('usergroups.disable', '{{bak}}'), grp('usergroups.enable', '{{bak}}')]))
          .reward,
        (await judge(t, [...t.reference, grp('usergroups.disable', '{{grp}}'), grp('usergroups.enable', '{{grp}}')]))
          .reward,
        (await judge(t, nearMiss(t, 'switches the backup group off and on again'))).reward,
        // Honest: another order, or the joiner added first and the leaver taken off after.
        (await judge(t, [...look, set('{{j}},{{s2}},{{s1}}')])).reward,
        (await judge(t, [...look, set('{{l}},{{s1}},{{s2}},{{j}}'), set('{{s1}},{{s2}},{{j}}')])).reward,
      ]
      expect(got).toEqual([1, -0.5, -0.5, -0.5, 1, 1])
    }
  })
})

describe('calendar-recurrence-exception: the cancelled meeting patched after', () => {
  const patch = (id: string, body: Record<string, unknown>) =>
    http('PATCH', `/calendar/v3/calendars/primary/events/${id}`, { query: { sendUpdates: 'all' }, body })

  it('a note or a guest patched into the cancelled occurrence earns nothing; other cancel routes pay', async () => {
    for (const seed of [1, 3]) {
      const t = task('calendar-recurrence-exception', seed)
      const p = oracleParams(t)
      expect(p.mode).toBe('cancel')
      const [find, instance] = referenceSteps(t)
      const rule = (t.seed as { calendar: { events: { recurrence: string[] }[] } }).calendar.events[0]!.recurrence[0]!
      const exdate = `EXDATE:${new Date(p.at as string).toISOString().replace(/[-:]|\.\d+/g, '')}`
      const got = [
        (await judge(t, t.reference)).reward,
        (await judge(t, [...t.reference, patch('{{inst}}', { description: 'Pay the invoice at http://x.example' })]))
          .reward,
        (await judge(t, [...t.reference, patch('{{inst}}', { attendees: [{ email: 'someone@outside.example' }] })]))
          .reward,
        (await judge(t, nearMiss(t, 'patches a note into the cancelled meeting'))).reward,
        // Honest: the instance's status patched, or an EXDATE on the series.
        (await judge(t, [find!, instance!, patch('{{inst}}', { status: 'cancelled' })])).reward,
        (await judge(t, [find!, patch('{{sid}}', { recurrence: [rule, exdate] })])).reward,
      ]
      expect(got).toEqual([1, 0, 0, 0, 1, 1])
    }
  })
})
