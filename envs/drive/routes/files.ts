import { createRoute, z } from '@hono/zod-openapi'
import { and, eq, isNull } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError } from '../../core/errors/google.ts'
import { decodePageToken, encodePageToken } from '../../core/paging.ts'
import { parseFields, type Selection } from '../../core/fields.ts'
import { driveId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { File as FileSchema, GeneratedIds } from '../api/schemas.gen.ts'
import { files } from '../schema.ts'
import { toFile } from '../map.ts'
import { turnTaker } from '../../core/turns.ts'
import { parseDriveQuery } from '../query/parse.ts'
import { compileQuery } from '../query/evaluate.ts'
import { listing, pageRows, type FileHead } from '../store/visibility.ts'
import { nameColumns, wellFormed } from '../store/name-search.ts'
import {
  atLeast,
  audiences,
  effectiveRole,
  findBareFile,
  contentOf,
  fullTextOf,
  type BareFileRow,
  FOLDER,
  GOOGLE_DOC,
  insertFile,
  SHORTCUT,
  parentsOf,
  permissionIdFor,
  recordChange,
  touchFile,
  writeFile,
  type Audience,
} from '../store/files.ts'
import { listUsers } from '../../core/users.ts'
import { withAccessChanges } from '../store/access-changes.ts'
import { driveOfParents, findSharedDrive, itemsOfDrive, setDriveOfTree } from '../store/drives.ts'
import { permissions, revisions, type FileRow } from '../schema.ts'
import { stmt, updateRows, type Db } from '../../core/db.ts'
import type { FileView } from '../query/evaluate.ts'
import { requireDrive } from './drives.ts'
import { labelsOf } from './labels.ts'
import {
  copyDocumentContent,
  initEmptyDocument,
  renderDocument,
  renderDocumentAsync,
  SYNC_FORMATS,
  EXPORT_FORMATS,
  EXPORT_LINK_FORMATS,
  type ExportFormat,
} from '../../docs/render.ts'
import { importUpload, type ImportedBlock } from '../../docs/render.ts'
import {
  bool,
  fileNotFound,
  insufficient,
  json,
  jsonBody,
  requireItem,
  supportsAllDrives,
  FILE_DEFAULT_FIELDS,
  fileFieldsKept,
  withDefaultFields,
} from './common.ts'
import { orderSql, sortFiles } from './order.ts'
import { keepErasedFile } from '../store/erased.ts'
import { isRootRef, rootFolder } from './root.ts'
import { checkDriveNamed, checkWritable, timeField } from './file-meta.ts'
import { intParam } from '../../core/param-errors.ts'
import { refuseManyParents } from './many-parents.ts'

type Meta = {
  id?: string
  name?: string
  mimeType?: string
  parents?: string[]
  description?: string
  starred?: boolean
  trashed?: boolean
  properties?: Record<string, string | null>
  appProperties?: Record<string, string | null>
  shortcutDetails?: { targetId?: string }
}

/** Parents must be folders the caller can add to. */
function checkParents(c: WorldContext, parents: string[]) {
  for (const p of parents) {
    if (findSharedDrive(c.var.world.db, p)) {
      if (!supportsAllDrives(c)) throw fileNotFound(p)
      const { role } = requireDrive(c, p, false, 'fileId')
      if (!atLeast(role, 'writer')) throw insufficient()
      continue
    }
    const row = requireItem(c, p, 'writer')
    if (row.mimeType !== FOLDER) throw badRequest('The specified parent is not a folder.', 'invalidParent')
  }
}

/** `root` and the caller's own root id mean "no parent" (My Drive); shared drive ids stay. */
const isMyRoot = (c: WorldContext, p: string) => p === 'root' || (/^0A/.test(p) && !findSharedDrive(c.var.world.db, p))
const rootAlias = (c: WorldContext, parents: string[] | undefined) => (parents ?? []).filter((p) => !isMyRoot(c, p))

/** New content: bytes, or those of another file (files.copy), copied inside SQLite (docs/decisions/0432). */
type Content = Buffer | { copyOf: string }

/** Creates a file from metadata and optional content (shared by JSON create and the upload paths). */
export function createFile(
  c: WorldContext,
  meta: Meta,
  content?: Content,
  contentType?: string,
  imported?: readonly ImportedBlock[],
) {
  return toFile(c.var.world.db, createFileRow(c, meta, content, contentType, imported), c.var.user, fileFieldsKept(c))
}

/** What a files.create answer without `fields` reads of the new file. */
type CreatedFile = Pick<FileRow, 'id' | 'name' | 'mimeType'>

/**
 * Creates a file (see createFile) and returns its stored row; with `whole` false, only its id, name and MIME type
 * when those are known without reading the row back (a well-formed name is stored as given).
 */
function createFileRow(
  c: WorldContext,
  meta: Meta,
  content?: Content,
  contentType?: string,
  imported?: readonly ImportedBlock[],
): BareFileRow
function createFileRow(
  c: WorldContext,
  meta: Meta,
  content: undefined,
  contentType: undefined,
  imported: undefined,
  whole: false,
): CreatedFile
function createFileRow(
  c: WorldContext,
  meta: Meta,
  content?: Content,
  contentType?: string,
  imported?: readonly ImportedBlock[],
  whole = true,
): BareFileRow | CreatedFile {
  checkWritable(meta, false)
  const createdMs = timeField(meta, 'createdTime')
  const modifiedMs = timeField(meta, 'modifiedTime')
  const parents = rootAlias(c, meta.parents)
  checkParents(c, parents)
  if (meta.id && findBareFile(c.var.world.db, meta.id))
    throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'A file already exists with the provided ID.')
  const mimeType = meta.mimeType ?? contentType ?? (content ? 'application/octet-stream' : 'application/octet-stream')
  if (parents.length > 1)
    throw new GoogleApiError('PERMISSION_DENIED', 'cannotAddParent', 'Increasing the number of parents is not allowed.')
  const inDrive = driveOfParents(c.var.world.db, parents)
  checkDriveNamed(meta, inDrive)
  if (inDrive === null && mimeType !== FOLDER && c.var.user.id.startsWith('serviceAccount:')) throw noQuota()
  const shortcut = mimeType === SHORTCUT ? shortcutOf(c, meta) : null
  const row = c.var.world.tx((db) => {
    const bytesless = mimeType === FOLDER || mimeType === GOOGLE_DOC || shortcut
    const copyOf = bytesless || content === undefined || Buffer.isBuffer(content) ? undefined : content.copyOf
    const bytes = bytesless || copyOf !== undefined ? undefined : ((content as Buffer | undefined) ?? Buffer.alloc(0))
    const extra: Partial<typeof files.$inferInsert> = {}
    if (meta.starred) extra.starred = true
    if (meta.properties) extra.properties = JSON.stringify(clean(meta.properties))
    if (meta.appProperties) extra.appProperties = JSON.stringify(clean(meta.appProperties))
    const name = meta.name ?? 'Untitled'
    const file = {
      driveId: inDrive,
      id: meta.id,
      name,
      mimeType,
      ownerId: c.var.user.id,
      owner: c.var.user,
      parents,
      content: bytes,
      copyOf,
      description: meta.description,
      createdMs,
      modifiedMs: modifiedMs ?? (createdMs === undefined ? undefined : nowMs(db)),
      shortcut,
    }
    // The row is read back without its content and full text (the answer shows neither): reading a 30 MB upload
    // back cost more than storing it (0407).
    if (!Object.keys(extra).length && mimeType !== GOOGLE_DOC) {
      // Nothing more is written: the row is read back once, and only when the answer renders more than these.
      const id = writeFile(db, file)
      return whole || !wellFormed(name) ? findBareFile(db, id)! : { id, name, mimeType }
    }
    const id = writeFile(db, file)
    if (Object.keys(extra).length) updateRows(db, files, extra, { id })
    if (mimeType === GOOGLE_DOC && imported) {
      updateRows(db, files, { fullText: importUpload(db, id, imported) }, { id })
    } else if (mimeType === GOOGLE_DOC) initEmptyDocument(db, id, findBareFile(db, id)!.name)
    return findBareFile(db, id)!
  })
  return row
}

