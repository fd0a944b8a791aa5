import { hash } from 'node:crypto'
import { groupsContaining } from '../../core/groups.ts'
import { getTableColumns } from 'drizzle-orm'
import { insertRow, stmt, updateRows, type Db } from '../../core/db.ts'
import { driveId, nextCounter } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserById } from '../../core/users.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { memberRole } from './drives.ts'
import { nameColumns } from './name-search.ts'
import { keepHeadBytes } from './revisions.ts'
import { changes, files, permissions, revisions, type FileRow, type PermissionRow } from '../schema.ts'

export const FOLDER = 'application/vnd.google-apps.folder'
export const GOOGLE_DOC = 'application/vnd.google-apps.document'
export const SHORTCUT = 'application/vnd.google-apps.shortcut'

export type Role = 'owner' | 'organizer' | 'fileOrganizer' | 'writer' | 'commenter' | 'reader'
const RANK: Record<Role | 'none', number> = {
  none: 0,
  reader: 1,
  commenter: 2,
  writer: 3,
  fileOrganizer: 4,
  organizer: 5,
  owner: 6,
}

/** A table's columns as `"column" AS "key"`, but those named in `omit`. */
const select = (table: typeof files | typeof permissions, omit: string[] = []) =>
  Object.entries(getTableColumns(table))
    .filter(([key]) => !omit.includes(key))
    .map(([key, col]) => `"${col.name}" AS "${key}"`)
    .join(', ')
const FILE_COLUMNS = select(files)
/** Every column but the content and its text: what an answer about a file reads (a 30 MB read back: ~0.5 s). */
const HEAD_COLUMNS = select(files, ['content', 'fullText'])
const PERMISSION_COLUMNS = select(permissions)

/** A file row by id (a cached prepared statement: this runs for every file a response renders). */
export function findFile(db: Db, id: string): FileRow | undefined {
  const r = stmt(db, `SELECT ${FILE_COLUMNS} FROM drive_files WHERE id = ?`).get(id) as
    Record<string, unknown> | undefined
  return r && (withFlags(r) as FileRow)
}

/** A selected file row with its 0/1 columns as booleans. */
const withFlags = (r: Record<string, unknown>) => ({
  ...r,
  starred: r.starred === 1,
  trashed: r.trashed === 1,
  explicitlyTrashed: r.explicitlyTrashed === 1,
})

/** A file row without its content and full text (`toFile` reads neither). */
export type BareFileRow = Omit<FileRow, 'content' | 'fullText'>

/** A file row by id, without reading its content or full text (an upload's answer). */
export function findBareFile(db: Db, id: string): BareFileRow | undefined {
  const r = stmt(db, `SELECT ${HEAD_COLUMNS} FROM drive_files WHERE id = ?`).get(id) as
    Record<string, unknown> | undefined
  return r && (withFlags(r) as BareFileRow)
}

/** A file's content (null for a folder, a Google Doc, a shortcut), read only where the bytes are served or copied. */
export function contentOf(db: Db, id: string): Buffer | null {
  return (stmt(db, 'SELECT content FROM drive_files WHERE id = ?').pluck().get(id) as Buffer | null | undefined) ?? null
}

/** Whether a file has content, without reading it (SQLite knows a NULL from the row's header). */
export function hasContent(db: Db, id: string): boolean {
  return stmt(db, 'SELECT content IS NOT NULL FROM drive_files WHERE id = ?').pluck().get(id) === 1
}

/**
 * Bytes of a text file's content kept as its full text (what `fullText contains` searches). Deviation (unverified
 * limit): Drive indexes a bounded part of a large file's text too; here the first 1 MiB of its UTF-8, so a 30 MB text
 * upload neither stores a second 30 MB copy nor makes every later `fullText` query scan it.
 */
export const MAX_FULL_TEXT_BYTES = 1024 * 1024

/** The full text of `content`: at most MAX_FULL_TEXT_BYTES of it, cut before a character that would not fit. */
export function fullTextOf(content: Buffer): string {
  let end = Math.min(content.length, MAX_FULL_TEXT_BYTES)
  // Step back over continuation bytes (10xxxxxx) so the cut falls on the start of a character.
  if (end < content.length) while (end > 0 && (content[end]! & 0xc0) === 0x80) end--
  return content.toString('utf8', 0, end)
}

