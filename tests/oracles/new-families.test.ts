import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { gmailCalendarFamilies } from '../../tasks-lite/families/groups/gmail-calendar.ts'
import { calendarFamilies } from '../../tasks-lite/families/groups/calendar.ts'
import { crossAppFamilies } from '../../tasks-lite/families/groups/cross-app.ts'
import { oracleGym } from './support.ts'

const { judge } = oracleGym()
const families = [...gmailCalendarFamilies, ...calendarFamilies, ...crossAppFamilies]

// Action families of the gmail-calendar, calendar and cross-app groups: the reference earns 1, doing nothing and
// every near miss earn less, and the long-horizon ones really take >= 10 calls over >= 3 apps.
describe.each(families.map((f) => [f.id, f] as const))('%s', (_id, family) => {
  it.each([1, 2])('seed %i', async (seed) => {
    const task = TaskSpec.parse(family.generate(seed))
    const ref = await judge(task, task.reference)
    expect(ref.reward, JSON.stringify(ref.details.checks.filter((c) => !c.ok))).toBe(1)
    expect((await judge(task, [])).reward).toBeLessThanOrEqual(0)
    for (const nm of task.nearMisses) expect((await judge(task, nm.program)).reward, nm.name).toBeLessThan(1)
    if (task.tags.includes('long-horizon')) {
      expect(task.reference.length).toBeGreaterThanOrEqual(10)
      expect(task.services.length).toBeGreaterThanOrEqual(3)
    }
  })
})

describe('gmail-draft-reply', () => {
  it('sending the reply instead of drafting it is not paid and the sent mail is collateral', async () => {
    const family = gmailCalendarFamilies.find((f) => f.id === 'gmail-draft-reply')!
    const task = TaskSpec.parse(family.generate(3))
    const sends = task.nearMisses.find((n) => n.name === 'sends instead of drafting')!
    const v = await judge(task, sends.program)
    expect(v.passed).toBe(false)
    expect(v.violations.map((x) => x.kind)).toContain('collateral')
  })
})
