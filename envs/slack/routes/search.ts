import { z } from 'zod'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { stmt } from '../../core/db.ts'
import { me, teamDomain, teamId, userById, channelById, isMember, parseJson } from '../store/core.ts'
import { matchMessage, parseQuery, searchableMessages, searchScope, type MessageHit } from '../store/search.ts'
import { turnTaker } from '../../core/turns.ts'
import { nowMs } from '../../core/clock.ts'
import { fileWire, type FileRow } from './files.ts'
import { userWire } from '../map.ts'

export const searchRouter = createSlackRouter()

const args = z.object({
  query: z.string().optional(),
  sort: z.enum(['score', 'timestamp']).optional(),
  sort_dir: z.enum(['asc', 'desc']).optional(),
  count: slackInt().optional(),
  page: slackInt().optional(),
  highlight: slackBool().optional(),
  cursor: z.string().optional(),
  team_id: z.string().optional(),
})
type Args = z.output<typeof args>
const SEARCH = { user: ['search:read'] }

function paging<T>(items: T[], a: Args) {
  const count = Math.min(Math.max(a.count ?? 20, 1), 100)
  const page = Math.max(a.page ?? 1, 1)
  if (page > 100) throw new SlackApiError('invalid_page')
  // No hits: `page_count`/`pages` are 0 (recorded search_messages_empty).
  const pages = Math.ceil(items.length / count)
  const slice = items.slice((page - 1) * count, page * count)
  return {
    slice,
    meta: {
      total: items.length,
      pagination: {
        total_count: items.length,
        page,
        per_page: count,
        page_count: pages,
        first: (page - 1) * count + 1,
        last: (page - 1) * count + slice.length,
      },
      paging: { count, total: items.length, page, pages },
    },
  }
}

/** Bounds on one search query, so no query runs unbounded work (matching, highlighting). */
export const SLACK_QUERY_LIMITS = { chars: 4000, terms: 100 }

/**
 * The query, or `no_query` / `invalid_arguments` past the bounds.
 * Deviation: Slack documents no query limits; past ours the call fails with Slack's generic argument error.
 */
function queryOf(a: Args): string {
  if (!a.query) throw new SlackApiError('no_query')
  if (a.query.length > SLACK_QUERY_LIMITS.chars) throw new SlackApiError('invalid_arguments')
  const terms = a.query.match(/"[^"]*"|\S+/g)?.length ?? 0
  if (terms > SLACK_QUERY_LIMITS.terms) throw new SlackApiError('invalid_arguments')
  return a.query
}

/**
 * Messages matching the query, newest first. Every message of the workspace is looked at, so the scan hands
 * other requests a turn every few milliseconds (envs/core/turns.ts); the rows are read first, as a statement
 * left open across a turn would keep the world's connection busy.
 */
async function matching(c: WorldContext, query: string): Promise<MessageHit[]> {
  const db = c.var.world.db
  // Dates in the searcher's time zone, at the world's clock.
  const q = parseQuery(db, query, { zone: c.var.user.timeZone || 'UTC', nowMs: nowMs(db) })
  const scope = searchScope(db, me(c).id)
  const turns = turnTaker()
  const hits: MessageHit[] = []
  for (const m of searchableMessages(db)) {
    const hit = matchMessage(db, scope, q, m)
    if (hit) hits.push(hit)
    await turns.maybeYield()
  }
  return hits
}

