import type { Fuzz, Op } from './engine.ts'

// Slack channel membership across two members: channels created (public or private), invites, kicks, leaves,
// archive and unarchive; checked by conversations.members, users.conversations, conversations.info and by who may
// read and post (docs/decisions/0445).

const USERS = ['ann', 'ben'] as const
type Ch = Fuzz['model']['channels'][string]
const chans = (f: Fuzz) => f.model.channels
const other = (u: string) => (u === 'ann' ? 'ben' : 'ann')
const sid = (f: Fuzz, u: string) => f.model.slack.users[u]!
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort()

export async function channelsSetup(f: Fuzz): Promise<void> {
  for (const u of USERS) {
    if (f.model.slack.users[u]) continue
    const me = await f.slackCall('auth.test', false, u, 'auth.test', {})
    f.model.slack.users[u] = me.data.user_id as string
  }
}

/** What a membership call answers, by the checks in the order Slack makes them. */
const visible = (c: Ch, u: string) => !c.private || c.members.includes(u)
/** What a write into a channel answers first, in Slack's order, for a caller who is not an able member; else none. */
const memberError = (c: Ch, u: string) =>
  !visible(c, u)
    ? 'channel_not_found'
    : c.archived
      ? 'is_archived'
      : !c.members.includes(u)
        ? 'not_in_channel'
        : undefined
const error = (r: { ok: boolean; data: Record<string, unknown> }) => (r.ok ? 'ok' : String(r.data.error))

function pick(f: Fuzz): [string, Ch] | undefined {
  const all = Object.entries(chans(f))
  return all.length ? f.rng.pick(all) : undefined
}

async function create(f: Fuzz): Promise<void> {
  const user = f.rng.pick(USERS)
  const names = Object.values(chans(f)).map((c) => c.name)
  const name = names.length && f.rng.chance(0.1) ? f.rng.pick(names) : `fz-${f.rng.int(1_000_000)}`
  const isPrivate = f.rng.chance(0.4)
  const r = await f.slackCall('conversations.create', true, user, 'conversations.create', {
    name,
    is_private: isPrivate,
  })
  if (names.includes(name)) return f.equal(error(r), 'name_taken', `create of taken ${name}`)
  f.check(r.ok, () => `conversations.create: ${JSON.stringify(r.data)}`)
  const ch = r.data.channel as { id: string; name: string; is_private: boolean; is_member: boolean }
  f.equal([ch.name, ch.is_private, ch.is_member], [name, isPrivate, true], 'created channel')
  chans(f)[ch.id] = { name, private: isPrivate, members: [user], archived: false }
}

async function invite(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [channel, c] = got
  const user = f.rng.pick(USERS)
  const target = other(user)
  const r = await f.slackCall('conversations.invite', true, user, 'conversations.invite', {
    channel,
    users: sid(f, target),
  })
  const want = memberError(c, user) ?? (c.members.includes(target) ? 'already_in_channel' : 'ok')
  f.equal(error(r), want, `invite into ${channel}`)
  if (r.ok) c.members = sorted([...c.members, target])
}

async function kick(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [channel, c] = got
  const user = f.rng.pick(USERS)
  const target = f.rng.chance(0.1) ? user : other(user)
  const r = await f.slackCall('conversations.kick', true, user, 'conversations.kick', {
    channel,
    user: sid(f, target),
  })
  const want = !visible(c, user)
    ? 'channel_not_found'
    : target === user
      ? 'cant_kick_self'
      : !c.members.includes(user) || !c.members.includes(target)
        ? 'not_in_channel'
        : 'ok'
  f.equal(error(r), want, `kick from ${channel}`)
  if (r.ok) c.members = c.members.filter((m) => m !== target)
}