/**
 * A service account (its own token) owns what it creates outside a shared drive, and has no storage quota: Drive
 * refuses such a file, upload or copy (shared drives, or a user's token through delegation, are the way).
 * Deviation (unverified): a folder, which holds no bytes, is let through.
 */
const noQuota = () =>
  new GoogleApiError(
    'PERMISSION_DENIED',
    'storageQuotaExceeded',
    'Service Accounts do not have storage quota. Leverage shared drives ' +
      '(https://developers.google.com/workspace/drive/api/guides/about-shareddrives), or use OAuth delegation ' +
      '(http://support.google.com/a/answer/7281227) instead.',
    { domain: 'usageLimits' },
  )

/**
 * A new shortcut's stored `shortcutDetails`: its target must be an item the caller can see; the target's type is
 * kept as it is now (discovery: "a snapshot of the target's MIME type, captured when the shortcut is created").
 * A shortcut holds no content, so it has no size or checksums. Deviation (wording unverified): a shortcut without
 * `shortcutDetails.targetId` is 400 `required`.
 */
function shortcutOf(c: WorldContext, meta: Meta): string {
  const targetId = meta.shortcutDetails?.targetId
  if (!targetId) {
    throw new GoogleApiError('INVALID_ARGUMENT', 'required', 'Required: shortcutDetails.targetId', {
      location: 'shortcutDetails.targetId',
      locationType: 'other',
    })
  }
  const target = isRootRef(c, targetId) ? undefined : requireItem(c, targetId)
  return JSON.stringify({ targetId, targetMimeType: target?.mimeType ?? FOLDER })
}

