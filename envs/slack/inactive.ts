import type { MiddlewareHandler } from 'hono'
import { stmt } from '../core/db.ts'
import { SlackApiError } from '../core/errors/slack.ts'
import type { WorldEnv } from '../core/http.ts'

/** Tokens of a member deactivated by admin.users.remove answer `account_inactive`, as Slack's do. */
export const inactiveAccount: MiddlewareHandler<WorldEnv> = async (c, next) => {
  const user = c.var.principal ? c.var.user : undefined
  if (user && c.var.world) {
    const row = stmt(c.var.world.db, 'SELECT deleted FROM slack_users WHERE world_user_id = ?').get(user.id) as { deleted: number } | undefined
    if (row?.deleted) throw new SlackApiError('account_inactive')
  }
  return next()
}