async function leave(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [channel, c] = got
  const user = f.rng.pick(USERS)
  const r = await f.slackCall('conversations.leave', true, user, 'conversations.leave', { channel })
  const want = !visible(c, user)
    ? 'channel_not_found'
    : c.archived
      ? 'is_archived'
      : c.private && c.members.length === 1
        ? 'last_member'
        : 'ok'
  f.equal(error(r), want, `leave ${channel}`)
  if (!r.ok) return
  f.equal(r.data.not_in_channel ?? false, !c.members.includes(user), 'leave of a non-member says not_in_channel')
  c.members = c.members.filter((m) => m !== user)
}

async function archive(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [channel, c] = got
  const user = f.rng.pick(USERS)
  const method = f.rng.chance(0.5) ? 'conversations.archive' : 'conversations.unarchive'
  const r = await f.slackCall(method, true, user, method, { channel })
  const want = !visible(c, user)
    ? 'channel_not_found'
    : method === 'conversations.unarchive'
      ? c.archived
        ? 'ok'
        : 'not_archived'
      : c.archived
        ? 'already_archived'
        : !c.members.includes(user)
          ? 'not_in_channel'
          : 'ok'
  f.equal(error(r), want, `${method} ${channel}`)
  if (!r.ok) return
  c.archived = method === 'conversations.archive'
  // Slack: "This method unarchives a conversation. The calling user is added to the conversation."
  if (!c.archived) c.members = sorted([...c.members, user])
}

async function post(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [channel, c] = got
  const user = f.rng.pick(USERS)
  const r = await f.slackCall('chat.postMessage', true, user, 'chat.postMessage', { channel, text: f.rng.text(40) })
  f.equal(error(r), memberError(c, user) ?? 'ok', `post into ${channel}`)
}

// Scheduled messages go out days after the world's start, later than any run reaches: they stay pending.
const LATER = Date.parse('2026-03-14T00:00:00Z') / 1000

async function schedule(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [channel, c] = got
  const user = f.rng.pick(USERS)
  const past = f.rng.chance(0.1)
  const post_at = past ? LATER - 86400 * 30 : LATER + f.rng.int(86400 * 5)
  const r = await f.slackCall('chat.scheduleMessage', true, user, 'chat.scheduleMessage', {
    channel,
    text: f.rng.text(40),
    post_at,
  })
  const want = memberError(c, user) ?? (past ? 'time_in_past' : 'ok')
  f.equal(error(r), want, `scheduleMessage into ${channel}`)
  if (r.ok) f.model.scheduled[r.data.scheduled_message_id as string] = { user, channel, post_at }
}

async function unschedule(f: Fuzz): Promise<void> {
  const all = Object.entries(f.model.scheduled)
  if (!all.length) return schedule(f)
  const [id, m] = f.rng.pick(all)
  const user = f.rng.chance(0.8) ? m.user : other(m.user)
  const c = chans(f)[m.channel]!
  const r = await f.slackCall('chat.deleteScheduledMessage', true, user, 'chat.deleteScheduledMessage', {
    channel: m.channel,
    scheduled_message_id: id,
  })
  const want = !visible(c, user) ? 'channel_not_found' : user !== m.user ? 'invalid_scheduled_message_id' : 'ok'
  f.equal(error(r), want, `deleteScheduledMessage by ${user}`)
  if (r.ok) delete f.model.scheduled[id]
}

/** chat.scheduledMessages.list: the caller's pending messages, each once, by channel too. */
async function scheduledList(f: Fuzz): Promise<void> {
  const user = f.rng.pick(USERS)
  const mine = Object.entries(f.model.scheduled).filter(([, m]) => m.user === user)
  const channel = mine.length && f.rng.chance(0.4) ? f.rng.pick(mine)[1].channel : undefined
  const seen: string[] = []
  let cursor: string | undefined
  for (let i = 0; i < 100; i++) {
    const r = await f.slackCall('chat.scheduledMessages.list', false, user, 'chat.scheduledMessages.list', {
      limit: 1 + f.rng.int(3),
      ...(channel ? { channel } : {}),
      ...(cursor ? { cursor } : {}),
    })
    // A private channel the caller has left is not found, even to list their own messages for it.
    if (channel && !visible(chans(f)[channel]!, user)) return f.equal(error(r), 'channel_not_found', 'list by hidden')
    f.check(r.ok, () => `scheduledMessages.list: ${JSON.stringify(r.data)}`)
    seen.push(...(r.data.scheduled_messages as { id: string }[]).map((m) => m.id))
    cursor = (r.data.response_metadata as { next_cursor?: string } | undefined)?.next_cursor || undefined
    if (!cursor) break
  }
  const want = mine.filter(([, m]) => !channel || m.channel === channel).map(([id]) => id)
  f.equal(seen.length, new Set(seen).size, 'scheduledMessages.list lists each once')
  // The `dms` family's messages into the DM are its own to check (some may have gone out meanwhile).
  const here = seen.filter((id) => !f.model.dms.pending[id])
  f.equal(sorted(here), sorted(want), `${user}'s scheduled messages${channel ? ` in ${channel}` : ''}`)
}