async function messages(c: WorldContext, a: Args) {
  const db = c.var.world.db
  const query = queryOf(a)
  const hits = await matching(c, query)
  const dir = a.sort_dir === 'asc' ? 1 : -1
  if ((a.sort ?? 'score') === 'score') hits.sort((x, y) => y.score - x.score || (x.m.ts < y.m.ts ? 1 : -1))
  else hits.sort((x, y) => (x.m.ts < y.m.ts ? -dir : dir))
  const { slice, meta } = paging(hits, a)
  const matches = slice.map(({ m, ch, score }) => ({
    iid: `${m.channel_id}-${m.ts}`,
    team: teamId(db),
    score,
    channel: {
      id: ch.id,
      is_channel: ch.kind === 'channel',
      is_group: ch.kind === 'group',
      is_im: ch.kind === 'im',
      is_mpim: ch.kind === 'mpim',
      is_shared: false,
      is_org_shared: false,
      is_ext_shared: false,
      is_private: ch.kind !== 'channel',
      name: ch.kind === 'im' ? m.user_id : ch.name,
      pending_shared: [],
      is_pending_ext_shared: false,
      teams: [teamId(db)],
    },
    type: 'message',
    user: m.user_id,
    username: userById(db, m.user_id)?.handle ?? '',
    ts: m.ts,
    text: a.highlight ? highlight(m.text, query) : m.text,
    permalink: `https://${teamDomain(db)}.slack.com/archives/${ch.id}/p${m.ts.replace('.', '')}`,
    no_reactions: true,
  }))
  return { matches, ...meta }
}

/**
 * The `users`/`teams`/`bots` maps beside `messages` (recorded search_messages): each author of a match
 * on this page, with the short profile the real API sends there.
 */
function authors(c: WorldContext, matches: { user: string }[]) {
  const db = c.var.world.db
  const users: Record<string, unknown> = {}
  for (const { user } of matches) {
    const u = userById(db, user)
    if (!u || users[u.id]) continue
    const p = (userWire(db, u).profile ?? {}) as Record<string, unknown>
    users[u.id] = {
      id: u.id,
      name: u.handle,
      is_restricted: u.guest !== '',
      is_ultra_restricted: u.guest === 'ultra_restricted',
      profile: {
        avatar_hash: p.avatar_hash,
        image_72: p.image_72,
        first_name: p.first_name,
        real_name: p.real_name,
        display_name: p.display_name,
        team: teamId(db),
      },
    }
  }
  return { users, teams: {}, bots: {} }
}

/** Wraps matched words in Slack's highlight markers (\ue000 … \ue001). */
const highlight = (text: string, query: string) => {
  const words = query
    .split(/\s+/)
    .filter((w) => w && !w.includes(':') && !w.startsWith('-'))
    .map((w) => w.replace(/"/g, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return words.length ? text.replace(new RegExp(`(${words.join('|')})`, 'gi'), '\ue000$1\ue001') : text
}

function files(c: WorldContext, a: Args) {
  const db = c.var.world.db
  const self = me(c).id
  const words = queryOf(a).toLowerCase().split(/\s+/).filter(Boolean)
  const rows = (
    stmt(db, 'SELECT * FROM slack_files WHERE deleted = 0 AND pending = 0 ORDER BY created DESC').all() as FileRow[]
  ).filter((f) => {
    const chans = parseJson<string[]>(f.channels, [])
    if (
      f.user_id !== self &&
      !chans.some((id) => {
        const ch = channelById(db, id)
        return ch && (ch.kind === 'channel' || isMember(db, id, self))
      })
    )
      return false
    const hay =
      `${f.name} ${f.title} ${f.mimetype.startsWith('text/') && f.data ? f.data.toString('utf8') : ''}`.toLowerCase()
    return words.every((w) => hay.includes(w))
  })
  if (a.sort_dir === 'asc') rows.reverse()
  const { slice, meta } = paging(rows, a)
  return { matches: slice.map((f) => fileWire(c, f)), ...meta }
}

slackMethod(searchRouter, {
  name: 'search.messages',
  args,
  scopes: SEARCH,
  tokens: ['slack_user'],
  handler: async (c, a) => {
    const m = await messages(c, a)
    return { query: a.query ?? '', messages: m, ...authors(c, m.matches) }
  },
})
slackMethod(searchRouter, {
  name: 'search.files',
  args,
  scopes: SEARCH,
  tokens: ['slack_user'],
  handler: (c, a) => ({ query: a.query ?? '', files: files(c, a) }),
})
slackMethod(searchRouter, {
  name: 'search.all',
  args,
  scopes: SEARCH,
  tokens: ['slack_user'],
  handler: async (c, a) => {
    const found = await messages(c, a)
    return { query: a.query ?? '', messages: found, files: files(c, a), posts: { matches: [], total: 0 } }
  },
})