export function parentsOf(row: BareFileRow): string[] {
  return JSON.parse(row.parents) as string[]
}

/** Records a change for the change feed (changes.list). */
export function recordChange(db: Db, fileId: string, removed = false, timeMs = nowMs(db), audience?: Audience): void {
  insertRow(db, changes, { fileId, timeMs, removed, ...(audience ? { audience: JSON.stringify(audience) } : {}) })
}

/** Who could see a file, and where it lay, when it was removed: what changes.list filters a removal by. */
export type Audience = { users: string[]; ownerId: string; driveId: string | null }

export type NewFile = {
  id?: string
  name: string
  mimeType: string
  ownerId: string
  owner?: WorldUserRow
  parents?: string[]
  content?: Buffer
  description?: string
  fullText?: string
  createdMs?: number
  modifiedMs?: number
  driveId?: string | null
  /** A shortcut's details as stored JSON (see the `shortcut` column). */
  shortcut?: string | null
  /**
   * files.copy: the id of the file whose content the new one takes in place of `content` (none: empty content). The
   * bytes are copied inside SQLite and never read into JavaScript; size and checksums are the source row's, and the
   * full text is cut from the first MiB only (docs/decisions/0432).
   */
  copyOf?: string
}

/** Inserts a file owned by a world user, with its owner permission and first revision (for content files). */
/** The digests Drive reports for binary content (`md5Checksum`, `sha1Checksum`, `sha256Checksum`), as stored JSON. */
export function checksumsOf(content: Buffer): string {
  return content.length === 0 ? EMPTY_CHECKSUMS : digestsOf(content)
}

function digestsOf(content: Buffer): string {
  // One-shot digests: a Hash object per algorithm cost more than hashing a small file.
  const hex = (algo: string) => hash(algo, content, 'hex')
  return JSON.stringify({ md5: hex('md5'), sha1: hex('sha1'), sha256: hex('sha256') })
}

/** The digests of no bytes (what files.create without content stores), computed once. */
const EMPTY_CHECKSUMS = digestsOf(Buffer.alloc(0))

/** `owner`, when given, is the world user row of `ownerId` (the caller's, which the request already holds). */
export function insertFile(db: Db, f: NewFile): FileRow {
  return findFile(db, writeFile(db, f))!
}

