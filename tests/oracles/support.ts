import { afterAll, expect, it } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import type { Episode } from '../../gym/episode.ts'
import { families } from '../../tasks-lite/families/index.ts'

import { httpStep } from '../../gym/program.ts'

export { httpStep as http }

/** A gym for one test file (closed after it) and `judge`: a fresh episode of the task, the program run, its verdict. */
export function oracleGym() {
  const gym = createGym({ tasks: [] })
  afterAll(() => gym.worlds.close())
  const judge = async (t: TaskSpec, program: ProgramStep[]) => {
    const ep = gym.reset(t)
    await runProgram(ep, program)
    return verdictOf(ep)
  }
  return { gym, judge }
}

/** An episode's verdict; the episode is closed after. */
export function verdictOf(ep: Episode) {
  const v = ep.verify()
  ep.close()
  return v
}

/** Seed `seed` of a family's task, parsed as a task file is. */
export const familyTask = (id: string, seed = 1) => TaskSpec.parse(families.find((f) => f.id === id)!.generate(seed))
/** A task's oracle parameters, loosely typed (tests read the planted values they need). */
export const oracleParams = (t: TaskSpec) => t.oracle.params as Record<string, any>
/** The reference's steps without its closing `done`, to add to or change. */
export const referenceSteps = (t: TaskSpec) => t.reference.filter((s) => s.tool !== 'done')
/** The reference's steps (no `done`) with the text of its Gmail send given `extra` before the last paragraph. */
export const withReplyText = (t: TaskSpec, extra: string): ProgramStep[] =>
  referenceSteps(t).map((s) => {
    const args = s.args as { path?: string; body?: any }
    if (args.path !== '/gmail/v1/users/me/messages/send') return s
    const next = JSON.parse(JSON.stringify(args)) as { body: any }
    next.body.raw.$rfc822.text = next.body.raw.$rfc822.text.replace(/\n\n(?=[^\n]*$)/, `${extra}\n\n`)
    return { ...s, args: next } as ProgramStep
  })
/** The reference's closing `done` step (none where it has none). */
export const doneSteps = (t: TaskSpec) => t.reference.filter((s) => s.tool === 'done')
/** The reference's steps without its `done`, then `more`, then the reference's closing `done`, if it has one. */
export const thenDone = (t: TaskSpec, more: ProgramStep[]) => [...referenceSteps(t), ...more, ...doneSteps(t)]
/** A colleague's address in the task's world (the first world user who is not the actor). */
export const colleague = (t: TaskSpec) => {
  const actor = oracleParams(t).actor as string
  const users = (t.seed as { users?: { id: string; email: string }[] }).users ?? []
  return users.find((u) => u.id !== actor)!.email
}
/** The kinds of a verdict's violations. */
export const violationKinds = (v: { violations: { kind: string }[] }) => v.violations.map((x) => x.kind)
/** A Slack `chat.postMessage` step (the posts red-team tests rewrite). */
export const isSlackPost = (s: ProgramStep) => (s.args as { path?: string }).path === '/api/chat.postMessage'

/** A task's near-miss program by name (throws when the family has none of that name). */
export function nearMiss(task: TaskSpec, name: string): ProgramStep[] {
  const n = task.nearMisses.find((x) => x.name === name)
  if (!n) throw new Error(`${task.id}: no near miss "${name}"`)
  return n.program
}

/**
 * The checks every long-horizon family shares: its reference pays 1, the no-op 0 and every near miss < 1, and the
 * reference makes at least 10 calls across at least 3 apps (issue #14's definition of long-horizon).
 */
export function longHorizonBasics(t: TaskSpec, judge: ReturnType<typeof oracleGym>['judge']) {
  it('passes the reference and fails the no-op and every near miss', async () => {
    expect(await judge(t, t.reference)).toMatchObject({ passed: true, reward: 1 })
    expect(await judge(t, [])).toMatchObject({ passed: false, reward: 0 })
    for (const nm of t.nearMisses) expect((await judge(t, nm.program)).reward, nm.name).toBeLessThan(1)
  })

  it('needs at least 10 calls across at least 3 apps in the reference', () => {
    const apps = new Set(t.reference.map((s) => String((s.args as { path: string }).path).split('/')[1]))
    expect(t.reference.length).toBeGreaterThanOrEqual(10)
    expect(apps.size).toBeGreaterThanOrEqual(3)
  })
}

/** A 30-minute "Vendor review" event with `description` on `calendar` (`primary`, or a saved `{{name}}`). */
export const vendorReview = (calendar: string, description: string) =>
  httpStep('POST', `/calendar/v3/calendars/${calendar}/events`, {
    body: {
      summary: 'Vendor review',
      description,
      start: { dateTime: '2026-03-10T10:00:00Z' },
      end: { dateTime: '2026-03-10T10:30:00Z' },
    },
  })

/** The task with a "Team" calendar in its seed, owned by the actor, whose ACL holds `acl`. */
export const withTeamCalendar = (t: TaskSpec, acl: Record<string, unknown>[]): TaskSpec => {
  const seed = t.seed as Record<string, any>
  const team = { key: 'team', owner: oracleParams(t).actor, summary: 'Team', acl }
  return { ...t, seed: { ...seed, calendar: { ...(seed.calendar ?? {}), calendars: [team] } } }
}
