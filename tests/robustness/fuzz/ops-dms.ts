import type { Fuzz, Op } from './engine.ts'
import { channelsSetup } from './ops-channels.ts'

// Slack direct messages between Ann and Ben, with scheduled messages and reminders that reach their time as the
// world's clock is moved through the control plane (docs/decisions/0448): conversations.open from either side,
// posts by channel id or by the other's user id, both sides' history (paged) with every scheduled message posted
// at its post_at, scheduledMessages.list for those still ahead, reminders fired into each user's Slackbot DM; files
// shared into the DM, read from the other side, deleted by their uploader only (a tombstone in the DM).

const USERS = ['ann', 'ben'] as const
const other = (u: string) => (u === 'ann' ? 'ben' : 'ann')
const sid = (f: Fuzz, u: string) => f.model.slack.users[u]!
/** Seconds a scheduled time is kept clear of the clock read at a check (each request ticks the clock 1 s). */
const MARGIN = 60
/** The clock stays below this (the `channels` family's scheduled messages go out days after the start). */
const CLOCK_CAP = Date.parse('2026-03-12T00:00:00Z')

export type DmModel = {
  id?: string
  /** Messages in the DM by time (`key`: a post's ts, a scheduled message's post_at, which is also its `at`). */
  msgs: { text: string; user: string; key: number; at?: number; file?: string; gone?: boolean }[]
  pending: Record<string, { user: string; text: string; post_at: number }>
  reminders: Record<string, { user: string; text: string; time: number; fired?: boolean }>
  /** Each user's Slackbot DM id, once opened. */
  bot: Record<string, string>
  n: number
}
const dm = (f: Fuzz) => f.model.dms

export async function dmsSetup(f: Fuzz): Promise<void> {
  await channelsSetup(f)
}

async function clock(f: Fuzz, advanceMs = 0): Promise<number> {
  const r = await f.admin('POST', `/worlds/${f.server.entry.id}/clock`, { advanceMs })
  f.equal(r.status, 200, 'clock status')
  const ms = (r.body as { clockMs: number }).clockMs
  f.record('clock', r.status, { advanceMs, ms })
  return ms
}

async function open(f: Fuzz, u = f.rng.pick(USERS)): Promise<string> {
  const r = await f.slackCall(`${u} conversations.open`, true, u, 'conversations.open', { users: sid(f, other(u)) })
  f.check(r.ok, () => `conversations.open: ${JSON.stringify(r.data)}`)
  const id = (r.data.channel as { id: string }).id
  if (dm(f).id) f.equal(id, dm(f).id, 'the DM is one conversation from both sides')
  dm(f).id = id
  const info = await f.slackCall(`${u} conversations.info`, false, u, 'conversations.info', { channel: id })
  f.check(info.ok, () => `conversations.info of the DM: ${JSON.stringify(info.data)}`)
  const ch = info.data.channel as { is_im: boolean; user: string }
  f.equal([ch.is_im, ch.user], [true, sid(f, other(u))], `${u}'s DM info`)
  return id
}

async function post(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const byUser = f.rng.chance(0.3)
  const channel = byUser ? sid(f, other(u)) : (dm(f).id ?? (await open(f, u)))
  const text = `dm${dm(f).n++} ${f.rng.text(40)}`
  const r = await f.slackCall(`${u} chat.postMessage`, true, u, 'chat.postMessage', { channel, text })
  f.check(r.ok, () => `post into the DM: ${JSON.stringify(r.data)}`)
  if (dm(f).id) f.equal(r.data.channel, dm(f).id, 'a post by user id lands in the DM')
  dm(f).id = r.data.channel as string
  dm(f).msgs.push({ text, user: u, key: Number(r.data.ts) })
}

async function schedule(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const channel = dm(f).id ?? (await open(f, u))
  const now = Math.floor((await clock(f)) / 1000)
  const post_at = now + 2 * MARGIN + f.rng.int(3600)
  const text = `sched${dm(f).n++} ${f.rng.text(30)}`
  const r = await f.slackCall(`${u} chat.scheduleMessage`, true, u, 'chat.scheduleMessage', { channel, text, post_at })
  f.check(r.ok, () => `scheduleMessage: ${JSON.stringify(r.data)}`)
  dm(f).pending[r.data.scheduled_message_id as string] = { user: u, text, post_at }
}

async function unschedule(f: Fuzz): Promise<void> {
  const now = Math.floor((await clock(f)) / 1000)
  // Only those well ahead of the clock: one nearer may go out on the next request's tick.
  const ahead = Object.entries(dm(f).pending).filter(([, p]) => p.post_at > now + MARGIN)
  if (!ahead.length) return schedule(f)
  const [id, p] = f.rng.pick(ahead)
  const r = await f.slackCall(`${p.user} chat.deleteScheduledMessage`, true, p.user, 'chat.deleteScheduledMessage', {
    channel: dm(f).id!,
    scheduled_message_id: id,
  })
  f.check(r.ok, () => `deleteScheduledMessage: ${JSON.stringify(r.data)}`)
  delete dm(f).pending[id]
}