/** insertFile without reading the row back (seeding): returns the new file's id. */
export function writeFile(db: Db, f: NewFile): string {
  const owner = f.owner?.id === f.ownerId ? f.owner : findUserById(db, f.ownerId)
  if (!owner) throw new Error(`no user ${f.ownerId}`)
  const now = nowMs(db)
  const at = f.createdMs ?? now
  const id = f.id ?? driveId(db)
  const copied = f.copyOf === undefined ? undefined : copiedContent(db, f.copyOf, f.mimeType)
  const hasContent = f.content !== undefined || copied !== undefined
  const names = nameColumns(db, f.name)
  const row: FileRow = {
    id,
    name: f.name,
    mimeType: f.mimeType,
    ownerId: owner.id,
    parents: JSON.stringify(f.parents ?? []),
    description: f.description ?? '',
    starred: false,
    trashed: false,
    explicitlyTrashed: false,
    createdMs: at,
    modifiedMs: f.modifiedMs ?? at,
    lastModifyingUserId: owner.id,
    version: 1,
    content: f.content ?? null,
    size: copied ? copied.size : hasContent ? f.content!.length : null,
    // An empty content's text is '' whatever its type: neither the type nor the bytes are read for it.
    fullText:
      f.fullText ??
      copied?.fullText ??
      (hasContent && f.content!.length > 0 && /^text\//.test(f.mimeType) ? fullTextOf(f.content!) : ''),
    properties: '{}',
    appProperties: '{}',
    headRevisionId: hasContent ? `0B${nextCounter(db, `drive.revision.${id}`)}` : null,
    checksums: copied ? copied.checksums : hasContent ? checksumsOf(f.content!) : null,
    driveId: f.driveId ?? null,
    nameKey: names.nameKey,
    nameWords: names.nameWords,
    shortcut: f.shortcut ?? null,
  }
  if (copied) {
    // The content's place takes the source's id: the statement reads the bytes from its row.
    const values = fileValues(row)
    values[CONTENT_AT] = f.copyOf
    stmt(db, INSERT_COPY).run(values)
  } else stmt(db, INSERT_FILE).run(fileValues(row))
  // Items of a shared drive have no owner: the drive's members hold them.
  if (!f.driveId) stmt(db, INSERT_OWNER).run(id, permissionIdFor(db, owner.id), owner.email)
  // The first revision is the head: its bytes are the file's, stored once (docs/decisions/0421).
  if (hasContent) stmt(db, INSERT_REVISION).run(id, row.headRevisionId, row.modifiedMs, owner.id, f.mimeType, row.size)
  stmt(db, INSERT_CHANGE).run(id, now)
  return id
}

// writeFile's rows, written by Drive's own statements built once: what insertRow would run for them (every column
// given, defaults as their values), without its per-call shape check and driver mapping, and without the shared
// writer meeting four new tables in the middle of a run (docs/decisions/0355; 0348 did the same for Calendar).
const FILE_FIELDS = Object.entries(getTableColumns(files))
const FILE_COLUMN_NAMES = FILE_FIELDS.map(([, c]) => `"${c.name}"`).join(', ')
const FILE_PLACES = FILE_FIELDS.map(() => '?').join(', ')
const INSERT_FILE = `/* new file */ INSERT INTO "drive_files" (${FILE_COLUMN_NAMES}) VALUES (${FILE_PLACES})`
const CONTENT_AT = FILE_FIELDS.findIndex(([key]) => key === 'content')
/** INSERT_FILE with the content read from another file's row by id (none: empty), inside SQLite (files.copy). */
const INSERT_COPY =
  `/* copied file */ INSERT INTO "drive_files" (${FILE_COLUMN_NAMES}) VALUES (` +
  FILE_FIELDS.map((_, i) =>
    i === CONTENT_AT ? `COALESCE((SELECT "content" FROM "drive_files" WHERE "id" = ?), X'')` : '?',
  ).join(', ') +
  ')'
/** A file's content length (its header tells: no bytes are read) and stored checksums. */
const COPY_SOURCE = 'SELECT length(content) AS bytes, checksums FROM drive_files WHERE id = ?'
/** The most of a file's content fullTextOf reads: one byte past the cut tells whether a character straddles it. */
const CONTENT_HEAD = `SELECT substr(content, 1, ${MAX_FULL_TEXT_BYTES + 1}) FROM drive_files WHERE id = ?`
const INSERT_OWNER =
  '/* owner permission */ INSERT INTO "drive_permissions" ("file_id", "id", "type", "role", "email_address", ' +
  `"allow_file_discovery") VALUES (?, ?, 'user', 'owner', ?, 0)`
const INSERT_REVISION =
  '/* first revision */ INSERT INTO "drive_revisions" ("file_id", "id", "modified_ms", "user_id", "mime_type", ' +
  '"size", "content", "keep_forever") VALUES (?, ?, ?, ?, ?, ?, NULL, 0)'
const DROP_CONTENT = '/* old bytes kept by their revision */ UPDATE drive_files SET content = NULL WHERE id = ?'
const INSERT_CHANGE =
  '/* new file change */ INSERT INTO "drive_changes" ("file_id", "time_ms", "removed") VALUES (?, ?, 0)'

/**
 * What a copy of file `id` stores beside its bytes, read without them: the size, the checksums and, for a text type,
 * the full text, as writeFile computes them from the bytes (checksums are only ever stored as those of the content).
 */
function copiedContent(db: Db, id: string, mimeType: string): { size: number; checksums: string; fullText: string } {
  const src = stmt(db, COPY_SOURCE).get(id) as { bytes: number | null; checksums: string | null } | undefined
  if (!src || src.bytes === null || src.bytes === 0) return { size: 0, checksums: EMPTY_CHECKSUMS, fullText: '' }
  const head = () => stmt(db, CONTENT_HEAD).pluck().get(id) as Buffer
  return {
    size: src.bytes,
    checksums: src.checksums ?? checksumsOf(contentOf(db, id)!),
    fullText: /^text\//.test(mimeType) ? fullTextOf(head()) : '',
  }
}

/**
 * A new file row's values in drive_files' column order, booleans as SQLite stores them. Named reads in column order
 * (tests/drive/write-file.test.ts holds them to the table).
 */
export function fileValues(r: FileRow): unknown[] {
  return [
    r.id,
    r.name,
    r.mimeType,
    r.ownerId,
    r.parents,
    r.description,
    r.starred ? 1 : 0,
    r.trashed ? 1 : 0,
    r.explicitlyTrashed ? 1 : 0,
    r.createdMs,
    r.modifiedMs,
    r.lastModifyingUserId,
    r.version,
    r.content,
    r.size,
    r.fullText,
    r.properties,
    r.appProperties,
    r.headRevisionId,
    r.checksums,
    r.driveId,
    r.nameKey,
    r.nameWords,
    r.shortcut,
  ]
}

const PERMISSION_ID_MODULUS = 10n ** 20n
const PERMISSION_ID_BASE = 10n ** 19n

/**
 * Drive permission ids for users are stable per person across files (a long decimal string in the real
 * API); derived here from the user id so every file gives the same user the same permission id.
 */
export function permissionIdFor(db: Db, userId: string): string {
  let h = 0n
  for (const ch of `${userId}`) h = (h * 131n + BigInt(ch.charCodeAt(0))) % PERMISSION_ID_MODULUS
  void db
  return (PERMISSION_ID_BASE + h).toString().slice(0, 20)
}

export function permissionsOf(db: Db, fileId: string): PermissionRow[] {
  const rows = stmt(db, `SELECT ${PERMISSION_COLUMNS} FROM drive_permissions WHERE file_id = ? ORDER BY rowid`).all(
    fileId,
  ) as Record<string, unknown>[]
  return rows.map(
    (r) =>
      ({ ...r, allowFileDiscovery: r.allowFileDiscovery === 1, pendingOwner: r.pendingOwner === 1 }) as PermissionRow,
  )
}

/** What a caller of effectiveRole already holds: the file's current row, the user's world user row. */
export type RoleFacts = { row?: BareFileRow; user?: WorldUserRow }

/** What the role walk reads of an ancestor: its owner, drive and parents. */
type WalkRow = Pick<FileRow, 'ownerId' | 'driveId' | 'parents'>
const WALK_SQL =
  '/* role walk */ SELECT owner_id AS ownerId, drive_id AS driveId, parents' + ' FROM drive_files WHERE id = ?'

/**
 * A user's effective role on a file: ownership, then any unexpired permission on the file or on an
 * ancestor folder (user, domain and anyone permissions), the strongest one winning. `known` saves the reads of
 * what the caller holds (the file's row as it is now, the user's row); the clock is read only when a permission
 * has an expiration.
 */
export function effectiveRole(db: Db, fileId: string, userId: string, known: RoleFacts = {}): Role | 'none' {
  const user = known.user?.id === userId ? known.user : findUserById(db, userId)
  if (!user) return 'none'
  let now: number | undefined
  // Groups the user belongs to (nested ones included), looked up once and only if a group permission comes up.
  let memberOf: string[] | undefined
  const groups = () => (memberOf ??= groupsContaining(db, user.email))
  let best: Role | 'none' = 'none'
  const seen = new Set<string>()
  let frontier = [fileId]
  while (frontier.length > 0) {
    const next: string[] = []
    for (const id of frontier) {
      if (seen.has(id)) continue
      seen.add(id)
      const row = known.row?.id === id ? known.row : (stmt(db, WALK_SQL).get(id) as WalkRow | undefined)
      if (!row) {
        // A shared drive at the top of the chain: its members' roles apply to everything inside.
        const member = memberRole(db, id, userId)
        if (RANK[member] > RANK[best]) best = member
        continue
      }
      if (row.ownerId === userId && !row.driveId) return 'owner'
      for (const p of permissionsOf(db, id)) {
        if (p.expirationMs !== null && p.expirationMs <= (now ??= nowMs(db))) continue
        if (RANK[p.role] > RANK[best] && permissionApplies(p, user, groups)) best = p.role
      }
      next.push(...(JSON.parse(row.parents) as string[]))
    }
    frontier = next
  }
  return best
}

/** Whether a permission (user, group, domain or anyone) names `user`; `groups` gives the user's groups on demand. */
function permissionApplies(p: PermissionRow, user: WorldUserRow, groups: () => string[]): boolean {
  const email = user.email.toLowerCase()
  if (p.type === 'user') return p.emailAddress?.toLowerCase() === email
  if (p.type === 'group')
    return p.emailAddress?.toLowerCase() === email || groups().includes(p.emailAddress?.toLowerCase() ?? '')
  if (p.type === 'domain') return p.domain?.toLowerCase() === email.split('@')[1]
  return p.type === 'anyone'
}

/**
 * The users (of `users`, in their order) whose effectiveRole on each file is not `none`: the same walk turned round,
 * each ancestor's owner, permissions and shared drive members read once for all the files and users (a folder's
 * removal asks this of every file below it for every user).
 */
export function audiences(db: Db, fileIds: Iterable<string>, users: readonly WorldUserRow[]): Map<string, string[]> {
  let now: number | undefined
  const groupsOf = new Map<string, string[]>()
  const groups = (u: WorldUserRow) => () => {
    let g = groupsOf.get(u.id)
    if (!g) groupsOf.set(u.id, (g = groupsContaining(db, u.email)))
    return g
  }
  // What one node grants by itself (its owner outside shared drives, its permissions; a shared drive its members).
  const nodes = new Map<string, { grants: Set<string>; parents: string[] }>()
  const nodeOf = (id: string) => {
    const known = nodes.get(id)
    if (known) return known
    const row = stmt(db, WALK_SQL).get(id) as WalkRow | undefined
    const grants = new Set<string>()
    if (!row) {
      for (const u of users) if (memberRole(db, id, u.id) !== 'none') grants.add(u.id)
    } else {
      if (!row.driveId) grants.add(row.ownerId)
      for (const p of permissionsOf(db, id)) {
        if (p.expirationMs !== null && p.expirationMs <= (now ??= nowMs(db))) continue
        if (RANK[p.role] > RANK.none) for (const u of users) if (permissionApplies(p, u, groups(u))) grants.add(u.id)
      }
    }
    const node = { grants, parents: row ? (JSON.parse(row.parents) as string[]) : [] }
    nodes.set(id, node)
    return node
  }
  const out = new Map<string, string[]>()
  for (const fileId of fileIds) {
    const seeing = new Set<string>()
    const seen = new Set<string>()
    for (let todo = [fileId], id = todo.pop(); id !== undefined; id = todo.pop()) {
      if (seen.has(id)) continue
      seen.add(id)
      const node = nodeOf(id)
      for (const u of node.grants) seeing.add(u)
      todo.push(...node.parents)
    }
    out.set(
      fileId,
      users.filter((u) => seeing.has(u.id)).map((u) => u.id),
    )
  }
  return out
}

export function atLeast(role: Role | 'none', wanted: Role): boolean {
  return RANK[role] >= RANK[wanted]
}

/**
 * A new version of a file by a user (a new revision, the head), now or, for seeded history, at `atMs`. The new
 * content is stored once, in the file row; the old head's bytes move into its own row first (0421).
 */
export function touchFile(
  db: Db,
  fileId: string,
  userId: string,
  update: { content?: Buffer; fullText?: string; atMs?: number } = {},
): void {
  // Its version and type, not its content (a 30 MB file's old bytes were read for them, 0416).
  const row = findBareFile(db, fileId)
  if (!row) return
  const t = update.atMs ?? nowMs(db)
  const set: Partial<FileRow> = { modifiedMs: t, version: row.version + 1, lastModifyingUserId: userId }
  if (update.fullText !== undefined) set.fullText = update.fullText
  if (update.content !== undefined) {
    set.content = update.content
    set.size = update.content.length
    set.checksums = checksumsOf(update.content)
  }
  const revId = `0B${nextCounter(db, `drive.revision.${fileId}`)}`
  set.headRevisionId = revId
  // A file with content has a head holding none of its own: it gets the bytes before the file's are replaced.
  if (row.headRevisionId !== null && row.size !== null) {
    keepHeadBytes(db, fileId, row.headRevisionId)
    // SQLite writes a row's new overflow pages before it frees the old ones: the old bytes are dropped first, so
    // the new ones take their pages (a first update grew the image by two copies, 0421).
    if (update.content !== undefined) stmt(db, DROP_CONTENT).run(fileId)
  }
  updateRows(db, files, set, { id: fileId })
  insertRow(db, revisions, {
    fileId,
    id: revId,
    modifiedMs: t,
    userId,
    mimeType: row.mimeType,
    size: update.content?.length ?? null,
    content: null,
  })
  recordChange(db, fileId)
}

export function deletePermission(db: Db, fileId: string, id: string): boolean {
  return stmt(db, 'DELETE FROM drive_permissions WHERE file_id = ? AND id = ?').run(fileId, id).changes > 0
}
