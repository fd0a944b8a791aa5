import type { Fuzz, Op, SlackMsg } from './engine.ts'

// Slack: messages, thread replies, edits, deletes, reactions and pins in #general, by two members.

const EMOJI = ['thumbsup', 'tada', 'eyes', 'white_check_mark', '+1']
const canonical = (name: string) => (name === 'thumbsup' ? '+1' : name)

const live = (f: Fuzz) => Object.entries(f.model.slack.msgs).filter(([, m]) => !m.deleted)
const repliesOf = (f: Fuzz, ts: string) =>
  Object.entries(f.model.slack.msgs)
    .filter(([, m]) => m.parent === ts && !m.deleted)
    .map(([t]) => t)
    .sort()

export async function slackSetup(f: Fuzz): Promise<void> {
  const list = await f.slackCall('conversations.list', false, 'ann', 'conversations.list', { limit: 100 })
  const channels = (list.data as { channels: { id: string; name: string }[] }).channels
  f.model.slack.channel = channels.find((c) => c.name === 'general')!.id
  for (const u of ['ann', 'ben']) {
    const me = await f.slackCall('auth.test', false, u, 'auth.test', {})
    f.model.slack.users[u] = me.data.user_id as string
  }
}

async function post(f: Fuzz): Promise<void> {
  const user = f.rng.pick(['ann', 'ben'])
  const parents = live(f).filter(([, m]) => !m.parent)
  const parent = parents.length && f.rng.chance(0.5) ? f.rng.pick(parents)[0] : undefined
  const text = f.rng.text(f.rng.chance(0.1) ? 3000 : 60)
  const broadcast = !!parent && f.rng.chance(0.3)
  const args = {
    channel: f.model.slack.channel,
    text,
    ...(parent ? { thread_ts: parent } : {}),
    ...(broadcast ? { reply_broadcast: true } : {}),
  }
  const r = await f.slackCall('chat.postMessage', true, user, 'chat.postMessage', args)
  f.check(r.ok, () => `postMessage failed: ${JSON.stringify(r.data)}`)
  const ts = r.data.ts as string
  f.equal((r.data.message as { text: string }).text, text, 'posted text')
  f.model.slack.msgs[ts] = {
    user,
    text,
    reactions: {},
    pinned: false,
    ...(parent ? { parent } : {}),
    ...(broadcast ? { broadcast } : {}),
  }
}

/** A tombstone (a deleted parent kept for its replies) is gone for edits, reactions and pins. */
async function tombstone(f: Fuzz): Promise<void> {
  const dead = Object.entries(f.model.slack.msgs).filter(([, m]) => m.deleted)
  if (!dead.length) return remove(f)
  const [ts, m] = f.rng.pick(dead)
  const channel = f.model.slack.channel
  const [method, args] = f.rng.pick([
    ['chat.update', { channel, ts, text: 'back' }],
    ['reactions.add', { channel, timestamp: ts, name: 'eyes' }],
    ['pins.add', { channel, timestamp: ts }],
  ] as const)
  const r = await f.slackCall(method, true, m.user, method, args)
  f.equal(r.ok ? 'ok' : r.data.error, 'message_not_found', `${method} on a tombstone`)
}

async function edit(f: Fuzz): Promise<void> {
  const all = live(f)
  if (!all.length) return post(f)
  const [ts, m] = f.rng.pick(all)
  const text = f.rng.text(80)
  const r = await f.slackCall('chat.update', true, m.user, 'chat.update', { channel: f.model.slack.channel, ts, text })
  f.check(r.ok, () => `chat.update failed: ${JSON.stringify(r.data)}`)
  f.equal(r.data.text, text, 'updated text')
  m.text = text
}