/** Every view of membership agrees with the model, for both members. */
async function check(f: Fuzz): Promise<void> {
  const user = f.rng.pick(USERS)
  const excludeArchived = f.rng.chance(0.3)
  const mine: string[] = []
  let cursor: string | undefined
  for (let i = 0; i < 100; i++) {
    const r = await f.slackCall('users.conversations', false, user, 'users.conversations', {
      types: 'public_channel,private_channel',
      exclude_archived: excludeArchived,
      limit: 1 + f.rng.int(3),
      ...(cursor ? { cursor } : {}),
    })
    f.check(r.ok, 'users.conversations')
    mine.push(...(r.data.channels as { id: string }[]).map((c) => c.id))
    cursor = (r.data.response_metadata as { next_cursor?: string } | undefined)?.next_cursor || undefined
    if (!cursor) break
  }
  const want = Object.entries(chans(f))
    .filter(([, c]) => c.members.includes(user) && !(excludeArchived && c.archived))
    .map(([id]) => id)
  f.equal(mine.length, new Set(mine).size, 'users.conversations lists each channel once')
  f.equal(
    sorted(mine.filter((id) => chans(f)[id])),
    sorted(want),
    `users.conversations of ${user} (${excludeArchived})`,
  )
  const got = pick(f)
  if (!got) return
  const [channel, c] = got
  const info = await f.slackCall('conversations.info', false, user, 'conversations.info', {
    channel,
    include_num_members: true,
  })
  if (!visible(c, user)) return f.equal(error(info), 'channel_not_found', `info of ${channel} for a non-member`)
  f.check(info.ok, () => `conversations.info: ${JSON.stringify(info.data)}`)
  const wire = info.data.channel as { is_member: boolean; is_archived: boolean; num_members: number; name: string }
  f.equal(
    [wire.name, wire.is_member, wire.is_archived, wire.num_members],
    [c.name, c.members.includes(user), c.archived, c.members.length],
    `conversations.info of ${channel} for ${user}`,
  )
  const members = await f.slackCall('conversations.members', false, user, 'conversations.members', { channel })
  f.check(members.ok, 'conversations.members')
  f.equal(
    sorted(members.data.members as string[]),
    sorted(c.members.map((u) => sid(f, u))),
    `conversations.members of ${channel}`,
  )
  const history = await f.slackCall('conversations.history', false, user, 'conversations.history', { channel })
  f.check(history.ok, () => `history of visible ${channel} for ${user}: ${JSON.stringify(history.data)}`)
}

export const channelOps: Op[] = [
  { name: 'channels.create', weight: 2, run: create },
  { name: 'channels.invite', weight: 3, run: invite },
  { name: 'channels.kick', weight: 2, run: kick },
  { name: 'channels.leave', weight: 2, run: leave },
  { name: 'channels.archive', weight: 2, run: archive },
  { name: 'channels.post', weight: 2, run: post },
  { name: 'channels.check', weight: 4, run: check },
  { name: 'channels.schedule', weight: 2, run: schedule },
  { name: 'channels.unschedule', weight: 1, run: unschedule },
  { name: 'channels.scheduledList', weight: 1, run: scheduledList },
]