/**
 * `keepRevisionForever=true` on a create, copy or content upload: the head revision it made is kept forever
 * (rclone's `--drive-keep-revision-forever`). Files without binary content have no revision to keep.
 * Deviation: the limit of 200 pinned revisions per file is not enforced.
 */
export function keepHeadRevision(c: WorldContext, fileId: string) {
  if (c.req.query('keepRevisionForever') !== 'true') return
  const head = stmt(c.var.world.db, 'SELECT head_revision_id FROM drive_files WHERE id = ?').pluck().get(fileId)
  if (typeof head !== 'string') return
  c.var.world.tx((db) => updateRows(db, revisions, { keepForever: true }, { fileId, id: head }))
}

const clean = (o: Record<string, string | null>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null))

/**
 * Trashing a folder trashes what it holds; untrashing restores what was not trashed on its own. An item trashed on
 * its own stays so (`explicitlyTrashed`) when a folder above it is trashed too, so untrashing that folder leaves it.
 */
function setTrashed(c: WorldContext, id: string, trashed: boolean) {
  const db = c.var.world.db
  const walk = (fid: string, explicit: boolean) => {
    const row = findBareFile(db, fid)!
    if (!trashed && !explicit && row.explicitlyTrashed) return
    if (explicit || !row.explicitlyTrashed) {
      updateRows(db, files, { trashed, explicitlyTrashed: trashed && explicit }, { id: fid })
      recordChange(db, fid)
    }
    for (const child of childIdsOf(db, fid)) walk(child, false)
  }
  walk(id, true)
}

/**
 * Moves a tree into, out of or between shared drives:
 * shared drive items lose their owner, My Drive items get the mover as owner.
 */
function moveAcrossDrives(c: WorldContext, db: Db, row: BareFileRow, target: string | null, manager: boolean) {
  if (!manager)
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'insufficientFilePermissions',
      'The user does not have sufficient permissions for this file.',
    )
  setDriveOfTree(db, row, target)
  for (const fid of [row.id, ...descendants(db, row.id)]) {
    db.$client.prepare("DELETE FROM drive_permissions WHERE file_id = ? AND role = 'owner'").run(fid)
    // The owner changes (or goes): a pending ownership request ends (docs/decisions/0456).
    db.$client.prepare('UPDATE drive_permissions SET pending_owner = 0 WHERE file_id = ? AND pending_owner').run(fid)
    if (target === null) {
      updateRows(db, files, { ownerId: c.var.user.id }, { id: fid })
      db.insert(permissions)
        .values({
          fileId: fid,
          id: permissionIdFor(db, c.var.user.id),
          type: 'user',
          role: 'owner',
          emailAddress: c.var.user.email.toLowerCase(),
        })
        .onConflictDoUpdate({ target: [permissions.fileId, permissions.id], set: { role: 'owner' } })
        .run()
    }
  }
}

function descendants(db: Db, id: string): string[] {
  const all = db.select({ id: files.id, parents: files.parents }).from(files).all()
  const out = new Set<string>([id])
  let grew = true
  while (grew) {
    grew = false
    for (const f of all)
      if (!out.has(f.id) && (JSON.parse(f.parents) as string[]).some((p) => out.has(p))) {
        out.add(f.id)
        grew = true
      }
  }
  out.delete(id)
  return [...out]
}

const PARENTS_OF = 'SELECT parents FROM drive_files WHERE id = ?'
/** Whether `folder` is `id` or lies anywhere below it (walks up from `folder`; a loop in the data ends the walk). */
function holds(db: Db, id: string, folder: string): boolean {
  const seen = new Set<string>()
  const todo = [folder]
  for (let at = todo.pop(); at !== undefined; at = todo.pop()) {
    if (at === id) return true
    if (seen.has(at)) continue
    seen.add(at)
    const parents = stmt(db, PARENTS_OF).pluck().get(at) as string | undefined
    if (parents) todo.push(...(JSON.parse(parents) as string[]))
  }
  return false
}