async function remove(f: Fuzz): Promise<void> {
  const all = Object.entries(f.model.slack.msgs)
  if (!all.length) return post(f)
  const [ts, m] = f.rng.pick(all)
  const args = { channel: f.model.slack.channel, ts }
  const r = await f.slackCall('chat.delete', true, m.user, 'chat.delete', args)
  if (m.deleted) return f.check(!r.ok && r.data.error === 'message_not_found', () => `re-delete: ${r.data.error}`)
  f.check(r.ok, () => `chat.delete failed: ${JSON.stringify(r.data)}`)
  // A parent with replies stays as a tombstone; anything else goes.
  if (!m.parent && repliesOf(f, ts).length) m.deleted = true
  else delete f.model.slack.msgs[ts]
  if (m.parent) {
    const parent = f.model.slack.msgs[m.parent]
    if (parent?.deleted && !repliesOf(f, m.parent).length) delete f.model.slack.msgs[m.parent]
  }
}

async function react(f: Fuzz): Promise<void> {
  const all = live(f)
  if (!all.length) return post(f)
  const [ts, m] = f.rng.pick(all)
  const user = f.rng.pick(['ann', 'ben'])
  const name = f.rng.pick(EMOJI)
  const key = canonical(name)
  const had = (m.reactions[key] ?? []).includes(f.model.slack.users[user]!)
  const adding = f.rng.chance(0.6)
  const method = adding ? 'reactions.add' : 'reactions.remove'
  const r = await f.slackCall(method, true, user, method, { channel: f.model.slack.channel, timestamp: ts, name })
  if (adding === had) {
    f.equal(r.ok ? 'ok' : r.data.error, adding ? 'already_reacted' : 'no_reaction', `${method} when had=${had}`)
    return
  }
  f.check(r.ok, () => `${method} failed: ${JSON.stringify(r.data)}`)
  const uid = f.model.slack.users[user]!
  const users = (m.reactions[key] ?? []).filter((u) => u !== uid)
  if (adding) users.push(uid)
  if (users.length) m.reactions[key] = users
  else delete m.reactions[key]
}

async function pin(f: Fuzz): Promise<void> {
  const all = live(f)
  if (!all.length) return post(f)
  const [ts, m] = f.rng.pick(all)
  const adding = f.rng.chance(0.6)
  const method = adding ? 'pins.add' : 'pins.remove'
  const r = await f.slackCall(method, true, 'ann', method, { channel: f.model.slack.channel, timestamp: ts })
  if (adding === m.pinned) {
    f.equal(r.ok ? 'ok' : r.data.error, adding ? 'already_pinned' : 'no_pin', `${method} when pinned=${m.pinned}`)
    return
  }
  f.check(r.ok, () => `${method} failed: ${JSON.stringify(r.data)}`)
  m.pinned = adding
}

type Wire = {
  ts: string
  text: string
  subtype?: string
  thread_ts?: string
  reply_count?: number
  latest_reply?: string
  reply_users?: string[]
  reactions?: { name: string; users: string[]; count: number }[]
}

function compareMessage(f: Fuzz, w: Wire, m: SlackMsg, where: string): void {
  if (m.deleted) return f.equal(w.subtype, 'tombstone', `${where} ${w.ts} subtype`)
  f.equal(w.text, m.text, `${where} ${w.ts} text`)
  const reactions = Object.fromEntries((w.reactions ?? []).map((r) => [r.name, [...r.users].sort()]))
  const want = Object.fromEntries(Object.entries(m.reactions).map(([k, v]) => [k, [...v].sort()]))
  f.equal(Object.keys(reactions).sort(), Object.keys(want).sort(), `${where} ${w.ts} reaction names`)
  for (const r of w.reactions ?? []) f.equal(r.count, r.users.length, `${where} ${w.ts} ${r.name} count`)
  for (const k of Object.keys(want)) f.equal(reactions[k], want[k], `${where} ${w.ts} ${k} users`)
}

