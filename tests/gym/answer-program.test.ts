import { afterAll, describe, expect, it } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import { doneStep, httpStep } from '../../gym/program.ts'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import { validateTask } from '../../gym/validate.ts'
import { attackFails, attacks } from '../../gym/attacks/index.ts'

// A small look-up task judged by the `final-answer` oracle: the offsite's start, in the actor's zone.
const task = TaskSpec.parse({
  generatedBy: 'tests/gym/answer-program.test.ts',
  id: 'answer-program-test-1',
  family: 'answer-program-test',
  services: ['calendar'],
  instruction: 'When does the Lisbon offsite start, in my time zone (Europe/Berlin)? Answer with the time.',
  actor: 'u1',
  seed: {
    name: 'answer-program-test',
    now: '2026-11-30T09:00:00Z',
    users: [{ id: 'u1', email: 'ana@acme.test', name: 'Ana Ruiz', timeZone: 'Europe/Berlin' }],
    calendar: {
      events: [
        {
          calendar: 'u1',
          id: 'ev1offsite',
          summary: 'Lisbon offsite',
          start: { dateTime: '2026-12-03T08:30:00Z' },
          end: { dateTime: '2026-12-03T16:00:00Z' },
        },
        {
          calendar: 'u1',
          id: 'ev2offsite',
          summary: 'Lisbon offsite (draft plan)',
          start: { dateTime: '2026-12-02T13:00:00Z' },
          end: { dateTime: '2026-12-02T15:00:00Z' },
        },
      ],
    },
  },
  oracle: {
    id: 'final-answer',
    params: {
      actor: 'u1',
      expected: { kind: 'instant', iso: '2026-12-03T08:30:00Z', zone: 'Europe/Berlin' },
      wrong: [{ kind: 'instant', iso: '2026-12-02T13:00:00Z', zone: 'Europe/Berlin' }],
      secrets: [],
    },
  },
  reference: [
    httpStep(
      'GET',
      '/calendar/v3/calendars/primary/events',
      { query: { q: 'Lisbon offsite', singleEvents: true } },
      { start: 'items[summary=Lisbon offsite].start.dateTime' },
    ),
    doneStep('The offsite starts at {{start}}'),
  ],
  nearMisses: [
    { name: 'the cancelled plan', program: [doneStep('It starts at 14:00 on 2 December')] },
    { name: 'UTC instead of local time', program: [doneStep('It starts at 08:30 on 3 December')] },
  ],
  tags: ['answer'],
})

const gym = createGym({ tasks: [] })
afterAll(() => gym.worlds.close())

describe('answer tasks: reference programs close with done and an answer', () => {
  it('runProgram submits the answer of a done step and stops there', async () => {
    const ep = gym.reset(task)
    const program: ProgramStep[] = [...task.reference, httpStep('DELETE', '/calendar/v3/calendars/primary/events/x')]
    const { statuses } = await runProgram(ep, program)
    expect(statuses).toEqual([200])
    expect(ep.answer).toMatch(/^The offsite starts at 2026-12-03T09:30:00\+01:00$/)
    expect(ep.verify()).toMatchObject({ reward: 1, passed: true })
    ep.close()
  })

  it('validates: no answer, wrong candidates, the echoed instruction and stuffed answers all fail', async () => {
    const v = await validateTask(gym, task)
    expect(v.problems, v.problems.join('\n')).toEqual([])
    expect(v.noop.reward).toBe(0)
    const names = v.attacks.map((a) => `${a.attack}/${a.variant}`)
    expect(names).toContain('answer-echo/instruction as answer')
    expect(names).toContain('right-plus-wrong/stuffed answer')
    for (const a of v.attacks) expect(attackFails(a), `${a.attack}/${a.variant}`).toBe(false)
    // Every attack that changes the world or the answer scores below 1 (the rest did exactly what the reference did).
    for (const a of v.attacks.filter((x) => !x.inert)) expect(a.reward, `${a.attack}/${a.variant}`).toBeLessThan(1)
    expect(v.attacks.filter((x) => !x.inert).length).toBeGreaterThanOrEqual(2)
  })

  it('brute force answers once, after acting on every candidate', () => {
    const bf = attacks.find((a) => a.id === 'brute-force')!.variants(task)
    expect(bf).toHaveLength(1)
  })

  it('a world change during a look-up is collateral', async () => {
    const ep = gym.reset(task)
    await runProgram(ep, [
      httpStep('POST', '/calendar/v3/calendars/primary/events', {
        body: {
          summary: 'note',
          start: { dateTime: '2026-12-05T10:00:00Z' },
          end: { dateTime: '2026-12-05T11:00:00Z' },
        },
      }),
      ...task.reference,
    ])
    const v = ep.verify()
    expect(v.passed).toBe(false)
    expect(v.violations.map((x) => x.kind)).toContain('collateral')
    ep.close()
  })
})
