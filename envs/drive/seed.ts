import { z } from 'zod'
import { eq } from 'drizzle-orm'
import { insertRow, stmt, type Db } from '../core/db.ts'
import type { World } from '../core/world.ts'
import type { SeedContext } from '../core/service.ts'
import { SeedTime } from '../core/seed-types.ts'
import { accessProposals, comments, files, permissions, sharedDrives } from './schema.ts'
import { newSharedDriveId } from './store/drives.ts'
import { DEFAULT_DRIVE_COLOR } from './map-drive.ts'
import { nextCounter } from '../core/ids.ts'
import { commentId } from './store/comments.ts'
import { FOLDER, touchFile, writeFile } from './store/files.ts'
import { permissionIdFor } from './store/files.ts'
import { importDocument, initEmptyDocument, SeedSuggestion } from '../docs/render.ts'

const SeedPermission = z.object({
  id: z.string().optional(),
  type: z.enum(['user', 'group', 'domain', 'anyone']),
  role: z.enum(['owner', 'writer', 'commenter', 'reader']),
  /** A world user (id or email) or any address. */
  user: z.string().optional(),
  emailAddress: z.string().optional(),
  domain: z.string().optional(),
  allowFileDiscovery: z.boolean().default(false),
  expiration: SeedTime.optional(),
})

/** A comment thread on a file: the comment, then its replies in order (a reply may resolve or reopen it). */
const SeedComment = z.object({
  author: z.string(),
  content: z.string().min(1),
  /** The text the comment quotes (shown as `quotedFileContent`). */
  quoted: z.string().optional(),
  at: SeedTime.optional(),
  replies: z
    .array(
      z.object({
        author: z.string(),
        content: z.string().default(''),
        at: SeedTime.optional(),
        action: z.enum(['resolve', 'reopen']).optional(),
      }),
    )
    .default([]),
})

const SeedFile = z.object({
  /** Explicit Drive id (kept), else generated. */
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{10,64}$/)
    .optional(),
  /** A name other seed entries can use in `parent`. */
  key: z.string().optional(),
  name: z.string().min(1),
  mimeType: z.string().default('text/plain'),
  owner: z.string(),
  parent: z.string().optional(),
  text: z.string().optional(),
  /** A Google Doc seeded with `text` may carry pending suggestions (the Docs seed's format). */
  suggestions: z.array(SeedSuggestion).optional(),
  base64: z.string().optional(),
  description: z.string().optional(),
  starred: z.boolean().default(false),
  trashed: z.boolean().default(false),
  at: SeedTime.optional(),
  properties: z.record(z.string(), z.string()).optional(),
  permissions: z.array(SeedPermission).default([]),
  comments: z.array(SeedComment).default([]),
  /** Earlier versions of a content file, oldest first (`text` is the current one): one revision each. */
  history: z.array(z.object({ text: z.string(), at: SeedTime, by: z.string().optional() })).default([]),
  /** Who saved the current version when `history` is given (default: the owner). */
  modifiedBy: z.string().optional(),
})

const SeedSharedDrive = z.object({
  /** A name files use in `parent` to sit at the drive's top level. */
  key: z.string(),
  id: z
    .string()
    .regex(/^0A[A-Za-z0-9_-]{8,40}$/)
    .optional(),
  name: z.string().min(1),
  /** A world user; becomes an organizer. */
  creator: z.string(),
  members: z
    .array(
      z.object({
        user: z.string().optional(),
        emailAddress: z.string().optional(),
        role: z.enum(['organizer', 'fileOrganizer', 'writer', 'commenter', 'reader']),
      }),
    )
    .default([]),
  at: SeedTime.optional(),
})

/** A pending access request on a file ("Request access"), for accessproposals.list/resolve. */
const SeedAccessProposal = z.object({
  /** A file key or id. */
  file: z.string(),
  /** Who asks (a world user or any address). */
  requester: z.string(),
  role: z.enum(['reader', 'commenter', 'writer']).default('reader'),
  message: z.string().default(''),
  at: SeedTime.optional(),
})

export const DriveSeed = z
  .object({
    sharedDrives: z.array(SeedSharedDrive).default([]),
    files: z.array(SeedFile).default([]),
    accessProposals: z.array(SeedAccessProposal).default([]),
  })
  .strict()
  .default({ sharedDrives: [], files: [], accessProposals: [] })
export type DriveSeed = z.output<typeof DriveSeed>

