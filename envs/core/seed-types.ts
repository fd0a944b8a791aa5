import { z } from 'zod'

/**
 * A time in a seed: an absolute RFC 3339 / ISO 8601 string, or a duration relative to the world clock
 * (`now`, `-2d`, `+3h30m`, `-90m`, `+1w`).
 */
export const SeedTime = z
  .string()
  .min(1)
  .refine((v) => seedTimeProblem(v) === undefined, { error: (i) => seedTimeProblem(String(i.input)) })
export type SeedTime = z.infer<typeof SeedTime>

/** Why a seed time does not parse, or undefined when it does. */
export function seedTimeProblem(value: string): string | undefined {
  try {
    resolveSeedTime(value, 0)
    return undefined
  } catch (e) {
    return (e as Error).message
  }
}

/**
 * Whether a string names an IANA time zone this runtime knows (`Europe/Berlin`, `UTC`). Building the
 * `Intl.DateTimeFormat` that tells costs tens of microseconds and seed validation asks for every user and event, so
 * answers are memoised: a pure function of the name and this process's IANA database (no world state), bounded.
 */
export function isTimeZone(zone: string): boolean {
  let known = timeZones.get(zone)
  if (known === undefined) {
    if (timeZones.size >= 1024) timeZones.clear()
    timeZones.set(zone, (known = checkTimeZone(zone)))
  }
  return known
}
const timeZones = new Map<string, boolean>()

function checkTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return zone.length > 0
  } catch {
    return false
  }
}

/** An IANA time zone name. */
export const SeedTimeZone = z
  .string()
  .refine(isTimeZone, { error: (i) => `unknown IANA time zone "${String(i.input)}"` })

const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }
const RELATIVE = /^([+-])((?:\d+[wdhms])+)$/
/** A calendar date, optionally with a time and offset: what `Date.parse` reads the same way on every runtime. */
const MAX_OFFSET_MS = 1000 * 366 * 86_400_000
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** Resolves a seed time against the world clock; throws a readable error on nonsense. */
export function resolveSeedTime(value: string, nowMs: number): number {
  if (value === 'now') return nowMs
  if (RELATIVE.test(value)) {
    // The whole text is a sign and digit runs each closed by a unit: summed left to right, as a match per run would.
    let total = 0
    let start = 1
    for (let i = 1; i < value.length; i++) {
      const unit = UNIT_MS[value[i]!]
      if (unit === undefined) continue
      total += Number(value.slice(start, i)) * unit
      start = i + 1
    }
    if (total > MAX_OFFSET_MS) throw new Error(`not a time: "${value}" is more than 1000 years away`)
    return value[0] === '-' ? nowMs - total : nowMs + total
  }
  const ms = ABSOLUTE.test(value) && realDate(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(ms))
    throw new Error(`not a time: "${value}" (use ISO 8601, "now", or a relative offset like "-2d3h")`)
  return ms
}

/** Whether the YYYY-MM-DD that starts `value` is a day of the calendar (`Date.parse` takes 2026-02-30 for March 2). */
function realDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const day = new Date(Date.UTC(y, m - 1, d))
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d
}

/** Users of the world, shared by every service (Gmail mailbox, Calendar owner, Drive user, Slack member). */
export const SeedUser = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" or "-"'),
  email: z.email(),
  name: z.string().min(1),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  timeZone: SeedTimeZone.default('America/New_York'),
  title: z.string().default(''),
  admin: z.boolean().default(false),
})
export type SeedUser = z.infer<typeof SeedUser>

/** The core part of every seed document; each service adds its own namespaced key. */
export const CoreSeed = z.object({
  name: z.string().default('inline'),
  description: z.string().optional(),
  /** World clock at creation (absolute). */
  now: z.iso.datetime({ offset: true }).default('2026-03-02T09:00:00Z'),
  /** Milliseconds the clock moves per agent request. */
  tickMs: z.number().int().min(0).max(86_400_000).default(1000),
  domain: z.string().default('example.com'),
  /** Company name shown by Slack team.info and Google profile pages. */
  organization: z.string().default('Example Co'),
  users: z.array(SeedUser).min(1),
})
export type CoreSeed = z.infer<typeof CoreSeed>
