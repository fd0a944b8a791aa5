import type { World } from '../../../envs/core/world.ts'
import type { WorldUserRow } from '../../../envs/core/world-tables.ts'
import { renderDocument } from '../../../envs/docs/render.ts'
import { h, href, sandboxed, type Raw } from '../html.ts'

type FileRow = {
  id: string
  name: string
  mimeType: string
  ownerId: string
  parents: string
  trashed: number
  modifiedMs: number
  size: number | null
  driveId: string | null
  version: number
}

const FOLDER = 'application/vnd.google-apps.folder'
const DOC = 'application/vnd.google-apps.document'
const LIMIT = 2000
const when = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms))

const COLS = `f.id, f.name, f.mime_type AS mimeType, f.owner_id AS ownerId, f.parents, f.trashed, f.modified_ms AS
  modifiedMs,
  f.size, f.drive_id AS driveId, f.version`

/** Files the user owns or holds a user/anyone/domain permission on (the inspector's approximation of "visible"). */
function visibleFiles(world: World, user: WorldUserRow): FileRow[] {
  const domain = user.email.split('@')[1] ?? ''
  const sql = `SELECT ${COLS} FROM drive_files f WHERE f.owner_id = ? OR EXISTS (SELECT 1 FROM drive_permissions p
    WHERE p.file_id IN (f.id, f.drive_id) AND (p.email_address = ? COLLATE NOCASE OR p.type = 'anyone'
    OR (p.type = 'domain' AND p.domain = ?))) ORDER BY f.name, f.id LIMIT ${LIMIT}`
  return world.db.$client.prepare(sql).all(user.id, user.email, domain) as FileRow[]
}

/** The folder tree (nested by parents) of what the user can see, folders first. */
export function driveView(world: World, worldId: string, user: WorldUserRow): Raw {
  const rows = visibleFiles(world, user)
  const ids = new Set(rows.map((r) => r.id))
  const children = new Map<string, FileRow[]>()
  for (const r of rows) {
    const parent = (JSON.parse(r.parents) as string[]).find((p) => ids.has(p)) ?? ''
    children.set(parent, [...(children.get(parent) ?? []), r])
  }
  const base = href('worlds', worldId, 'u', user.id, 'drive')
  const tree = (parent: string, depth: number): Raw => {
    const list = (children.get(parent) ?? []).sort(
      (a, b) => Number(b.mimeType === FOLDER) - Number(a.mimeType === FOLDER) || a.name.localeCompare(b.name),
    )
    if (!list.length || depth > 30) return h``
    return h`<ul class="tree">${list.map(
      (f) => h`<li>${f.mimeType === FOLDER ? '📁' : f.mimeType === DOC ? '📄' : '🗎'}
      <a href="${base}/f/${encodeURIComponent(f.id)}">${f.name}</a>${
        f.trashed ? h` <span class="bad">trashed</span>` : ''
      }
      <span class="muted">${f.ownerId === user.id ? '' : `shared · `}${when(f.modifiedMs, user.timeZone)}</span>
      ${tree(f.id, depth + 1)}</li>`,
    )}</ul>`
  }
  return h`<p class="muted">${rows.length} item(s) visible to ${user.email}${
    rows.length >= LIMIT
      ? ` (first
    ${LIMIT})`
      : ''
  }</p>
    <div class="card">${tree('', 0)}</div>`
}