/** Writes folders and files in order (a parent must come before its children), with their sharing. */
export function seedDrive(world: World, seed: DriveSeed, ctx: SeedContext): void {
  const db = world.db
  const byKey = new Map<string, string>()
  const driveOf = new Map<string, string>()
  seed.sharedDrives.forEach((d, i) => {
    const path = `drive.sharedDrives[${i}]`
    const creator = ctx.user(d.creator, `${path}.creator`)
    const id = d.id ?? newSharedDriveId(db)
    insertRow(db, sharedDrives, {
      id,
      name: d.name,
      creatorId: creator.id,
      requestId: `seed-${d.key}`,
      createdMs: d.at ? ctx.time(d.at) : ctx.nowMs,
      colorRgb: DEFAULT_DRIVE_COLOR,
    })
    insertRow(db, permissions, {
      fileId: id,
      id: permissionIdFor(db, creator.id),
      type: 'user',
      role: 'organizer',
      emailAddress: creator.email.toLowerCase(),
    })
    d.members.forEach((m, j) => {
      const who = m.user ? ctx.user(m.user, `${path}.members[${j}].user`) : undefined
      const email = (who?.email ?? m.emailAddress)?.toLowerCase()
      if (!email) throw new Error(`${path}.members[${j}]: user or emailAddress is required`)
      const pid = who ? permissionIdFor(db, who.id) : `seed${i}m${j}`
      const grant = { fileId: id, id: pid, type: 'user' as const, role: m.role, emailAddress: email }
      grantPermission(db, { ...grant, domain: null, allowFileDiscovery: false, expirationMs: null }, false)
    })
    byKey.set(d.key, id)
    driveOf.set(id, id)
  })
  seed.files.forEach((f, i) => {
    const path = `drive.files[${i}]`
    const owner = ctx.user(f.owner, `${path}.owner`)
    const parentId = f.parent ? (byKey.get(f.parent) ?? f.parent) : undefined
    const at = f.at ? ctx.time(f.at) : ctx.nowMs
    const isDoc = f.mimeType === 'application/vnd.google-apps.document'
    const content =
      f.mimeType === FOLDER || isDoc
        ? undefined
        : f.base64
          ? Buffer.from(f.base64, 'base64')
          : Buffer.from(f.text ?? '', 'utf8')
    const inDrive = parentId ? (driveOf.get(parentId) ?? null) : null
    if (f.history.length && !content) throw new Error(`${path}.history: only files with content have versions`)
    const first = f.history[0]
    const created = first ? ctx.time(first.at) : at
    const initial = first ? Buffer.from(first.text, 'utf8') : content
    const row = {
      id: writeFile(db, {
        id: f.id,
        name: f.name,
        mimeType: f.mimeType,
        ownerId: owner.id,
        owner,
        parents: parentId ? [parentId] : [],
        content: initial,
        description: f.description,
        createdMs: created,
        modifiedMs: created,
        driveId: inDrive,
      }),
    }
    if (first) {
      const later = [
        ...f.history.slice(1).map((v, k) => ({ ...v, k: k + 1 })),
        { text: f.text ?? '', at: f.at, by: f.modifiedBy, k: -1 },
      ]
      for (const v of later) {
        const who = v.by ? ctx.user(v.by, v.k < 0 ? `${path}.modifiedBy` : `${path}.history[${v.k}].by`) : owner
        const fullText = /^text\//.test(f.mimeType) ? v.text : undefined
        touchFile(db, row.id, who.id, {
          content: Buffer.from(v.text, 'utf8'),
          fullText,
          atMs: v.at ? ctx.time(v.at) : ctx.nowMs,
        })
      }
    }
    if (inDrive) driveOf.set(row.id, inDrive)
    // A Google Doc seeded here starts empty, or with `text` as its paragraphs (one per line).
    if (f.suggestions?.length && !(isDoc && f.text)) {
      throw new Error(`${path}.suggestions: only a Google Doc with text has suggestions`)
    }
    const suggestions = (f.suggestions ?? []).map((s, j) => ({
      ...s,
      author: ctx.user(s.author, `${path}.suggestions[${j}].author`).email,
    }))
    if (isDoc && f.text) {
      let fullText: string
      try {
        fullText = importDocument(db, row.id, f.text.split('\n'), suggestions)
      } catch (err) {
        const ours = err instanceof Error && err.message.startsWith('suggestion')
        throw ours ? new Error(`${path}.suggestions: ${(err as Error).message}`) : err
      }
      stmt(db, 'UPDATE drive_files SET full_text = ? WHERE id = ?').run(fullText, row.id)
    } else if (isDoc) initEmptyDocument(db, row.id, f.name)
    if (f.key) byKey.set(f.key, row.id)
    // Columns the file row was written without, set in one UPDATE (booleans as SQLite integers).
    const extra: [column: string, value: string | number][] = []
    if (f.starred) extra.push(['starred', 1])
    if (f.trashed) extra.push(['trashed', 1], ['explicitly_trashed', 1])
    if (f.properties) extra.push(['properties', JSON.stringify(f.properties)])
    if (extra.length) {
      stmt(db, `UPDATE drive_files SET ${extra.map(([c]) => `"${c}" = ?`).join(', ')} WHERE id = ?`).run(
        ...extra.map(([, v]) => v),
        row.id,
      )
    }
    f.permissions.forEach((p, j) => {
      const ppath = `${path}.permissions[${j}]`
      const who = p.user ? ctx.user(p.user, `${ppath}.user`) : undefined
      const email = who?.email ?? p.emailAddress
      if ((p.type === 'user' || p.type === 'group') && !email)
        throw new Error(`${ppath}: user or emailAddress is required`)
      const id =
        p.id ??
        (who
          ? permissionIdFor(db, who.id)
          : p.type === 'anyone'
            ? p.allowFileDiscovery
              ? 'anyone'
              : 'anyoneWithLink'
            : p.type === 'domain'
              ? `${p.domain}${p.allowFileDiscovery ? '' : 'WithLink'}`
              : `seed${i}x${j}`)
      // The owner already holds the owner permission; a repeated grant keeps the last role given.
      if (who && who.id === owner.id) return
      const values = {
        fileId: row.id,
        id,
        type: p.type,
        role: p.role,
        emailAddress: email?.toLowerCase() ?? null,
        domain: p.domain ?? null,
        allowFileDiscovery: p.allowFileDiscovery,
        expirationMs: p.expiration ? ctx.time(p.expiration) : null,
      }
      grantPermission(db, values, true)
    })
    f.comments.forEach((cm, j) => seedComment(db, ctx, row.id, cm, `${path}.comments[${j}]`))
  })
  seed.accessProposals.forEach((p, i) => {
    const path = `drive.accessProposals[${i}]`
    const fileId = byKey.get(p.file) ?? p.file
    const file = db.select().from(files).where(eq(files.id, fileId)).get()
    if (!file) throw new Error(`${path}.file: no file ${p.file}`)
    const requester = p.requester.includes('@')
      ? p.requester.toLowerCase()
      : ctx.user(p.requester, `${path}.requester`).email.toLowerCase()
    const id = `${nextCounter(db, 'drive.accessProposal')}`.padStart(12, '0')
    insertRow(db, accessProposals, {
      fileId,
      id: `AP${id}`,
      requesterEmail: requester,
      recipientEmail: requester,
      role: p.role,
      message: p.message,
      createdMs: p.at ? ctx.time(p.at) : ctx.nowMs,
    })
  })
}

