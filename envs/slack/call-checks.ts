import type { MiddlewareHandler } from 'hono'
import { noteMetaRead, stmt } from '../core/db.ts'
import { getMeta } from '../core/clock.ts'
import { SlackApiError } from '../core/errors/slack.ts'
import type { WorldEnv } from '../core/http.ts'
import { pathOfUrl } from '../core/request-url.ts'
import { countCall, parseRateLimits } from './ratelimit.ts'
import { checkRequiredArgs } from './required.ts'

/** The world's rate-limit setting and the caller's `deleted` flag (NULL when unset / no Slack member). */
const SETTING_AND_DELETED =
  "SELECT (SELECT value FROM world_meta WHERE key = 'slack_rate_limit'), " +
  '(SELECT deleted FROM slack_users WHERE world_user_id = ?)'

/**
 * What every Slack call passes before its method runs, in this order: the world's opt-in rate limit
 * (ratelimit.ts, HTTP 429 `ratelimited`), a member deactivated by admin.users.remove (`account_inactive`, as
 * Slack's tokens of removed members answer), then the method's required arguments (required.ts). One middleware,
 * and one statement reads both the rate-limit setting and the caller's flag (two reads before).
 */
export const callChecks: MiddlewareHandler<WorldEnv> = async (c, next) => {
  const world = c.var.world
  const principal = c.var.principal
  const user = principal ? c.var.user : undefined
  const method = pathOfUrl(c.req.url).slice(5)
  let setting: string | undefined
  let deleted: unknown
  if (world && principal && user) {
    const row = stmt(world.db, SETTING_AND_DELETED).raw(true).get(user.id) as [string | null, number | null]
    noteMetaRead(world.db, 'slack_rate_limit')
    setting = row[0] ?? undefined
    deleted = row[1]
  } else if (world && principal) setting = getMeta(world.db, 'slack_rate_limit')
  // Tiers not named in the config keep Slack's defaults.
  const config = parseRateLimits(setting)
  if (config) countCall(world, config, method, principal!.userId)
  if (deleted) throw new SlackApiError('account_inactive')
  checkRequiredArgs(method, c.var.slackArgs ?? {})
  return next()
}
