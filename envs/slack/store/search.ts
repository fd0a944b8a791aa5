import { DateTime } from 'luxon'
import { stmt, type Db } from '../../core/db.ts'
import { allUsers, canSee, type ChannelRow, type MessageRow } from './core.ts'
import { plainText } from './messages.ts'
import { nowMs } from '../../core/clock.ts'

/** A parsed Slack search query: words, phrases, exclusions and modifiers (each modifier may be negated with `-`). */
export type Query = {
  words: string[]
  phrases: string[]
  excluded: string[]
  inChannels: string[]
  inUsers: string[]
  from: string[]
  to: string[]
  /** `with:@user`: DMs with them and threads they took part in. */
  with: string[]
  before?: number
  after?: number
  on?: [number, number]
  has: string[]
  isThread: boolean
  /** `is:saved` (and the older `has:star`): saved by the viewer. */
  isSaved: boolean
  /** Negated modifiers (`-from:@bob`, `-in:#random`, `-has:link`, `-is:thread`; a negated date: [start, end) spans). */
  not: { from: string[]; inChannels: string[]; inUsers: string[]; has: string[]; isThread: boolean; dates: number[][] }
}

/** Who searches, for dates: "today", "during:june" and plain dates are days in their time zone at the world's clock. */
export type Searcher = { zone: string; nowMs: number }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october']
MONTHS.push('november', 'december')

/** The span of days a date value names, as [start, end) in epoch seconds, or undefined when it is no date. */
function dateSpan(value: string, who: Searcher): [number, number] | undefined {
  const v = value.toLowerCase()
  const now = DateTime.fromMillis(who.nowMs, { zone: who.zone })
  let start: DateTime | undefined
  let unit: 'day' | 'month' | 'year' = 'day'
  if (v === 'today') start = now.startOf('day')
  else if (v === 'yesterday') start = now.startOf('day').minus({ days: 1 })
  else if (/^\d{4}$/.test(v)) [start, unit] = [DateTime.fromObject({ year: Number(v) }, { zone: who.zone }), 'year']
  else if (/^\d{4}-\d{2}$/.test(v)) [start, unit] = [DateTime.fromISO(v, { zone: who.zone }), 'month']
  else if (/^\d{4}-\d{2}-\d{2}$/.test(v)) start = DateTime.fromISO(v, { zone: who.zone })
  else {
    // A month's name: its most recent occurrence that has begun ("during:december" in March is last December).
    const month = MONTHS.findIndex((name) => name === v || name.slice(0, 3) === v) + 1
    if (month > 0) {
      start = now.set({ month, day: 1 }).startOf('day')
      if (start > now) start = start.minus({ years: 1 })
      unit = 'month'
    }
  }
  if (!start?.isValid) return undefined
  return [start.toMillis() / 1000, start.plus({ [`${unit}s`]: 1 }).toMillis() / 1000]
}

/** Splits a query into terms (quotes keep phrases) and `in:`/`from:`/`with:`/`before:`/`has:`/`is:` modifiers. */
export function parseQuery(db: Db, q: string, who: Searcher = { zone: 'UTC', nowMs: nowMs(db) }): Query {
  const out: Query = {
    words: [],
    phrases: [],
    excluded: [],
    inChannels: [],
    inUsers: [],
    from: [],
    to: [],
    with: [],
    has: [],
    isThread: false,
    isSaved: false,
    not: { from: [], inChannels: [], inUsers: [], has: [], isThread: false, dates: [] },
  }
  const users = allUsers(db)
  const userRef = (v: string) => {
    const m = /^<@([A-Z0-9]+)(\|[^>]*)?>$/.exec(v)
    if (m) return m[1]!
    const h = v.replace(/^@/, '').toLowerCase()
    return users.find((u) => u.handle === h || u.id === v)?.id ?? `?${h}`
  }
  for (const m of q.matchAll(/(-?)(\w+:)?("([^"]*)"|\S+)/g)) {
    const neg = m[1] === '-'
    const key = m[2]?.slice(0, -1).toLowerCase()
    const value = m[4] ?? m[3]!
    const set = neg ? out.not : out
    const span = key && ['before', 'after', 'on', 'during'].includes(key) ? dateSpan(value, who) : undefined
    if (key === 'in') {
      const ch = /^<#([A-Z0-9]+)(\|[^>]*)?>$/.exec(value)
      if (ch) set.inChannels.push(ch[1]!)
      else if (value.startsWith('@') || /^<@/.test(value)) set.inUsers.push(userRef(value))
      else set.inChannels.push(`#${value.replace(/^#/, '').toLowerCase()}`)
    } else if (key === 'from') set.from.push(userRef(value))
    else if (key === 'to') out.to.push(userRef(value))
    else if (key === 'with') out.with.push(userRef(value))
    else if (span && neg) out.not.dates.push(key === 'before' ? [0, span[0]] : key === 'after' ? [span[1], 1e12] : span)
    else if (span && key === 'before') out.before = span[0]
    else if (span && key === 'after') out.after = span[1]
    else if (span) out.on = span
    else if (key === 'has' && value === 'star') out.isSaved = true
    else if (key === 'has') set.has.push(value.replace(/^:|:$/g, '').toLowerCase())
    else if (key === 'is' && value === 'thread') set.isThread = true
    else if (key === 'is' && value === 'saved') out.isSaved = true
    else if (m[4] !== undefined) (neg ? out.excluded : out.phrases).push(value.toLowerCase())
    else if (neg) out.excluded.push(value.toLowerCase())
    // A trailing `*` asks for words starting so: every word here already matches as a part of a word.
    else out.words.push((key ? `${key}:` : '') + value.toLowerCase().replace(/(...)\*+$/, '$1'))
  }
  return out
}

