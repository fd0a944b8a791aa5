import { z } from 'zod'
import { stmt, type Db } from '../core/db.ts'
import { getMeta, nowMs, setMeta } from '../core/clock.ts'
import { SlackApiError } from '../core/errors/slack.ts'
import type { World } from '../core/world.ts'
import { ownEntry } from '../core/own-key.ts'

/**
 * Opt-in rate limiting, per world: world_meta `slack_rate_limit` holds JSON like
 * `{"tiers":{"1":1,"2":20,"3":50,"4":100},"methods":{"chat.postMessage":60}}` (calls per minute of world
 * clock, per method and caller). Over the limit Slack answers HTTP 429 `ratelimited` with `Retry-After`.
 */
export const RateLimitConfig = z.object({
  tiers: z
    .partialRecord(z.enum(['1', '2', '3', '4']), z.number().int().positive())
    .default({ '1': 1, '2': 20, '3': 50, '4': 100 }),
  methods: z.record(z.string(), z.number().int().positive()).default({}),
})

const DEFAULT_TIERS = { '1': 1, '2': 20, '3': 50, '4': 100 } as const

/** Limits as a seed (`slack.rateLimits`) or the control plane gives them: omitted parts keep Slack's tiers. */
export type RateLimitInput = z.input<typeof RateLimitConfig>

/** The world's rate limits, or null while they are off (the default). */
export function rateLimitsOf(db: Db): z.output<typeof RateLimitConfig> | null {
  return parseRateLimits(getMeta(db, 'slack_rate_limit'))
}

/** The limits a stored `slack_rate_limit` value holds (null: off, unset or broken). */
export function parseRateLimits(raw: string | undefined): z.output<typeof RateLimitConfig> | null {
  if (!raw) return null
  try {
    const parsed = RateLimitConfig.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null // a broken config never takes the API down
  }
}

/** Switches rate limiting on with these limits, or off (`null`); counters restart either way. */
export function setRateLimits(db: Db, limits: RateLimitInput | null): void {
  setMeta(db, 'slack_rate_limit', limits ? JSON.stringify(RateLimitConfig.parse(limits)) : '')
  stmt(db, 'DELETE FROM slack_rate_counts').run()
}

/** Slack's published tier of a method (Tier 3 unless listed). */
const TIERS: Record<string, '1' | '2' | '3' | '4'> = {
  'users.list': '2',
  'conversations.list': '2',
  'conversations.create': '2',
  'conversations.invite': '3',
  'search.messages': '2',
  'search.files': '2',
  'search.all': '2',
  'files.list': '3',
  'files.upload': '2',
  'files.getUploadURLExternal': '4',
  'files.completeUploadExternal': '4',
  'reactions.list': '2',
  'stars.list': '3',
  'reminders.add': '2',
  'users.profile.set': '3',
  'users.info': '4',
  'auth.test': '4',
  'conversations.info': '3',
  'conversations.members': '4',
  'users.lookupByEmail': '3',
  'team.info': '3',
  'emoji.list': '2',
  'users.setPresence': '2',
  'usergroups.create': '2',
  'usergroups.list': '2',
}

/** Counts one call of `method` by `userId` in this minute of world clock; over the limit, `ratelimited`. */
export function countCall(world: World, config: z.output<typeof RateLimitConfig>, method: string, userId: string) {
  const special = method === 'chat.postMessage' ? 60 : undefined // Slack: ~1 message per second per channel
  // Own keys only: `method` is the URL's text (`/api/constructor` must not find Object.prototype members).
  const tier = ownEntry(TIERS, method) ?? '3'
  const limit = ownEntry(config.methods, method) ?? special ?? config.tiers[tier] ?? DEFAULT_TIERS[tier]
  const now = nowMs(world.db)
  const window = Math.floor(now / 60_000)
  const count = world.tx((db) => {
    const row = stmt(
      db,
      `INSERT INTO slack_rate_counts (method, user_id, window, count) VALUES (?, ?, ?, 1)
       ON CONFLICT(method, user_id) DO UPDATE SET count = CASE WHEN window = excluded.window THEN count + 1 ELSE 1 END, window = excluded.window
       RETURNING count`,
    ).get(method, userId, window) as { count: number }
    return row.count
  })
  if (count > limit) {
    const retry = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000))
    throw new SlackApiError('ratelimited', {}, 429, { 'Retry-After': String(retry) })
  }
}
