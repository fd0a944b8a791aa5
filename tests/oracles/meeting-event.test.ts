import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { gmailCalendarMeeting } from '../../tasks-lite/families/gmail-calendar-meeting.ts'
import { oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('meeting-event oracle (gmail-calendar-meeting)', () => {
  for (const seed of [1, 2]) {
    const t = TaskSpec.parse(gmailCalendarMeeting.generate(seed))
    it(`passes the reference and fails every near miss (seed ${seed})`, async () => {
      expect(await judge(t, t.reference)).toMatchObject({ passed: true, reward: 1 })
      expect(await judge(t, [])).toMatchObject({ passed: false, reward: 0 })
      for (const nm of t.nearMisses) expect((await judge(t, nm.program)).passed, nm.name).toBe(false)
    })
  }

  it('fails events at both the superseded and the final time, and makes the extra one collateral', async () => {
    const t = TaskSpec.parse(gmailCalendarMeeting.generate(1))
    const v = await judge(t, [...t.nearMisses[0]!.program, ...t.reference])
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'exactly one new event')!.ok).toBe(false)
    expect(v.reward).toBeLessThan(0)
  })

  it('does not count an event that was created and then deleted', async () => {
    const t = TaskSpec.parse(gmailCalendarMeeting.generate(1))
    const ev = t.reference.at(-1)!
    const made = { ...ev, save: { eid: 'id' } }
    const v = await judge(t, [
      ...t.reference.slice(0, -1),
      made,
      http('DELETE', '/calendar/v3/calendars/primary/events/{{eid}}'),
    ])
    expect(v).toMatchObject({ passed: false, reward: 0 })
    expect(v.details.checks.find((c) => c.name === 'exactly one new event')!.ok).toBe(false)
  })
})