/** One file: metadata, sharing, revisions, and its content (a Google Doc rendered, text shown escaped). */
export function driveFileView(world: World, worldId: string, user: WorldUserRow, fileId: string): Raw | undefined {
  const f = world.db.$client
    .prepare(
      `SELECT ${COLS}, f.description, f.full_text AS fullText, f.content FROM
    drive_files f
    WHERE f.id = ?`,
    )
    .get(fileId) as (FileRow & { description: string; fullText: string; content: Buffer | null }) | undefined
  if (!f) return undefined
  const email = (id: string) =>
    (world.db.$client.prepare('SELECT email FROM world_users WHERE id = ?').get(id) as { email: string } | undefined)
      ?.email ?? id
  const perms = world.db.$client
    .prepare(
      `SELECT id, type, role, email_address AS email, domain, expiration_ms AS exp
    FROM drive_permissions WHERE file_id = ? ORDER BY id`,
    )
    .all(f.id) as {
    id: string
    type: string
    role: string
    email: string | null
    domain: string | null
    exp: number | null
  }[]
  const revs = world.db.$client
    .prepare(
      `SELECT id, modified_ms AS modifiedMs, user_id AS userId, mime_type AS
    mimeType, size,
    keep_forever AS keep FROM drive_revisions WHERE file_id = ? ORDER BY modified_ms, id`,
    )
    .all(f.id) as {
    id: string
    modifiedMs: number
    userId: string
    mimeType: string
    size: number | null
    keep: number
  }[]
  let content: Raw = h``
  if (f.mimeType === DOC)
    content = sandboxed(
      renderDocument(world.db, f.id, 'text/html').toString('utf8'),
      `document
    ${f.name}`,
    )
  else if (f.mimeType === FOLDER) content = h``
  else if (f.content && /^(text\/|application\/json)/.test(f.mimeType))
    content = h`<pre>${f.content.toString('utf8').slice(0, 20000)}</pre>`
  else if (f.fullText) content = h`<pre>${f.fullText.slice(0, 20000)}</pre>`
  const shared = perms.some((p) => p.type === 'anyone') ? h` <span class="bad">public link</span>` : ''
  return h`<h1>${f.name}</h1><p class="muted">${f.mimeType} · owner ${email(f.ownerId)} · version ${f.version} ·
    modified ${when(f.modifiedMs, user.timeZone)}${f.size !== null ? ` · ${f.size} bytes` : ''}${
      f.trashed ? ' · trashed' : ''
    }</p>
    ${f.description ? h`<p>${f.description}</p>` : ''}
    <h2>Sharing${shared}</h2><table class="perms"><tr><th>Who</th><th>Type</th><th>Role</th><th>Expires</th></tr>
    ${perms.map(
      (p) => h`<tr><td>${
        p.email ?? p.domain ?? (p.type === 'anyone' ? 'anyone with the link' : p.id)
      }</td><td>${p.type}</td>
      <td>${p.role}</td><td>${p.exp === null ? '—' : new Date(p.exp).toISOString()}</td></tr>`,
    )}</table>
    <h2>Revisions</h2>${
      revs.length
        ? h`<table
      class="revs"><tr><th>Id</th><th>Modified</th><th>By</th><th>Type</th><th>Size</th></tr>
    ${revs.map(
      (r) => h`<tr><td>${r.id}${r.keep ? ' (kept)' : ''}</td><td>${when(
        r.modifiedMs,
        user.timeZone,
      )}</td><td>${email(r.userId)}</td>
      <td>${r.mimeType}</td><td>${r.size ?? '—'}</td></tr>`,
    )}</table>`
        : h`<p class="muted">none stored</p>`
    }
    ${content.html ? h`<h2>Content</h2>${content}` : ''}`
}

/** The Google Docs the user can see, newest first, each opening its rendered document. */
export function docsView(world: World, worldId: string, user: WorldUserRow): Raw {
  const docs = visibleFiles(world, user)
    .filter((f) => f.mimeType === DOC)
    .sort((a, b) => b.modifiedMs - a.modifiedMs)
  const base = href('worlds', worldId, 'u', user.id, 'drive')
  return h`<table class="docs"><tr><th>Document</th><th>Modified</th><th>Version</th></tr>${docs.map(
    (d) => h`<tr>
    <td>📄 <a href="${base}/f/${encodeURIComponent(d.id)}">${d.name}</a>${
      d.ownerId === user.id
        ? ''
        : h` <span
      class="muted">shared</span>`
    }</td>
    <td>${when(d.modifiedMs, user.timeZone)}</td><td>${d.version}</td></tr>`,
  )}</table>`
}
