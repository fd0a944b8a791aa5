import type { MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { stmt, type Db } from '../core/db.ts'
import { getMeta, nowMs, setMeta } from '../core/clock.ts'
import { SlackApiError } from '../core/errors/slack.ts'
import type { WorldEnv } from '../core/http.ts'

/**
 * Opt-in rate limiting, per world: world_meta `slack_rate_limit` holds JSON like
 * `{"tiers":{"1":1,"2":20,"3":50,"4":100},"methods":{"chat.postMessage":60}}` (calls per minute of world
 * clock, per method and caller). Over the limit Slack answers HTTP 429 `ratelimited` with `Retry-After`.
 */
export const RateLimitConfig = z.object({
  tiers: z.partialRecord(z.enum(['1', '2', '3', '4']), z.number().int().positive()).default({ '1': 1, '2': 20, '3': 50, '4': 100 }),
  methods: z.record(z.string(), z.number().int().positive()).default({}),
})

const DEFAULT_TIERS = { '1': 1, '2': 20, '3': 50, '4': 100 } as const

/** Limits as a seed (`slack.rateLimits`) or the control plane gives them: omitted parts keep Slack's tiers. */
export type RateLimitInput = z.input<typeof RateLimitConfig>

/** The world's rate limits, or null while they are off (the default). */
export function rateLimitsOf(db: Db): z.output<typeof RateLimitConfig> | null {
  const raw = getMeta(db, 'slack_rate_limit')
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
  'users.list': '2', 'conversations.list': '2', 'conversations.create': '2', 'conversations.invite': '3', 'search.messages': '2',
  'search.files': '2', 'search.all': '2', 'files.list': '3', 'files.upload': '2', 'files.getUploadURLExternal': '4',
  'files.completeUploadExternal': '4', 'reactions.list': '2', 'stars.list': '3', 'reminders.add': '2', 'users.profile.set': '3',
  'users.info': '4', 'auth.test': '4', 'conversations.info': '3', 'conversations.members': '4', 'users.lookupByEmail': '3',
  'team.info': '3', 'emoji.list': '2', 'users.setPresence': '2', 'usergroups.create': '2', 'usergroups.list': '2',
}

export const rateLimit: MiddlewareHandler<WorldEnv> = async (c, next) => {
  const world = c.var.world
  const principal = c.var.principal
  // Tiers not named in the config keep Slack's defaults.
  const config = world && principal ? rateLimitsOf(world.db) : null
  if (!config) return next()
  const method = new URL(c.req.url).pathname.slice(5)
  const special = method === 'chat.postMessage' ? 60 : undefined // Slack: ~1 message per second per channel
  const limit = config.methods[method] ?? special ?? config.tiers[TIERS[method] ?? '3'] ?? DEFAULT_TIERS[TIERS[method] ?? '3']
  const now = nowMs(world.db)
  const window = Math.floor(now / 60_000)
  const count = world.tx((db) => {
    const row = stmt(
      db,
      `INSERT INTO slack_rate_counts (method, user_id, window, count) VALUES (?, ?, ?, 1)
       ON CONFLICT(method, user_id) DO UPDATE SET count = CASE WHEN window = excluded.window THEN count + 1 ELSE 1 END, window = excluded.window
       RETURNING count`,
    ).get(method, principal!.userId, window) as { count: number }
    return row.count
  })
  if (count > limit) {
    const retry = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000))
    throw new SlackApiError('ratelimited', {}, 429, { 'Retry-After': String(retry) })
  }
  return next()
}
