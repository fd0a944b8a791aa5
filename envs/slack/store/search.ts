import { DateTime } from 'luxon'
import { stmt, type Db } from '../../core/db.ts'
import { allUsers, canSee, type ChannelRow, type MessageRow } from './core.ts'
import { plainText } from './messages.ts'

/** A parsed Slack search query: words, phrases, exclusions and modifiers. */
export type Query = {
  words: string[]; phrases: string[]; excluded: string[]; inChannels: string[]; inUsers: string[]; from: string[]; to: string[]
  before?: number; after?: number; on?: [number, number]; has: string[]; isThread: boolean
}

const day = (v: string) => DateTime.fromISO(v, { zone: 'UTC' })

/** Splits a query into terms (quotes keep phrases) and `in:`/`from:`/`before:`/`has:`/`is:` modifiers. */
export function parseQuery(db: Db, q: string): Query {
  const out: Query = { words: [], phrases: [], excluded: [], inChannels: [], inUsers: [], from: [], to: [], has: [], isThread: false }
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
      const unit = key === 'during' && /^\d{4}-\d{2}$/.test(value) ? 'month' : key === 'during' && /^\d{4}$/.test(value) ? 'year' : 'day'
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

/** Messages the viewer can see that match the query, with a relevance score. */
export function searchMessages(db: Db, viewer: string, q: Query): { m: MessageRow; ch: ChannelRow; score: number }[] {
  const channels = new Map((stmt(db, 'SELECT * FROM slack_channels').all() as ChannelRow[]).filter((ch) => canSee(db, ch, viewer) && (ch.kind === 'channel' ? true : true)).map((c) => [c.id, c]))
  const out: { m: MessageRow; ch: ChannelRow; score: number }[] = []
  const pins = new Set((stmt(db, 'SELECT channel_id || ts AS k FROM slack_pins').all() as { k: string }[]).map((r) => r.k))
  const reacted = new Set((stmt(db, 'SELECT DISTINCT channel_id || ts AS k FROM slack_reactions').all() as { k: string }[]).map((r) => r.k))
  const imMembers = (id: string) => (stmt(db, 'SELECT user_id FROM slack_members WHERE channel_id = ?').all(id) as { user_id: string }[]).map((r) => r.user_id)
  for (const m of stmt(db, "SELECT * FROM slack_messages WHERE subtype IS NULL OR subtype IN ('thread_broadcast','me_message') ORDER BY ts DESC").iterate() as Iterable<MessageRow>) {
    const ch = channels.get(m.channel_id)
    if (!ch) continue
    const sec = Number(m.ts.split('.')[0])
    if (q.before !== undefined && sec >= q.before) continue
    if (q.after !== undefined && sec < q.after) continue
    if (q.on && (sec < q.on[0] || sec >= q.on[1])) continue
    if (q.from.length && !q.from.includes(m.user_id)) continue
    if (q.inChannels.length && !q.inChannels.some((c) => c === ch.id || c === `#${ch.name}`)) continue
    if (q.inUsers.length && !(ch.kind === 'im' && q.inUsers.every((u) => imMembers(ch.id).includes(u)))) continue
    if (q.to.length && !(ch.kind === 'im' && q.to.every((u) => imMembers(ch.id).includes(u) && u !== m.user_id)) && !q.to.some((u) => m.text.includes(`<@${u}>`))) continue
    if (q.isThread && !m.thread_ts) continue
    const key = m.channel_id + m.ts
    if (q.has.includes('link') && !/<https?:|https?:\/\//.test(m.text)) continue
    if (q.has.includes('pin') && !pins.has(key)) continue
    if (q.has.includes('reaction') && !reacted.has(key)) continue
    if (q.has.includes('file') && !m.files) continue
    const text = plainText(db, m.text).toLowerCase()
    if (q.excluded.some((w) => text.includes(w))) continue
    if (!q.words.every((w) => text.includes(w)) || !q.phrases.every((p) => text.includes(p))) continue
    let score = 0
    for (const w of [...q.words, ...q.phrases]) score += text.split(w).length - 1
    out.push({ m, ch, score: score + 1 / (1 + text.length / 100) })
  }
  return out
}
