import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { identityLeaverAutoReply } from '../../tasks-lite/families/identity/leaver-autoreply.ts'
import { nearMiss, oracleGym } from './support.ts'

const { judge } = oracleGym()
const failed = (r: { details: { checks: { name: string; ok: boolean }[] } }) =>
  r.details.checks.filter((c) => !c.ok).map((c) => c.name)

// A leaver's own auto-reply through domain-wide delegation while the account stays active: the reference is paid and
// is not a forgery (it acts as the leaver through delegation); every wrong mailbox, window or message is not paid.
describe('identity-leaver-autoreply', () => {
  it.each([1, 2])('seed %i: the reference is paid; the near misses fail on the check they miss', async (seed) => {
    const task = TaskSpec.parse(identityLeaverAutoReply.generate(seed))
    const ref = await judge(task, task.reference)
    expect(failed(ref)).toEqual([])
    expect(ref.violations).toEqual([])
    expect(ref.reward).toBe(1)
    expect((await judge(task, [])).reward).toBeLessThan(1)
    const own = await judge(task, nearMiss(task, "sets the auto-reply on the admin's own mailbox"))
    expect(failed(own)).toContain("the leaver's auto-reply is enabled")
    expect(own.reward).toBeLessThan(0)
    const twin = await judge(task, nearMiss(task, 'sets it on the colleague with the same first name'))
    expect(failed(twin)).toContain("the leaver's auto-reply is enabled")
    expect(twin.reward).toBeLessThan(0)
    expect(failed(await judge(task, nearMiss(task, 'no end date')))).toEqual([
      'it runs through the end date',
      'it stops by the day after the end date',
    ])
    expect(failed(await judge(task, nearMiss(task, 'does not name the manager')))).toEqual([
      "it gives the manager's address",
    ])
    expect(failed(await judge(task, nearMiss(task, 'internal senders only')))).toEqual([
      'senders outside the company get it',
    ])
    const suspended = await judge(task, nearMiss(task, 'suspends the account as well'))
    expect(failed(suspended)).toEqual(['the account stays active (not suspended)'])
    const namesake = await judge(task, nearMiss(task, 'also removes the namesake from a group'))
    expect(namesake.reward).toBeLessThan(1)
  })
})