async function pages(f: Fuzz, method: string, args: Record<string, unknown>): Promise<Wire[]> {
  const out: Wire[] = []
  let cursor: string | undefined
  for (let i = 0; i < 200; i++) {
    const limit = 1 + f.rng.int(4)
    const r = await f.slackCall(method, false, 'ben', method, { ...args, limit, ...(cursor ? { cursor } : {}) })
    f.check(r.ok, () => `${method} failed: ${JSON.stringify(r.data)}`)
    const got = r.data.messages as Wire[]
    f.check(got.length <= limit + 1, `${method} page of ${got.length} over limit ${limit}`)
    out.push(...got)
    cursor = (r.data.response_metadata as { next_cursor?: string } | undefined)?.next_cursor || undefined
    if (!cursor) return out
  }
  return f.fail(`${method} never ended`)
}

async function history(f: Fuzz): Promise<void> {
  const got = (await pages(f, 'conversations.history', { channel: f.model.slack.channel })).filter(
    (w) => !w.subtype || w.subtype === 'tombstone' || w.subtype === 'thread_broadcast',
  )
  const ids = got.map((w) => w.ts)
  f.equal(ids.length, new Set(ids).size, 'history visits each message once')
  // Top-level messages and replies also sent to the channel.
  const want = Object.entries(f.model.slack.msgs)
    .filter(([, m]) => !m.parent || m.broadcast)
    .map(([ts]) => ts)
  f.equal([...ids].sort(), want.sort(), 'history ids')
  for (const w of got) {
    const m = f.model.slack.msgs[w.ts]!
    compareMessage(f, w, m, 'history')
    if (m.parent) {
      f.equal([w.subtype, w.thread_ts], ['thread_broadcast', m.parent], `broadcast ${w.ts}`)
      continue
    }
    const replies = repliesOf(f, w.ts)
    f.equal(w.reply_count ?? 0, replies.length, `history ${w.ts} reply_count`)
    if (replies.length) {
      f.equal(w.latest_reply, replies[replies.length - 1], `history ${w.ts} latest_reply`)
      const users = [...new Set(replies.map((t) => f.model.slack.users[f.model.slack.msgs[t]!.user]))].sort()
      f.equal([...(w.reply_users ?? [])].sort(), users, `history ${w.ts} reply_users`)
    }
  }
}

async function thread(f: Fuzz): Promise<void> {
  const parents = Object.entries(f.model.slack.msgs).filter(([, m]) => !m.parent)
  if (!parents.length) return post(f)
  const [ts] = f.rng.pick(parents)
  // Asked by the parent's ts or by one of its replies' (Slack answers the whole thread either way).
  const replies = repliesOf(f, ts)
  const asked = replies.length && f.rng.chance(0.3) ? f.rng.pick(replies) : ts
  const got = await pages(f, 'conversations.replies', { channel: f.model.slack.channel, ts: asked })
  const ids = got.map((w) => w.ts)
  f.equal(ids, [ts, ...repliesOf(f, ts)], 'replies ids in order')
  for (const w of got) compareMessage(f, w, f.model.slack.msgs[w.ts]!, 'replies')
}

async function pins(f: Fuzz): Promise<void> {
  const r = await f.slackCall('pins.list', false, 'ben', 'pins.list', { channel: f.model.slack.channel })
  const items = r.data.items as { type: string; message?: { ts: string } }[]
  const got = items.map((i) => i.message?.ts).sort()
  const want = live(f)
    .filter(([, m]) => m.pinned)
    .map(([ts]) => ts)
    .sort()
  f.equal(got, want, 'pins.list')
}

export const slackOps: Op[] = [
  { name: 'slack.post', weight: 6, run: post },
  { name: 'slack.edit', weight: 2, run: edit },
  { name: 'slack.delete', weight: 2, run: remove },
  { name: 'slack.react', weight: 3, run: react },
  { name: 'slack.pin', weight: 2, run: pin },
  { name: 'slack.history', weight: 2, run: history },
  { name: 'slack.thread', weight: 2, run: thread },
  { name: 'slack.pins', weight: 1, run: pins },
  { name: 'slack.tombstone', weight: 1, run: tombstone },
]
