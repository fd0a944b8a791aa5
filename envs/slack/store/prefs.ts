import type { Db } from '../../core/db.ts'
import { parseJson, userById, type ChannelRow } from './core.ts'

/** Channel posting preferences an admin can set (admin.conversations.setConversationPrefs). */
export const PREF_KEYS = ['who_can_post', 'can_thread', 'can_huddle', 'enable_at_here', 'enable_at_channel'] as const
export type Pref = { type: string[]; user: string[] }
type Prefs = Partial<Record<(typeof PREF_KEYS)[number], Pref>>

/** `type:admin,user:U123` → `{type:['admin'], user:['U123']}` (unknown users are dropped). */
export function parsePrefString(db: Db, v: string): Pref {
  const out: Pref = { type: [], user: [] }
  for (const part of v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [k, val] = part.split(':')
    if (k === 'type' && val && ['admin', 'owner', 'regular', 'ra', 'app', 'everyone'].includes(val)) out.type.push(val)
    else if (k === 'user' && val && userById(db, val)) out.user.push(val)
  }
  return out
}

/** The stored preferences with Slack's defaults for keys never set. */
export function channelPrefs(ch: ChannelRow): Required<Omit<Prefs, never>> {
  const stored = parseJson<Prefs & { groups?: string[] }>(ch.prefs, {})
  const empty = () => ({ type: [] as string[], user: [] as string[] })
  return {
    who_can_post: stored.who_can_post ?? empty(),
    can_thread: stored.can_thread ?? empty(),
    can_huddle: stored.can_huddle ?? empty(),
    enable_at_here: stored.enable_at_here ?? empty(),
    enable_at_channel: stored.enable_at_channel ?? empty(),
  }
}

/**
 * Whether `who_can_post` lets this user post: an empty rule means everyone; otherwise the user must be
 * listed or hold a listed role (`admin` covers owners too).
 */
export function mayPost(
  ch: ChannelRow,
  user: { id: string; role: string; is_bot: number },
  pref: 'who_can_post' | 'can_thread' = 'who_can_post',
): boolean {
  const rule = channelPrefs(ch)[pref]
  if (rule.type.length === 0 && rule.user.length === 0) return true
  if (rule.user.includes(user.id) || rule.type.includes('everyone')) return true
  if (rule.type.includes('admin') && user.role !== 'regular') return true
  if (rule.type.includes('owner') && (user.role === 'owner' || user.role === 'primary_owner')) return true
  if (rule.type.includes('app') && user.is_bot) return true
  return rule.type.includes('regular') && user.role === 'regular' && !user.is_bot
}
