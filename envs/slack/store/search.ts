import { DateTime } from 'luxon'
import { stmt, type Db } from '../../core/db.ts'
import { allUsers, canSee, type ChannelRow, type MessageRow } from './core.ts'
import { plainText } from './messages.ts'

/** A parsed Slack search query: words, phrases, exclusions and modifiers. */
export type Query = {
  words: string[]
  phrases: string[]
  excluded: string[]
  inChannels: string[]
  inUsers: string[]
  from: string[]
  to: string[]
  before?: number
  after?: number
  on?: [number, number]
  has: string[]
  isThread: boolean
}

const day = (v: string) => DateTime.fromISO(v, { zone: 'UTC' })

/** Splits a query into terms (quotes keep phrases) and `in:`/`from:`/`before:`/`has:`/`is:` modifiers. */
export function parseQuery(db: Db, q: string): Query {
  const out: Query = {
    words: [],
    phrases: [],
    excluded: [],
    inChannels: [],
    inUsers: [],
    from: [],
    to: [],
    has: [],
    isThread: false,
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
    if (key === 'in') {
      const ch = /^<#([A-Z0-9]+)(\|[^>]*)?>$/.exec(value)
      if (ch) out.inChannels.push(ch[1]!)
      else if (value.startsWith('@') || /^<@/.test(value)) out.inUsers.push(userRef(value))
      else out.inChannels.push(`#${value.replace(/^#/, '').toLowerCase()}`)
    } else if (key === 'from') out.from.push(userRef(value))
    else if (key === 'to') out.to.push(userRef(value))
    else if (key === 'before' && day(value).isValid) out.before = day(value).toMillis() / 1000
    else if (key === 'after' && day(value).isValid) out.after = day(value).plus({ days: 1 }).toMillis() / 1000
    else if ((key === 'on' || key === 'during') && day(value).isValid) {
      const unit =
        key === 'during' && /^\d{4}-\d{2}$/.test(value)
          ? 'month'
          : key === 'during' && /^\d{4}$/.test(value)
            ? 'year'
            : 'day'
      const start = day(value).startOf(unit)
      out.on = [start.toMillis() / 1000, start.plus({ [`${unit}s`]: 1 }).toMillis() / 1000]
    } else if (key === 'has') out.has.push(value.replace(/^:|:$/g, ''))
    else if (key === 'is' && value === 'thread') out.isThread = true
    else if (m[4] !== undefined) (neg ? out.excluded : out.phrases).push(value.toLowerCase())
    else if (neg) out.excluded.push(value.toLowerCase())
    else out.words.push((key ? `${key}:` : '') + value.toLowerCase())
  }
  return out
}

/** A message the viewer can see that matches the query, with a relevance score. */
export type MessageHit = { m: MessageRow; ch: ChannelRow; score: number }

/** What matching a message needs besides the message: the channels the viewer sees, pins and reactions. */
export function searchScope(db: Db, viewer: string) {
  const all = stmt(db, 'SELECT * FROM slack_channels').all() as ChannelRow[]
  const channels = new Map(all.filter((ch) => canSee(db, ch, viewer)).map((c) => [c.id, c]))
  const keys = (sql: string) => new Set((stmt(db, sql).all() as { k: string }[]).map((r) => r.k))
  const pins = keys('SELECT channel_id || ts AS k FROM slack_pins')
  const reacted = keys('SELECT DISTINCT channel_id || ts AS k FROM slack_reactions')
  return { channels, pins, reacted }
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
  if (q.from.length && !q.from.includes(m.user_id)) return undefined
  if (q.inChannels.length && !q.inChannels.some((c) => c === ch.id || c === `#${ch.name}`)) return undefined
  if (q.inUsers.length && !(ch.kind === 'im' && q.inUsers.every((u) => imMembers(ch.id).includes(u)))) return undefined
  const to = q.to.length && !(ch.kind === 'im' && q.to.every((u) => imMembers(ch.id).includes(u) && u !== m.user_id))
  if (to && !q.to.some((u) => m.text.includes(`<@${u}>`))) return undefined
  if (q.isThread && !m.thread_ts) return undefined
  const key = m.channel_id + m.ts
  if (q.has.includes('link') && !/<https?:|https?:\/\//.test(m.text)) return undefined
  if (q.has.includes('pin') && !scope.pins.has(key)) return undefined
  if (q.has.includes('reaction') && !scope.reacted.has(key)) return undefined
  if (q.has.includes('file') && !m.files) return undefined
  const text = plainText(db, m.text).toLowerCase()
  if (q.excluded.some((w) => text.includes(w))) return undefined
  if (!q.words.every((w) => text.includes(w)) || !q.phrases.every((p) => text.includes(p))) return undefined
  let score = 0
  for (const w of [...q.words, ...q.phrases]) score += text.split(w).length - 1
  return { m, ch, score: score + 1 / (1 + text.length / 100) }
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
