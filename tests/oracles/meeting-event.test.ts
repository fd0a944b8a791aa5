import { describe, expect, it } from 'vitest'
import type { WorldState, EntityChange } from '../../envs/core/diff.ts'
import type { Json } from '../../envs/core/service.ts'
import { meetingEvent, type MeetingEventParams } from '../../oracles/families/meeting-event.ts'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import { gmailCalendarMeeting } from '../../tasks-lite/families/gmail-calendar-meeting.ts'

// Calendar has not landed yet: judge the programs' event bodies as if the service had stored them verbatim.
const empty: WorldState = { version: 1, clockMs: 0, users: [], services: {} }
const judge = (t: TaskSpec, program: ProgramStep[]) => {
  const diff: EntityChange[] = program.map((s, i) => ({ op: 'inserted', service: 'calendar', collection: 'events', id: `primary/e${i}`, after: (s.args as { body: Json }).body }))
  return meetingEvent({ initial: empty, final: empty, diff, actions: [], params: t.oracle.params as MeetingEventParams })
}

describe('meeting-event oracle (gmail-calendar-meeting)', () => {
  for (const seed of [1, 2, 3]) {
    const t = TaskSpec.parse(gmailCalendarMeeting.generate(seed))
    it(`passes the reference and fails every near miss (seed ${seed})`, () => {
      expect(judge(t, t.reference)).toMatchObject({ passed: true, reward: 1 })
      expect(judge(t, [])).toMatchObject({ passed: false, reward: 0 })
      for (const nm of t.nearMisses) expect(judge(t, nm.program).passed, nm.name).toBe(false)
    })
  }

  it('reports other calendar changes as collateral', () => {
    const t = TaskSpec.parse(gmailCalendarMeeting.generate(1))
    const body = (t.reference[0]!.args as { body: Json }).body
    const diff: EntityChange[] = [
      { op: 'inserted', service: 'calendar', collection: 'events', id: 'primary/e1', after: body },
      { op: 'deleted', service: 'calendar', collection: 'events', id: 'primary/old', before: { summary: 'x' } },
    ]
    const v = meetingEvent({ initial: empty, final: empty, diff, actions: [], params: t.oracle.params as MeetingEventParams })
    expect(v.violations.map((x) => x.kind)).toEqual(['unrequested_delete'])
    expect(v.reward).toBeLessThan(0)
  })
})