async function remind(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const now = Math.floor((await clock(f)) / 1000)
  const time = now + 2 * MARGIN + f.rng.int(3600)
  const text = `rem${dm(f).n++} ${f.rng.text(20)}`
  const r = await f.slackCall(`${u} reminders.add`, true, u, 'reminders.add', { text, time })
  f.check(r.ok, () => `reminders.add: ${JSON.stringify(r.data)}`)
  const rem = r.data.reminder as { id: string; time: number; user: string }
  f.equal([rem.time, rem.user], [time, sid(f, u)], 'reminder time and user')
  dm(f).reminders[rem.id] = { user: u, text, time }
}

type Seen = { ts: string; text: string; user: string; files?: { id: string; mode?: string }[] }

/** A user shares a text file into the DM (files.upload with a comment); the other side can read it. */
async function upload(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const channel = dm(f).id ?? (await open(f, u))
  const text = `file${dm(f).n++} ${f.rng.text(20)}`
  const r = await f.slackCall(`${u} files.upload`, true, u, 'files.upload', {
    channels: channel,
    content: f.rng.text(200),
    filename: `${f.rng.text(20).replaceAll('/', '-')}.txt`,
    initial_comment: text,
  })
  f.check(r.ok, () => `files.upload: ${JSON.stringify(r.data)}`)
  type Shares = { private?: Record<string, { ts: string; share_user_id: string }[]>; public?: unknown }
  const file = r.data.file as { id: string; ims: string[]; name: string; shares: Shares }
  f.equal(file.ims, [channel], 'an uploaded file is in the DM')
  // Its `shares` name the message that carries it (0452).
  const shares = file.shares.private?.[channel] ?? []
  f.equal([file.shares.public, shares.length], [undefined, 1], 'the file is shared once, privately')
  const recent = await f.slackCall(`${u} conversations.history`, false, u, 'conversations.history', {
    channel,
    limit: 5,
  })
  const msg = (recent.data.messages as Seen[]).find((m) => m.files?.[0]?.id === file.id)
  f.check(msg, 'the file message is in the DM')
  f.equal([shares[0]!.ts, shares[0]!.share_user_id], [msg.ts, sid(f, u)], 'the share names the message')
  dm(f).msgs.push({ text, user: u, key: Number(msg.ts), file: file.id })
  const info = await f.slackCall(`${other(u)} files.info`, false, other(u), 'files.info', { file: file.id })
  f.check(info.ok, () => `the other side reads the file: ${JSON.stringify(info.data)}`)
  f.equal((info.data.file as { name: string }).name, file.name, 'file name from the other side')
  f.equal((info.data.file as { shares: Shares }).shares, file.shares, 'the shares the other side sees')
}

/** The uploader deletes a file (the other side may not): gone for both, a tombstone in the DM. */
async function unupload(f: Fuzz): Promise<void> {
  const live = dm(f).msgs.filter((m) => m.file && !m.gone)
  if (!live.length) return upload(f)
  const m = f.rng.pick(live)
  const u = f.rng.chance(0.7) ? m.user : other(m.user)
  const r = await f.slackCall(`${u} files.delete`, true, u, 'files.delete', { file: m.file })
  f.equal(r.ok ? 'ok' : r.data.error, u === m.user ? 'ok' : 'cant_delete_file', `${u} deletes ${m.user}'s file`)
  if (!r.ok) return
  m.gone = true
  for (const x of USERS) {
    const info = await f.slackCall(`${x} files.info`, false, x, 'files.info', { file: m.file })
    f.equal(info.ok ? 'ok' : info.data.error, 'file_not_found', `${x} reads a deleted file`)
  }
}

/** Every message of a conversation as `user` sees it, oldest first, paged 1–4. */
async function history(f: Fuzz, u: string, channel: string): Promise<Seen[]> {
  const out: Seen[] = []
  let cursor: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.slackCall(`${u} conversations.history`, false, u, 'conversations.history', {
      channel,
      limit: 1 + f.rng.int(4),
      ...(cursor ? { cursor } : {}),
    })
    f.check(r.ok, () => `history: ${JSON.stringify(r.data)}`)
    out.push(...(r.data.messages as Seen[]))
    cursor = (r.data.response_metadata as { next_cursor?: string } | undefined)?.next_cursor || undefined
    if (!cursor) break
  }
  for (let i = 1; i < out.length; i++) f.check(out[i - 1]!.ts > out[i]!.ts, 'history runs newest first')
  return out.reverse()
}

