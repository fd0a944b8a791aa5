import { afterAll } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { gymRouter } from '../../gym/http.ts'
import { createGym } from '../../gym/index.ts'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import { DateTime } from 'luxon'
import { localParts } from '../../oracles/answer.ts'
import { colleague, http, oracleParams as params, thenDone } from './support.ts'

/**
 * The control plane's gym routes over one task, for episodes driven through HTTP (`/gym/reset`, `/step`,
 * `/verify`); `call` posts JSON and reads the answer. The worlds close after the file's tests.
 */
export function gymControl(t: TaskSpec) {
  const worlds = new WorldManager()
  const control = gymRouter(worlds, { agentBaseUrl: 'http://agent.test:8080', gym: createGym({ worlds, tasks: [t] }) })
  afterAll(() => worlds.close())
  return async (path: string, json?: unknown) => {
    const res = await control.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json ?? {}),
    })
    return (await res.json()) as Record<string, any>
  }
}

/** Episodes of one answer task over the gym's HTTP routes: reset, `done` with the answer, verify; the reward. */
export function answerEpisodes(t: TaskSpec) {
  const call = gymControl(t)
  return async (answer: string) => {
    const ep = await call('/gym/reset', { taskId: t.id })
    await call(`/gym/episodes/${ep.episodeId}/step`, { tool: 'done', arguments: { answer } })
    return (await call(`/gym/episodes/${ep.episodeId}/verify`)).reward as number
  }
}

/** Answers of `run` that did not earn `want`. */
export async function missing(run: (a: string) => Promise<number>, answers: string[], want: number) {
  const out: string[] = []
  for (const a of answers) if ((await run(a)) !== want) out.push(a)
  return out
}

type HttpArgs = { method?: string; path?: string; body?: Record<string, unknown> }

/** The reference with its new event's `events.insert` step rewritten by `edit` (every other step as it is). */
export const withEventInsert = (t: TaskSpec, edit: (a: HttpArgs) => HttpArgs): ProgramStep[] =>
  t.reference.map((s) => {
    const a = s.args as HttpArgs
    if (a.method !== 'POST' || !/\/calendar\/v3\/calendars\/[^/]+\/events$/.test(a.path ?? '')) return s
    return { ...s, args: edit(a) } as ProgramStep
  })

/** The families whose task books one meeting on the actor's calendar (red-team rounds 20 and 21). */
export const MEETING_FAMILIES = [
  'gmail-calendar-meeting',
  'calendar-book-room',
  'onboarding-new-hire',
  'offsite-planning',
  'onboarding-moved-start',
  'customer-escalation',
  'incident-postmortem',
]

/** The answer families whose answer is a value (a time, a date, a number or an amount), not a name. */
export const VALUE_ANSWER_FAMILIES = [
  'calendar-freebusy-answer',
  'calendar-offsite-local-time',
  'slack-decision-answer',
  'gmail-thread-count-answer',
  'gmail-search-answer',
  'drive-docs-figure-answer',
]

/** Minutes after midnight as HH:MM (wrapping past midnight). */
export const hhmm = (min: number) =>
  `${String(Math.floor((((min % 1440) + 1440) % 1440) / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`

/**
 * An instant task's expected time in its zone, and a city whose clock differs from that zone at the instant: its name,
 * zone and minutes after midnight there.
 */
export function otherCity(t: TaskSpec): { right: string; city: string; zone: string; there: number } {
  const e = params(t).expected as { iso: string; zone: string }
  const [city, zone] = [
    ['Tokyo', 'Asia/Tokyo'],
    ['New York', 'America/New_York'],
  ].find(([, z]) => localParts(e.iso, z!).minutes !== localParts(e.iso, e.zone).minutes)!
  return {
    right: hhmm(localParts(e.iso, e.zone).minutes),
    city: city!,
    zone: zone!,
    there: localParts(e.iso, zone!).minutes,
  }
}

const money = (v: number) => `$${v.toLocaleString('en-US', { minimumFractionDigits: 2 })}`

/** The expected value as written, another of its kind no planted candidate is, and honest answers with context. */
export function shotgun(t: TaskSpec): { right: string; other: string; honest: string[] } {
  const e = params(t).expected
  if (e.kind === 'instant') {
    const m = localParts(e.iso, e.zone).minutes
    const [right, other] = [hhmm(m), hhmm(m + 180)]
    const utc = hhmm(localParts(e.iso, 'UTC').minutes)
    return {
      right,
      other,
      honest: [
        `Starts ${right}, ends ${hhmm(m + 60)}.`,
        `The common slot is between ${right} and ${hhmm(m + 60)}.`,
        `${right}, two hours after the stand-up at ${hhmm(m - 120)}.`,
        `${right} and ${other} are both free; the first is ${right}.`,
        `${right}, ${utc} UTC.`,
        `${right}. ${other} is the next free slot.`,
      ],
    }
  }
  if (e.kind === 'date') {
    const d = DateTime.fromISO(e.date).setLocale('en-GB')
    const [right, other] = [d.toFormat('d LLLL'), d.plus({ days: 3 }).toFormat('d LLLL')]
    return {
      right,
      other,
      honest: [`${right}, 5 days before ${d.plus({ days: 5 }).toFormat('d LLLL')}.`, `${right}, moved from ${other}.`],
    }
  }
  const cents = !Number.isInteger(e.value) || e.value >= 1000
  const show = (v: number) => (cents ? money(v) : String(v))
  const [right, other] = [show(e.value), show(e.value + 7)]
  return {
    right,
    other,
    honest: [`${right}, 12% of the plan.`, `${right}; ${other} last year.`, `${right} (${other} invited).`],
  }
}

/** A private channel with a colleague invited and removed, `put` before or after the removal. */
export const invitedKicked = (t: TaskSpec, put: ProgramStep, after: boolean) => {
  const create = http(
    'POST',
    '/api/conversations.create',
    { body: { name: 'scratch', is_private: true } },
    {
      c: 'channel.id',
    },
  )
  const find = http('GET', '/api/users.lookupByEmail', { query: { email: colleague(t) } }, { u: 'user.id' })
  const invite = http('POST', '/api/conversations.invite', { body: { channel: '{{c}}', users: '{{u}}' } })
  const kick = http('POST', '/api/conversations.kick', { body: { channel: '{{c}}', user: '{{u}}' } })
  return thenDone(t, after ? [create, find, invite, kick, put] : [create, find, invite, put, kick])
}
