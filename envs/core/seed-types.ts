import { z } from 'zod'

/**
 * A time in a seed: an absolute RFC 3339 / ISO 8601 string, or a duration relative to the world clock
 * (`now`, `-2d`, `+3h30m`, `-90m`, `+1w`).
 */
export const SeedTime = z.string().min(1)
export type SeedTime = z.infer<typeof SeedTime>

const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }
const RELATIVE = /^([+-])((?:\d+[wdhms])+)$/

/** Resolves a seed time against the world clock; throws a readable error on nonsense. */
export function resolveSeedTime(value: string, nowMs: number): number {
  if (value === 'now') return nowMs
  const rel = RELATIVE.exec(value)
  if (rel) {
    let total = 0
    for (const [, n, unit] of rel[2]!.matchAll(/(\d+)([wdhms])/g)) total += Number(n) * UNIT_MS[unit!]!
    return rel[1] === '-' ? nowMs - total : nowMs + total
  }
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw new Error(`not a time: "${value}" (use ISO 8601, "now", or a relative offset like "-2d3h")`)
  return ms
}

/** Users of the world, shared by every service (Gmail mailbox, Calendar owner, Drive user, Slack member). */
export const SeedUser = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" or "-"'),
  email: z.email(),
  name: z.string().min(1),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  timeZone: z.string().default('America/New_York'),
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