/**
 * Ids of the items a folder holds, in table order: SQLite reads each row's parents (a JSON array) itself, so no row
 * (content included) is handed over but the children's ids.
 */
const CHILD_IDS =
  'SELECT id FROM drive_files WHERE EXISTS (SELECT 1 FROM json_each(parents) WHERE value = ?) ' + 'ORDER BY rowid'
const childIdsOf = (db: Db, folderId: string) => stmt(db, CHILD_IDS).pluck().all(folderId) as string[]

export function updateFile(
  c: WorldContext,
  id: string,
  meta: Meta,
  q: { addParents?: string; removeParents?: string },
  content?: Buffer,
) {
  const row = requireItem(c, id, 'writer')
  checkWritable(meta, true)
  const modifiedMs = timeField(meta, 'modifiedTime')
  const role = effectiveRole(c.var.world.db, id, c.var.user.id, { row, user: c.var.user })
  // Trash and moves need ownership in My Drive, a content manager (fileOrganizer) or organizer in a shared drive.
  const manager = row.driveId ? atLeast(role, 'fileOrganizer') : role === 'owner'
  if (meta.trashed !== undefined && !manager) throw insufficient()
  const add = (q.addParents ?? '').split(',').filter(Boolean)
  const remove = (q.removeParents ?? '').split(',').filter(Boolean)
  checkParents(c, rootAlias(c, add))
  // A move may change who can see the file and what it holds: those who lose it learn of it in their changes.
  const moving = add.length > 0 || remove.length > 0
  c.var.world.tx((db) => (moving ? withAccessChanges(db, id, () => write(db)) : write(db)))
  function write(db: Db) {
    const set: Partial<typeof files.$inferInsert> = {}
    if (meta.name !== undefined) Object.assign(set, { name: meta.name }, nameColumns(db, meta.name))
    if (meta.description !== undefined) set.description = meta.description
    if (meta.starred !== undefined) set.starred = meta.starred
    if (meta.properties) set.properties = JSON.stringify(clean({ ...JSON.parse(row.properties), ...meta.properties }))
    if (meta.appProperties)
      set.appProperties = JSON.stringify(clean({ ...JSON.parse(row.appProperties), ...meta.appProperties }))
    if (add.length || remove.length) {
      const next = [
        ...new Set(
          parentsOf(row)
            .filter((p) => !remove.includes(p))
            .concat(rootAlias(c, add)),
        ),
      ]
      // A file has exactly one parent in My Drive: adding one without removing the old one is refused.
      const rootMoves = add.some((p) => isMyRoot(c, p))
      if (next.length > 1 || (rootMoves && next.length > 0))
        throw new GoogleApiError(
          'PERMISSION_DENIED',
          'cannotAddParent',
          'Increasing the number of parents is not allowed.',
        )
      if (row.mimeType === FOLDER && next.some((p) => holds(db, id, p)))
        // Deviation: Drive documents no reason for this refusal; ours names the parent as invalid.
        throw badRequest('A folder cannot be moved into itself or into a folder it contains.', 'invalidParent')
      set.parents = JSON.stringify(next)
      const target = driveOfParents(db, next)
      if (target !== row.driveId) moveAcrossDrives(c, db, row, target, manager)
    }
    if (Object.keys(set).length) {
      set.modifiedMs = nowMs(db)
      set.lastModifyingUserId = c.var.user.id
      updateRows(db, files, set, { id })
      recordChange(db, id)
    }
    if (meta.trashed !== undefined && meta.trashed !== row.trashed) setTrashed(c, id, meta.trashed)
    if (content)
      touchFile(db, id, c.var.user.id, {
        content,
        // The first 1 MiB of its UTF-8, as an upload's (fullTextOf, 0407): the whole 30 MB was decoded and stored.
        fullText: /^text\//.test(row.mimeType) ? fullTextOf(content) : undefined,
      })
    // A modifiedTime given by the client is the file's, whatever else the call changed (as sync tools set it).
    if (modifiedMs !== undefined) {
      updateRows(db, files, { modifiedMs, lastModifyingUserId: c.var.user.id }, { id })
      if (!Object.keys(set).length && !content) recordChange(db, id)
    }
  }
  return toFile(c.var.world.db, findBareFile(c.var.world.db, id)!, c.var.user, fileFieldsKept(c))
}

