import type { World } from '../../../envs/core/world.ts'
import type { WorldUserRow } from '../../../envs/core/world-tables.ts'
import { h, href, qs, type Raw } from '../html.ts'

type Channel = { id: string; name: string; kind: string; isArchived: number; topic: string }
type Message = {
  ts: string
  userId: string
  subtype: string | null
  text: string
  threadTs: string | null
  files: string | null
  editedTs: string | null
}

const LIMIT = 500

function when(ts: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(Math.floor(Number(ts) * 1000)),
  )
}

/** Channels, DMs and group DMs the user belongs to; the chosen one's messages with threads and files. */
export function slackView(world: World, worldId: string, user: WorldUserRow, channelId: string): Raw {
  const db = world.db.$client
  const me = db.prepare('SELECT id FROM slack_users WHERE world_user_id = ?').get(user.id) as { id: string } | undefined
  if (!me) return h`<p class="muted">${user.email} has no Slack account in this world.</p>`
  const handles = new Map(
    (db.prepare('SELECT id, handle FROM slack_users').all() as { id: string; handle: string }[]).map((u) => [
      u.id,
      u.handle,
    ]),
  )
  const channels = db
    .prepare(
      `SELECT c.id, c.name, c.kind, c.is_archived AS isArchived, c.topic FROM slack_channels c
    JOIN slack_members m ON m.channel_id = c.id WHERE m.user_id = ? ORDER BY c.kind, c.name`,
    )
    .all(me.id) as Channel[]
  const label = (c: Channel) => {
    if (c.kind !== 'im' && c.kind !== 'mpim') return `${c.kind === 'group' ? '🔒' : '#'}${c.name}`
    const others = (
      db.prepare('SELECT user_id AS u FROM slack_members WHERE channel_id = ? ORDER BY user_id').all(c.id) as {
        u: string
      }[]
    )
      .filter((r) => r.u !== me.id)
      .map((r) => `@${handles.get(r.u) ?? r.u}`)
    return others.join(', ') || '(yourself)'
  }
  const base = href('worlds', worldId, 'u', user.id, 'slack')
  const current = channels.find((c) => c.id === channelId) ?? channels[0]
  let body: Raw = h`<p class="muted">no conversations</p>`
  if (current) {
    const msgs = db
      .prepare(
        `SELECT ts, user_id AS userId, subtype, text, thread_ts AS threadTs, files, edited_ts AS
      editedTs
      FROM slack_messages WHERE channel_id = ? ORDER BY ts LIMIT ${LIMIT}`,
      )
      .all(current.id) as Message[]
    const replies = new Map<string, Message[]>()
    for (const m of msgs)
      if (m.threadTs && m.threadTs !== m.ts) replies.set(m.threadTs, [...(replies.get(m.threadTs) ?? []), m])
    const fileLine = (m: Message): Raw => {
      const ids = m.files ? (JSON.parse(m.files) as string[]) : []
      if (!ids.length) return h``
      const byId = db.prepare('SELECT id, name, title, mimetype, size FROM slack_files WHERE id = ?')
      const files = ids.map(
        (id) => byId.get(id) as { id: string; name: string; title: string; mimetype: string; size: number } | undefined,
      )
      return h`<div>${files.map(
        (f, i) =>
          h`<span class="att">📎 ${
            f
              ? h`${f.title || f.name} <span
        class="muted">(${f.mimetype},
        ${f.size} bytes)</span>`
              : ids[i]
          }</span> `,
      )}</div>`
    }
    const one = (m: Message): Raw => h`<div class="msg" data-ts="${m.ts}"><b>@${handles.get(m.userId) ?? m.userId}</b>
      <span class="muted">${when(m.ts, user.timeZone)}${m.subtype ? ` · ${m.subtype}` : ''}${
        m.editedTs ? ' · edited' : ''
      }</span>
      <div class="text">${m.text}</div>${fileLine(m)}
      ${(replies.get(m.ts) ?? []).length ? h`<div class="replies">${replies.get(m.ts)!.map(one)}</div>` : ''}</div>`
    body = h`<h2>${label(current)}${current.isArchived ? ' (archived)' : ''}</h2>${
      current.topic
        ? h`<p
      class="muted">${current.topic}</p>`
        : ''
    }
      ${msgs.filter((m) => !m.threadTs || m.threadTs === m.ts).map(one)}`
  }
  return h`<div class="cols"><aside class="side"><ul>${channels.map(
    (c) => h`<li><a href="${base}${qs({ channel: c.id })}"
    class="${c.id === current?.id ? 'on' : ''}">${label(c)}</a></li>`,
  )}</ul></aside><section>${body}</section></div>`
}