/** A message the viewer can see that matches the query, with a relevance score. */
export type MessageHit = { m: MessageRow; ch: ChannelRow; score: number }

/** What matching a message needs besides the message: the channels the viewer sees, pins, reactions, saved items. */
export function searchScope(db: Db, viewer: string) {
  const all = stmt(db, 'SELECT * FROM slack_channels').all() as ChannelRow[]
  const channels = new Map(all.filter((ch) => canSee(db, ch, viewer)).map((c) => [c.id, c]))
  const keys = (sql: string, ...params: string[]) =>
    new Set((stmt(db, sql).all(...params) as { k: string }[]).map((r) => r.k))
  const pins = keys('SELECT channel_id || ts AS k FROM slack_pins')
  const reacted = keys('SELECT DISTINCT channel_id || ts AS k FROM slack_reactions')
  // `has::emoji:`: a message with that reaction (its key and the emoji's name, NUL-separated).
  const reactions = keys('SELECT DISTINCT channel_id || ts || char(0) || name AS k FROM slack_reactions')
  const saved = keys("SELECT channel_id || ts AS k FROM slack_stars WHERE user_id = ? AND ts <> ''", viewer)
  return { channels, pins, reacted, reactions, saved }
}

const SEARCHABLE =
  "SELECT * FROM slack_messages WHERE subtype IS NULL OR subtype IN ('thread_broadcast','me_message') ORDER BY ts DESC"
/** Every message search looks at, newest first. */
export const searchableMessages = (db: Db): MessageRow[] => stmt(db, SEARCHABLE).all() as MessageRow[]

export type SearchScope = ReturnType<typeof searchScope>

/** The hit for one message, or undefined when it does not match `q` or the viewer cannot see it. */
export function matchMessage(db: Db, scope: SearchScope, q: Query, m: MessageRow): MessageHit | undefined {
  const members = stmt(db, 'SELECT user_id FROM slack_members WHERE channel_id = ?')
  const imMembers = (id: string) => (members.all(id) as { user_id: string }[]).map((r) => r.user_id)
  const ch = scope.channels.get(m.channel_id)
  if (!ch) return undefined
  const sec = Number(m.ts.split('.')[0])
  if (q.before !== undefined && sec >= q.before) return undefined
  if (q.after !== undefined && sec < q.after) return undefined
  if (q.on && (sec < q.on[0] || sec >= q.on[1])) return undefined
  if (q.not.dates.some(([from, to]) => sec >= from! && sec < to!)) return undefined
  const inChannel = (c: string) => c === ch.id || c === `#${ch.name}`
  const inDm = (u: string) => ch.kind === 'im' && imMembers(ch.id).includes(u)
  if (q.from.length && !q.from.includes(m.user_id)) return undefined
  if (q.not.from.includes(m.user_id)) return undefined
  if (q.inChannels.length && !q.inChannels.some(inChannel)) return undefined
  if (q.not.inChannels.some(inChannel)) return undefined
  if (q.inUsers.length && !q.inUsers.every(inDm)) return undefined
  if (q.not.inUsers.some(inDm)) return undefined
  const to = q.to.length && !(ch.kind === 'im' && q.to.every((u) => imMembers(ch.id).includes(u) && u !== m.user_id))
  if (to && !q.to.some((u) => m.text.includes(`<@${u}>`))) return undefined
  if (q.with.length && !q.with.every((u) => withUser(db, ch, m, u, imMembers))) return undefined
  if (q.isThread && !m.thread_ts) return undefined
  if (q.not.isThread && m.thread_ts) return undefined
  const key = m.channel_id + m.ts
  if (q.isSaved && !scope.saved.has(key)) return undefined
  if (!q.has.every((h) => has(scope, m, key, h)) || q.not.has.some((h) => has(scope, m, key, h))) return undefined
  const text = plainText(db, m.text).toLowerCase()
  if (q.excluded.some((w) => text.includes(w))) return undefined
  if (!q.words.every((w) => text.includes(w)) || !q.phrases.every((p) => text.includes(p))) return undefined
  let score = 0
  for (const w of [...q.words, ...q.phrases]) score += text.split(w).length - 1
  return { m, ch, score: score + 1 / (1 + text.length / 100) }
}

/** Whether a message has what `has:` names: a link, a pin, a reaction, a file, or a reaction with that emoji. */
function has(scope: SearchScope, m: MessageRow, key: string, what: string): boolean {
  if (what === 'link') return /<https?:|https?:\/\//.test(m.text)
  if (what === 'pin') return scope.pins.has(key)
  if (what === 'reaction') return scope.reacted.has(key)
  if (what === 'file') return Boolean(m.files)
  return scope.reactions.has(`${key}\0${what}`)
}

/** `with:@user`: a DM or group DM with them, or a thread they wrote in (its parent or a reply). */
function withUser(db: Db, ch: ChannelRow, m: MessageRow, user: string, members: (id: string) => string[]): boolean {
  if (ch.kind === 'im' || ch.kind === 'mpim') return members(ch.id).includes(user)
  if (!m.thread_ts) return false
  const sql = 'SELECT 1 FROM slack_messages WHERE channel_id = ? AND (ts = ? OR thread_ts = ?) AND user_id = ? LIMIT 1'
  return stmt(db, sql).get(ch.id, m.thread_ts, m.thread_ts, user) !== undefined
}

/** Messages matching `q` that `viewer` can see, newest first (routes match them a few at a time instead). */
export function searchMessages(db: Db, viewer: string, q: Query): MessageHit[] {
  const scope = searchScope(db, viewer)
  const out: MessageHit[] = []
  for (const m of searchableMessages(db)) {
    const hit = matchMessage(db, scope, q, m)
    if (hit) out.push(hit)
  }
  return out
}