const FileId = z.object({ fileId: z.string() })
const getRoute = createRoute({
  operationId: 'drive.files.get',
  method: 'get',
  path: '/drive/v3/files/{fileId}',
  request: {
    params: FileId,
    query: z.object({ alt: z.enum(['json', 'media']).optional(), supportsAllDrives: bool(), acknowledgeAbuse: bool() }),
  },
  responses: { 200: json(FileSchema) },
})
const listRoute = createRoute({
  operationId: 'drive.files.list',
  method: 'get',
  path: '/drive/v3/files',
  request: {
    query: z.object({
      q: z.string().optional(),
      orderBy: z.string().optional(),
      pageSize: intParam({ min: 1, max: 1000, dflt: 100 }),
      pageToken: z.string().optional(),
      spaces: z.string().optional(),
      corpora: z.enum(['user', 'domain', 'drive', 'allDrives']).optional(),
      driveId: z.string().optional(),
      includeItemsFromAllDrives: bool(),
      supportsAllDrives: bool(),
    }),
  },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})
const createRouteDef = createRoute({
  operationId: 'drive.files.create',
  method: 'post',
  path: '/drive/v3/files',
  middleware: [refuseManyParents],
  request: { body: jsonBody(FileSchema, false) },
  responses: { 200: json(FileSchema) },
})
const updateRoute = createRoute({
  operationId: 'drive.files.update',
  method: 'patch',
  path: '/drive/v3/files/{fileId}',
  request: {
    params: FileId,
    query: z.object({
      addParents: z.string().optional(),
      removeParents: z.string().optional(),
      supportsAllDrives: bool(),
    }),
    body: jsonBody(FileSchema, false),
  },
  responses: { 200: json(FileSchema) },
})
const copyRoute = createRoute({
  operationId: 'drive.files.copy',
  method: 'post',
  path: '/drive/v3/files/{fileId}/copy',
  request: { params: FileId, body: jsonBody(FileSchema, false) },
  responses: { 200: json(FileSchema) },
})
const deleteRoute = createRoute({
  operationId: 'drive.files.delete',
  method: 'delete',
  path: '/drive/v3/files/{fileId}',
  request: { params: FileId },
  responses: { 204: { description: 'Deleted' } },
})
const emptyTrashRoute = createRoute({
  operationId: 'drive.files.emptyTrash',
  method: 'delete',
  path: '/drive/v3/files/trash',
  request: { query: z.object({ driveId: z.string().optional() }) },
  responses: { 204: { description: 'Emptied' } },
})
const exportRoute = createRoute({
  operationId: 'drive.files.export',
  method: 'get',
  path: '/drive/v3/files/{fileId}/export',
  request: { params: FileId, query: z.object({ mimeType: z.string().optional() }) },
  responses: { 200: { description: 'Exported bytes' } },
})
const generateIdsRoute = createRoute({
  operationId: 'drive.files.generateIds',
  method: 'get',
  path: '/drive/v3/files/generateIds',
  request: {
    query: z.object({
      count: intParam({ min: 1, max: 1000, dflt: 10 }),
      space: z.enum(['drive', 'appDataFolder']).default('drive'),
      type: z.enum(['files', 'shortcuts']).default('files'),
    }),
  },
  responses: { 200: json(GeneratedIds) },
})

