import { BG_CHANNELS, BG_CHATTER, BG_REACTIONS, BG_REPLIES } from './vocab.ts'
import { DAY, ago, type WorldCtx } from './context.ts'

type Channel = {
  name: string
  purpose: string
  topic?: string
  members: 'all' | string[]
  created: string
  creator: string
}
type Message = {
  key: string
  channel: string
  user: string
  text: string
  at: string
  thread?: string
  reactions?: Record<string, string[]>
}

/** Background Slack: channels with about three months of history, threads, reactions and a few DMs. */
export function backgroundSlack(ctx: WorldCtx, taken: Set<string>): { channels: Channel[]; messages: Message[] } {
  const { r } = ctx
  const ids = ctx.users.map((u) => u.id)
  const channels = BG_CHANNELS.filter((c) => !taken.has(c.name) && !ctx.collides(c.name))
    .slice(0, ctx.vol.channels)
    .map((c) => ({
      name: c.name,
      purpose: c.purpose,
      members: 'all' as const,
      created: ago(r.int(120, 200) * DAY),
      creator: r.pick(ids),
    }))
  const messages: Message[] = []
  const pairs = ids.length > 1 ? ids.slice(1).map((id) => `dm:${ids[0]},${id}`) : []
  const dms = pairs.slice(0, ctx.vol.dms)
  if (!channels.length) return { channels, messages }
  let at = 95 * DAY
  const step = (95 * DAY) / Math.max(1, ctx.vol.messages)
  for (let i = 0; i < ctx.vol.messages; i++) {
    at = Math.max(2, at - r.int(1, Math.ceil(step * 2) - 1))
    const inDm = dms.length > 0 && r.next() < 0.08
    const channel = inDm ? r.pick(dms) : r.pick(channels).name
    const key = `bg-msg-${i}`
    const text = inDm
      ? r.pick([
          'Got a minute later?',
          'Thanks for covering earlier!',
          'Sent you the link.',
          'Running five minutes late.',
        ])
      : r.pick(BG_CHATTER)
    const reactions: Record<string, string[]> = {}
    if (!inDm && r.next() < 0.35)
      for (const e of r.sample(BG_REACTIONS, r.int(1, 2))) reactions[e] = r.sample(ids, r.int(1, ids.length))
    const user = inDm ? r.pick(channel.slice(3).split(',')) : r.pick(ids)
    messages.push({ key, channel, user, text, at: ago(at), ...(Object.keys(reactions).length ? { reactions } : {}) })
    if (!inDm && r.next() < 0.15 && at > 60) {
      const n = r.int(1, 3)
      for (let k = 0; k < n; k++)
        messages.push({
          key: `${key}-r${k}`,
          channel,
          user: r.pick(ids),
          text: r.pick(BG_REPLIES),
          at: ago(at - (k + 1) * r.int(1, 10)),
          thread: key,
        })
    }
  }
  const kept = messages.filter((m) => !ctx.collides(m.text))
  const keys = new Set(kept.map((m) => m.key))
  return { channels, messages: kept.filter((m) => !m.thread || keys.has(m.thread)) }
}