/** Moves the clock (or not), then checks the DM from a random side, the pending list and fired reminders. */
async function advance(f: Fuzz): Promise<void> {
  const before = await clock(f)
  const step = before > CLOCK_CAP ? 0 : f.rng.pick([0, 60_000, 600_000, 3_600_000])
  const now = Math.floor((await clock(f, step)) / 1000)
  const model = dm(f)
  // What went out, in time order (of one time, in the order scheduled).
  const due = Object.entries(model.pending).filter(([, p]) => p.post_at <= now)
  for (const [id, p] of due.sort(([, a], [, b]) => a.post_at - b.post_at)) {
    model.msgs.push({ text: p.text, user: p.user, key: p.post_at, at: p.post_at })
    delete model.pending[id]
  }
  // A scheduled message the requests' ticks took past its time went out before the posts made after that.
  model.msgs.sort((a, b) => a.key - b.key)
  const near = new Set(
    Object.values(model.pending)
      .filter((p) => p.post_at <= now + MARGIN)
      .map((p) => p.text),
  )
  if (model.id) {
    const u = f.rng.pick(USERS)
    const got = (await history(f, u, model.id)).filter((m) => !near.has(m.text))
    f.equal(
      got.map((m) => [m.text, m.user]),
      model.msgs.map((m) => [m.text, sid(f, m.user)]),
      `${u}'s DM history`,
    )
    for (const m of model.msgs) {
      const seen = got.find((g) => g.text === m.text)!
      if (m.at !== undefined) f.equal(seen.ts.split('.')[0], String(m.at), `a scheduled message's ts is its post_at`)
      // A deleted file stays in its message as a tombstone.
      const files = seen.files?.map((x) => [x.id, x.mode === 'tombstone'])
      f.equal(files, m.file ? [[m.file, Boolean(m.gone)]] : undefined, `files of ${JSON.stringify(m.text)}`)
    }
    for (const u2 of USERS) {
      const r = await f.slackCall(`${u2} scheduledMessages.list`, false, u2, 'chat.scheduledMessages.list', {
        channel: model.id,
      })
      f.check(r.ok, () => `scheduledMessages.list: ${JSON.stringify(r.data)}`)
      const listed = (r.data.scheduled_messages as { id: string; post_at: number }[]).filter(
        (m) => !near.has(model.pending[m.id]?.text ?? ''),
      )
      const want = Object.entries(model.pending).filter(([, p]) => p.user === u2 && !near.has(p.text))
      f.equal(listed.map((m) => m.id).sort(), want.map(([id]) => id).sort(), `${u2}'s pending in the DM`)
    }
  }
  await reminders(f, now)
}

/** A user's reminders: reminders.list, and each reminder due by `now` fired once into their Slackbot DM. */
async function reminders(f: Fuzz, now: number): Promise<void> {
  const u = f.rng.pick(USERS)
  const mine = Object.entries(dm(f).reminders).filter(([, r]) => r.user === u)
  const l = await f.slackCall(`${u} reminders.list`, false, u, 'reminders.list', {})
  f.check(l.ok, () => `reminders.list: ${JSON.stringify(l.data)}`)
  const listed = (l.data.reminders as { id: string; text: string }[]).map((r) => `${r.id} ${r.text}`)
  f.equal(listed.sort(), mine.map(([id, r]) => `${id} ${r.text}`).sort(), `${u}'s reminders`)
  const fired = mine.filter(([, r]) => r.time <= now)
  if (!fired.length) return
  const o = await f.slackCall(`${u} open Slackbot`, true, u, 'conversations.open', { users: 'USLACKBOT' })
  f.check(o.ok, () => `open the Slackbot DM: ${JSON.stringify(o.data)}`)
  const channel = (o.data.channel as { id: string }).id
  const got = await history(f, u, channel)
  for (const [, r] of fired) {
    const hits = got.filter((m) => m.text === `Reminder: ${r.text}.`)
    f.equal(hits.length, 1, `${u}'s reminder ${JSON.stringify(r.text)} fired once`)
    f.equal(hits[0]!.ts.split('.')[0], String(r.time), `a reminder fires at its time`)
  }
}

export const dmOps: Op[] = [
  { name: 'dms.open', weight: 1, run: (f) => open(f).then(() => undefined) },
  { name: 'dms.post', weight: 3, run: post },
  { name: 'dms.schedule', weight: 3, run: schedule },
  { name: 'dms.unschedule', weight: 1, run: unschedule },
  { name: 'dms.remind', weight: 2, run: remind },
  { name: 'dms.advance', weight: 3, run: advance },
  { name: 'dms.upload', weight: 2, run: upload },
  { name: 'dms.unupload', weight: 1, run: unupload },
]