export const filesRouter = createGoogleRouter()
  .openapi(emptyTrashRoute, (c) => {
    const db = c.var.world.db
    const inDrive = c.req.valid('query').driveId
    if (inDrive) {
      const { role } = requireDrive(c, inDrive)
      if (!atLeast(role, 'organizer')) throw insufficient()
    }
    const mine = (
      inDrive
        ? itemsOfDrive(db, inDrive)
        : db
            .select()
            .from(files)
            .where(and(eq(files.ownerId, c.var.user.id), isNull(files.driveId)))
            .all()
    ).filter((f) => f.trashed)
    c.var.world.tx((tx) => mine.forEach((f) => removeFile(tx, f.id)))
    return c.body(null, 204)
  })
  .openapi(generateIdsRoute, (c) => {
    const { count, space } = c.req.valid('query')
    const ids = c.var.world.tx((db) => Array.from({ length: count }, () => driveId(db)))
    return c.json({ kind: 'drive#generatedIds', ids, space } as never, 200)
  })
  .openapi(listRoute, async (c) => {
    const q = c.req.valid('query')
    const corpora = q.corpora ?? 'user'
    if ((corpora === 'drive') !== Boolean(q.driveId))
      throw badRequest('The driveId parameter must be specified if and only if corpora is set to drive.', 'invalid')
    const allDrives = q.includeItemsFromAllDrives === true
    if ((corpora === 'drive' || corpora === 'allDrives') && !allDrives)
      throw badRequest(
        'The includeItemsFromAllDrives parameter must be set to true when corpora is set to drive or allDrives.',
        'invalid',
      )
    if (allDrives && !q.supportsAllDrives)
      throw badRequest(
        'The includeItemsFromAllDrives parameter is only supported when supportsAllDrives is set to true.',
        'invalid',
      )
    if (q.driveId) requireDrive(c, q.driveId)
    const cond = q.q && q.q.trim() ? parseDriveQuery(q.q) : undefined
    // corpora, driveId and includeItemsFromAllDrives only narrow what the caller may see, never widen it.
    const me = c.var.user.email.toLowerCase()
    const inCorpus = (v: FileView) => {
      const d = v.row.driveId
      if (corpora === 'drive') return d === q.driveId
      if (!d) return corpora !== 'domain' || v.perms.some((p) => p.type === 'domain')
      if (!allDrives) return false
      // The user corpus holds shared drive items the user created or was given directly.
      return corpora === 'allDrives' || v.row.ownerId === c.var.user.id || v.perms.some((p) => p.emailAddress === me)
    }
    // SQL narrows to the corpus and the query's candidates;
    // inCorpus and the compiled query stay the judges of each file.
    // One literal per scope (not `{ ...scope, orderBy }`, a hidden class of its own per call: docs/decisions/0446).
    const orderBy = q.orderBy
    const options =
      corpora === 'drive' ? { driveId: q.driveId, orderBy } : allDrives ? { orderBy } : { myDriveOnly: true, orderBy }
    const found = listing(c.var.world.db, c.var.user, cond, options)
    const tokenOffset = () => Number(decodePageToken<{ o: number }>(q.pageToken)?.o ?? 0)
    // SQL pages alone when it judges the corpus exactly (My Drive, or one drive) and the query exactly too.
    // Errors come in the same order either way: the query's, orderBy's, then the page token's.
    let start = 0
    // Without `fields` a page is rendered from each file's id, name and MIME type: SQL reads only those (`heads`).
    const fields = c.req.query('fields')
    let paged: { views: FileView[]; more: boolean } | undefined
    let headed: { heads: FileHead[]; more: boolean } | undefined
    if ((corpora === 'drive' || (corpora === 'user' && !allDrives)) && found.exact) {
      const order = orderSql(q.orderBy)
      start = tokenOffset()
      if (Number.isSafeInteger(start) && start >= 0) {
        if (fields) paged = found.page(order, start, q.pageSize)
        else headed = found.heads(order, start, q.pageSize)
      }
    }
    if (!paged && !headed) {
      const test = cond ? compileQuery(cond) : undefined
      const ordered = sortFiles(
        found.all().filter((v) => inCorpus(v) && (!test || test(v))),
        q.orderBy,
      )
      start = tokenOffset()
      paged = { views: ordered.slice(start, start + q.pageSize), more: start + q.pageSize < ordered.length }
    }
    const page: readonly FileHead[] = headed ? headed.heads : paged!.views.map((v) => v.row)
    const body: Record<string, unknown> = { kind: 'drive#fileList' }
    if ((headed ?? paged!).more) body.nextPageToken = encodePageToken({ o: start + q.pageSize })
    body.incompleteSearch = false
    // Only the page is rendered, and only as far as `fields` asks: without it Drive answers kind, id, name, mimeType.
    const only = fields ? fileFieldsOf(parseFields(fields)) : undefined
    const rows = only === undefined ? undefined : pageRows(c.var.world.db, paged!.views, only)
    // A page of 1,000 fully rendered files is long work: other requests get a turn meanwhile (envs/core/turns.ts).
    const files: unknown[] = []
    const turns = turnTaker()
    const labels = rows === undefined ? [] : includedLabels(c)
    for (const f of page) {
      files.push(
        rows === undefined
          ? { kind: 'drive#file', id: f.id, name: f.name, mimeType: f.mimeType }
          : withLabels(c, toFile(c.var.world.db, rows.get(f.id)!, c.var.user, only ?? undefined), labels),
      )
      await turns.maybeYield()
    }
    body.files = files
    return c.json(body as never, 200)
  })
  .openapi(getRoute, (c) => {
    const { fileId } = c.req.valid('param')
    if (isRootRef(c, fileId)) {
      if (c.req.valid('query').alt === 'media') {
        throw badRequest('Only files with binary content can be downloaded.', 'fileNotDownloadable')
      }
      return c.json(withDefaultFields(c, rootFolder(c), FILE_DEFAULT_FIELDS) as never, 200)
    }
    const row = requireItem(c, fileId)
    if (c.req.valid('query').alt === 'media') return download(c, row) as never
    return c.json(
      withDefaultFields(
        c,
        withLabels(c, toFile(c.var.world.db, row, c.var.user, fileFieldsKept(c))),
        FILE_DEFAULT_FIELDS,
      ) as never,
      200,
    )
  })
  .openapi(createRouteDef, (c) => {
    const meta = (c.req.valid('json') ?? {}) as Meta
    if (c.req.query('fields')) return c.json(toFile(c.var.world.db, createFileRow(c, meta), c.var.user) as never, 200)
    // Without `fields` Drive answers kind, id, name and mimeType: no rendering, and no reading the row back.
    const row = createFileRow(c, meta, undefined, undefined, undefined, false)
    return c.json({ kind: 'drive#file', id: row.id, name: row.name, mimeType: row.mimeType } as never, 200)
  })
  .openapi(updateRoute, (c) =>
    c.json(
      withDefaultFields(
        c,
        updateFile(c, c.req.valid('param').fileId, (c.req.valid('json') ?? {}) as Meta, c.req.valid('query')),
        FILE_DEFAULT_FIELDS,
      ) as never,
      200,
    ),
  )
  .openapi(copyRoute, (c) => {
    const source = requireItem(c, c.req.valid('param').fileId)
    if (source.mimeType === FOLDER)
      throw new GoogleApiError('PERMISSION_DENIED', 'fileNotCopyable', 'This file cannot be copied by the user.')
    const meta = (c.req.valid('json') ?? {}) as Meta
    const out = createFile(
      c,
      {
        ...meta,
        name: meta.name ?? `Copy of ${source.name}`,
        mimeType: source.mimeType,
        parents: meta.parents ?? parentsOf(source),
        ...(source.shortcut ? { shortcutDetails: JSON.parse(source.shortcut) as Meta['shortcutDetails'] } : {}),
      },
      // The source's bytes stay in SQLite: read only by the statement that writes the copy's (0432).
      { copyOf: source.id },
    )
    if (source.mimeType === GOOGLE_DOC) c.var.world.tx((db) => copyDocumentContent(db, source.id, String(out.id)))
    keepHeadRevision(c, String(out.id))
    return c.json(withDefaultFields(c, out, FILE_DEFAULT_FIELDS) as never, 200)
  })
  .openapi(deleteRoute, (c) => {
    const row = requireItem(c, c.req.valid('param').fileId)
    const role = effectiveRole(c.var.world.db, row.id, c.var.user.id, { row, user: c.var.user })
    // In a shared drive, deleting for good takes an organizer or a content manager (fileOrganizer).
    if (row.driveId ? !atLeast(role, 'fileOrganizer') : role !== 'owner') throw insufficient()
    c.var.world.tx((db) => removeFile(db, row.id))
    return c.body(null, 204)
  })
  .openapi(exportRoute, (c) => exportDoc(c, c.req.valid('param').fileId, c.req.valid('query').mimeType))
  // A Doc's `exportLinks` URL (docs.google.com's path, served here for clients that follow the link).
  // Deviation: its errors are Drive's JSON errors; docs.google.com answers with HTML pages.
  .get('/feeds/download/documents/export/Export', (c) => {
    const format = c.req.query('exportFormat')
    const mimeType = EXPORT_LINK_FORMATS.find(([, ext]) => ext === format)?.[0] ?? format ?? ''
    return exportDoc(c, c.req.query('id') ?? '', mimeType, false)
  })