type PermissionRow = typeof permissions.$inferSelect

/**
 * Writes a seeded grant; one already there (same file and id) takes the new role, and with `withExpiration` its
 * expiration too. A prepared statement: seeding runs it for every grant of every file.
 */
function grantPermission(db: Db, p: Omit<PermissionRow, 'pendingOwner'>, withExpiration: boolean) {
  const set = withExpiration ? 'role = excluded.role, expiration_ms = excluded.expiration_ms' : 'role = excluded.role'
  stmt(
    db,
    'INSERT INTO drive_permissions (file_id, id, type, role, email_address, domain, allow_file_discovery, ' +
      `expiration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (file_id, id) DO UPDATE SET ${set}`,
  ).run(p.fileId, p.id, p.type, p.role, p.emailAddress, p.domain, p.allowFileDiscovery ? 1 : 0, p.expirationMs)
}

function seedComment(
  db: World['db'],
  ctx: SeedContext,
  fileId: string,
  cm: z.output<typeof SeedComment>,
  path: string,
) {
  const at = cm.at ? ctx.time(cm.at) : ctx.nowMs
  const id = commentId(db)
  const quoted = cm.quoted ? JSON.stringify({ mimeType: 'text/html', value: cm.quoted }) : null
  let resolved = false
  const replies = cm.replies.map((r, k) => {
    if (r.action) resolved = r.action === 'resolve'
    if (!r.content && !r.action) throw new Error(`${path}.replies[${k}]: content or action is required`)
    const t = r.at ? ctx.time(r.at) : at
    return {
      fileId,
      id: commentId(db),
      commentId: id,
      authorId: ctx.user(r.author, `${path}.replies[${k}].author`).id,
      content: r.content,
      action: r.action ?? null,
      createdMs: t,
      modifiedMs: t,
    }
  })
  const last = replies.at(-1)?.createdMs ?? at
  insertRow(db, comments, {
    fileId,
    id,
    commentId: null,
    authorId: ctx.user(cm.author, `${path}.author`).id,
    content: cm.content,
    quoted,
    resolved,
    createdMs: at,
    modifiedMs: last,
  })
  for (const r of replies) insertRow(db, comments, r)
}
