import { stmt, type Db } from '../../core/db.ts'
import { getMeta } from '../../core/clock.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import type { WorldContext } from '../../core/http.ts'
import { channelById, me, missingField, teamId, type ChannelRow, type UserRow } from './core.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

/** Roles that may use admin.* methods (Slack: Workspace Admins and Owners). */
export const isAdminRole = (role: string) => role === 'admin' || role === 'owner' || role === 'primary_owner'

/**
 * The calling admin. admin.* methods take user tokens only (the slackMethod `tokens` guard answers
 * bots `not_allowed_token_type`); a member who holds the scope but is no admin gets `not_an_admin`.
 */
export function requireAdmin(c: WorldContext, owner = false): UserRow {
  const u = me(c)
  if (owner ? !(u.role === 'owner' || u.role === 'primary_owner') : !isAdminRole(u.role))
    throw new SlackApiError(owner ? 'not_an_owner' : 'not_an_admin')
  return u
}

/** A `team_id` argument must name this workspace. */
export function checkTeam(db: Db, team: string | undefined, required = false) {
  if (team === undefined || team === '') {
    if (required) throw missingField('team_id')
    return
  }
  if (team !== teamId(db)) throw new SlackApiError('team_not_found')
}

/** Comma-separated ids (`C1,C2`), or a JSON array in JSON bodies. */
export function idList(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x !== '')
  if (typeof v !== 'string') return []
  const t = v.trim()
  if (t.startsWith('[')) {
    try {
      return idList(parseJsonWithin(t))
    } catch {
      return []
    }
  }
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/** A public or private channel by id for admin methods; DMs/MPIMs are `channel_type_not_supported`. */
export function adminChannel(db: Db, id: string | undefined): ChannelRow {
  const ch = id ? channelById(db, id) : undefined
  if (!ch) throw new SlackApiError('channel_not_found')
  if (ch.kind === 'im' || ch.kind === 'mpim') throw new SlackApiError('channel_type_not_supported')
  return ch
}

/** The workspace name (admin.teams.settings.setName renames it for Slack only). */
export const teamName = (db: Db) => getMeta(db, 'slack_team_name') ?? getMeta(db, 'organization') ?? 'Example Co'

/** Marks a user's sessions revoked (all, or only one client kind). */
export function revokeSessions(db: Db, userId: string, client?: string) {
  if (client) stmt(db, 'UPDATE slack_sessions SET revoked = 1 WHERE user_id = ? AND client = ?').run(userId, client)
  else stmt(db, 'UPDATE slack_sessions SET revoked = 1 WHERE user_id = ?').run(userId)
}