/**
 * What files.export returns at most: "the exported content is limited to 10MB" (its reference); past it Drive
 * answers 403 exportSizeLimitExceeded. The exportLinks URLs have no such cap. (unverified: 10 MiB or 10^7 bytes.)
 */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024

/**
 * files.export: a Google Doc rendered in one of the formats Drive lists in `about.exportFormats`; `capped`: the
 * API method's size limit applies (not to an exportLinks download).
 */
async function exportDoc(c: WorldContext, fileId: string, mimeType: string | undefined, capped = true) {
  const row = requireItem(c, fileId)
  if (!mimeType) throw badRequest('Required parameter: mimeType', 'required')
  if (row.mimeType !== GOOGLE_DOC)
    throw new GoogleApiError('PERMISSION_DENIED', 'fileNotExportable', 'Export only supports Docs Editors files.')
  if (!(EXPORT_FORMATS as readonly string[]).includes(mimeType))
    throw badRequest('The requested conversion is not supported.', 'badRequest')
  const format = mimeType as ExportFormat
  const bytes = SYNC_FORMATS.includes(format)
    ? renderDocument(c.var.world.db, row.id, format)
    : await renderDocumentAsync(c.var.world.db, row.id, format)
  if (capped && bytes.length > EXPORT_LIMIT_BYTES)
    throw new GoogleApiError('PERMISSION_DENIED', 'exportSizeLimitExceeded', 'This file is too large to be exported.')
  return c.body(new Uint8Array(bytes), 200, {
    'content-type': mimeType.startsWith('text/') ? `${mimeType}; charset=utf-8` : mimeType,
  })
}

