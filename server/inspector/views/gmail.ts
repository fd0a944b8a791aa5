import type { World } from '../../../envs/core/world.ts'
import type { WorldUserRow } from '../../../envs/core/world-tables.ts'
import { searchMessages } from '../../../envs/gmail/store/search.ts'
import { parseMime, partText, headerOf, type MimePart } from '../../../envs/gmail/mime/parse.ts'
import { h, href, qs, sandboxed, type Raw } from '../html.ts'

type LabelRow = { id: string; name: string; type: string; total: number; unread: number }
type MsgRow = {
  id: string
  threadId: string
  subject: string
  fromAddr: string
  snippet: string
  internalDate: number
  hasAttachment: number
}

const fmt = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms))

function labelsWithCounts(world: World, userId: string): LabelRow[] {
  return world.db.$client
    .prepare(
      `
    SELECT l.id, l.name, l.type,
      (SELECT COUNT(*) FROM gmail_message_labels ml WHERE ml.user_id = l.user_id AND ml.label_id = l.id) AS total,
      (SELECT COUNT(*) FROM gmail_message_labels ml WHERE ml.user_id = l.user_id AND ml.label_id = l.id
         AND EXISTS (SELECT 1 FROM gmail_message_labels u WHERE u.user_id = ml.user_id AND u.message_id = ml.message_id
           AND u.label_id = 'UNREAD')) AS unread
    FROM gmail_labels l WHERE l.user_id = ? ORDER BY l.type, l.name`,
    )
    .all(userId) as LabelRow[]
}

function labelIdsOf(world: World, userId: string, messageId: string): string[] {
  const sql = 'SELECT label_id AS id FROM gmail_message_labels WHERE user_id = ? AND message_id = ? ORDER BY label_id'
  return (world.db.$client.prepare(sql).all(userId, messageId) as { id: string }[]).map((r) => r.id)
}

/** Labels and the thread list, filtered with the Gmail `q` grammar (the API's own compiler) and/or a label. */
export function gmailView(world: World, worldId: string, user: WorldUserRow, q: string, label: string): Raw {
  const labels = labelsWithCounts(world, user.id)
  let error = ''
  let hits: { id: string; threadId: string }[] = []
  try {
    hits = searchMessages(world.db, user, { q, labelIds: label ? [label] : [] })
  } catch (e) {
    error = (e as Error).message
  }
  const threads = new Map<string, string[]>()
  for (const m of hits) threads.set(m.threadId, [...(threads.get(m.threadId) ?? []), m.id])
  const byId = world.db.$client.prepare(`SELECT id, thread_id AS threadId, subject, from_addr AS fromAddr, snippet,
    internal_date AS internalDate, has_attachment AS hasAttachment FROM gmail_messages WHERE user_id = ? AND id = ?`)
  const base = href('worlds', worldId, 'u', user.id, 'gmail')
  const rows = [...threads].slice(0, 200).map(([threadId, ids]) => {
    const newest = byId.get(user.id, ids[0]) as MsgRow
    const unread = ids.some((id) => labelIdsOf(world, user.id, id).includes('UNREAD'))
    return h`<tr class="thread${unread ? ' unread' : ''}"><td>${newest.fromAddr}</td>
      <td><a href="${base}/t/${encodeURIComponent(threadId)}">${newest.subject || '(no subject)'}</a>
      <span class="muted"> — ${newest.snippet}</span>${
        ids.length > 1 ? h` <span class="muted">(${ids.length})</span>` : ''
      }
      ${newest.hasAttachment ? h` 📎` : ''}</td><td class="muted">${fmt(newest.internalDate, user.timeZone)}</td></tr>`
  })
  return h`<div class="cols"><aside class="side"><ul>${labels.map(
    (l) => h`<li><a href="${base}${qs({ label: l.id })}"
    class="${l.id === label ? 'on' : ''}">${l.name}</a> <span class="muted">${l.total}${
      l.unread
        ? h` · ${l.unread}
      unread`
        : ''
    }</span></li>`,
  )}</ul></aside>
  <section><form class="inline" method="get" action="${base}"><input name="q" size="50" value="${q}"
    placeholder="from:alice has:attachment newer_than:7d"><input type="hidden" name="label"
      value="${label}"><button>Search</button></form>
  ${error ? h`<p class="bad">Invalid query: ${error}</p>` : ''}
  <p class="muted">${threads.size} thread(s)${label ? h` in ${label}` : ''}${q ? h` matching <code>${q}</code>` : ''}
    · newest first</p>
  <table class="threads"><tr><th>From</th><th>Subject</th><th>Date</th></tr>${rows}</table></section></div>`
}

function leaves(p: MimePart, out: MimePart[] = []): MimePart[] {
  if (p.parts.length) p.parts.forEach((c) => leaves(c, out))
  else out.push(p)
  return out
}

/** One thread: each message's headers, its body (HTML in a sandboxed frame, text escaped) and attachments. */
export function gmailThreadView(world: World, worldId: string, user: WorldUserRow, threadId: string): Raw | undefined {
  const rows = world.db.$client
    .prepare(
      `SELECT id, raw, subject, internal_date AS internalDate FROM gmail_messages
    WHERE user_id = ? AND thread_id = ? ORDER BY internal_date, id`,
    )
    .all(user.id, threadId) as { id: string; raw: Buffer; subject: string; internalDate: number }[]
  if (!rows.length) return undefined
  const names = new Map(labelsWithCounts(world, user.id).map((l) => [l.id, l.name]))
  const msgs = rows.map((m) => {
    const root = parseMime(m.raw)
    const parts = leaves(root)
    const html = parts.find((p) => p.mimeType === 'text/html' && !p.isAttachment)
    const plain = parts.find((p) => p.mimeType === 'text/plain' && !p.isAttachment)
    const files = parts.filter((p) => p.isAttachment)
    const head = (n: string) => headerOf(root.headers, n)
    return h`<article class="msg" id="m-${m.id}"><div><b>${head('from') ?? ''}</b>
      <span class="muted">to ${head('to') ?? ''}${head('cc') ? h`, cc ${head('cc')}` : ''} · ${fmt(
        m.internalDate,
        user.timeZone,
      )}</span></div>
      <div class="muted">labels: ${
        labelIdsOf(world, user.id, m.id)
          .map((id) => names.get(id) ?? id)
          .join(', ') || '—'
      }
        · id ${m.id}</div>
      ${
        html
          ? sandboxed(partText(html), `body of ${m.subject}`)
          : h`<pre class="body">${plain ? partText(plain) : ''}</pre>`
      }
      ${
        files.length
          ? h`<div>Attachments: ${files.map(
              (f) => h`<span class="att">📎 ${f.filename} <span
        class="muted">(${f.mimeType},
        ${f.body?.length ?? 0} bytes)</span></span> `,
            )}</div>`
          : ''
      }</article>`
  })
  return h`<h1>${rows[0]!.subject || '(no subject)'}</h1><p class="muted">thread ${threadId} · ${rows.length}
    message(s)</p>${msgs}`
}