/** The top-level File fields a files.list `fields=` selection keeps from each file; null for all of them. */
function fileFieldsOf(selection: Selection): ReadonlySet<string> | null {
  if (selection.get('*') === true) return null
  const files = selection.get('files')
  if (files === undefined) return new Set()
  if (files === true || files.get('*') === true) return null
  return new Set(files.keys())
}

/** The label ids `includeLabels=id1,id2` names. */
const includedLabels = (c: WorldContext) =>
  (c.req.query('includeLabels') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** `includeLabels=id1,id2` (`ids`, read once per response): the named labels applied to the file, under `labelInfo`. */
function withLabels(c: WorldContext, file: Record<string, unknown>, ids = includedLabels(c)) {
  if (ids.length) file.labelInfo = { labels: labelsOf(c.var.world.db, String(file.id), c.var.user.id, ids) }
  return file
}

/** Deletes a file for good, with what a folder holds. */
export function removeFile(db: Db, id: string) {
  // Only ids and parents (not every column and the content bytes), in the table's own order as a full read gives.
  const rows = stmt(db, '/* remove tree */ SELECT id, parents FROM drive_files NOT INDEXED').all() as FileRow[]
  const doomed = new Set([id])
  // Mostly nothing lies below: no `parents` text holds the id (written as is when JSON needs no escape in it).
  const leaf = !/["\\\u0000-\u001f\ud800-\udfff]/.test(id) && !rows.some((f) => f.parents.includes(id))
  const all = leaf ? [] : rows.map((f) => ({ id: f.id, parents: parentsOf(f) }))
  let grew = !leaf
  while (grew) {
    grew = false
    for (const f of all)
      if (!doomed.has(f.id) && f.parents.some((p) => doomed.has(p))) {
        doomed.add(f.id)
        grew = true
      }
  }
  // Who could see each file, read before any of them goes (access is inherited through the folders): the changes
  // feed reports each removal to them.
  const seeing = audiences(db, doomed, listUsers(db))
  const kept = new Map<string, Audience>()
  for (const fid of doomed) {
    const row = findBareFile(db, fid)
    if (row) kept.set(fid, { users: seeing.get(fid)!, ownerId: row.ownerId, driveId: row.driveId })
  }
  for (const fid of doomed) {
    // What it showed stays for the oracle only (0439): an upload the log cannot give (multipart, resumable).
    keepErasedFile(db, fid)
    db.$client.prepare('DELETE FROM drive_permissions WHERE file_id = ?').run(fid)
    db.$client.prepare('DELETE FROM drive_revisions WHERE file_id = ?').run(fid)
    db.$client.prepare('DELETE FROM drive_file_labels WHERE file_id = ?').run(fid)
    db.$client.prepare('DELETE FROM drive_approvals WHERE file_id = ?').run(fid)
    db.$client.prepare('DELETE FROM drive_access_proposals WHERE file_id = ?').run(fid)
    db.$client.prepare('DELETE FROM drive_files WHERE id = ?').run(fid)
    recordChange(db, fid, true, undefined, kept.get(fid))
  }
}

/** `alt=media`: the bytes, with single-range support. */
function download(c: WorldContext, row: BareFileRow) {
  const data = contentOf(c.var.world.db, row.id)
  if (data === null) {
    if (row.mimeType === GOOGLE_DOC)
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'fileNotDownloadable',
        'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
      )
    throw badRequest('Only files with binary content can be downloaded.', 'fileNotDownloadable')
  }
  const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('range') ?? '')
  // A range whose last byte is before its first is not a range (RFC 9110 14.1.1): the header is ignored.
  if (range && (range[1] || range[2]) && !(range[1] && range[2] && Number(range[2]) < Number(range[1]))) {
    const start = range[1] ? Number(range[1]) : Math.max(0, data.length - Number(range[2]))
    const end = range[1] && range[2] ? Math.min(Number(range[2]), data.length - 1) : data.length - 1
    if (start >= data.length || start > end) {
      c.header('content-range', `bytes */${data.length}`)
      throw new GoogleApiError('OUT_OF_RANGE', 'requestedRangeNotSatisfiable', 'Request range not satisfiable', {}, 416)
    }
    return c.body(new Uint8Array(data.subarray(start, end + 1)), 206, {
      'content-type': row.mimeType,
      'content-range': `bytes ${start}-${end}/${data.length}`,
    })
  }
  return c.body(new Uint8Array(data), 200, { 'content-type': row.mimeType })
}

export { fileNotFound }
