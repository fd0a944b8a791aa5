import { sql } from 'drizzle-orm'
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

// Storage shape of Drive. A Google Doc is a row here (mimeType application/vnd.google-apps.document);
// its content lives in the Docs service's tables under the same id.

export const files = sqliteTable(
  'drive_files',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    ownerId: text('owner_id').notNull(),
    /** JSON array of parent folder ids (Drive allows exactly one; empty for items of the root). */
    parents: text('parents').notNull(),
    description: text('description').notNull().default(''),
    starred: integer('starred', { mode: 'boolean' }).notNull().default(false),
    trashed: integer('trashed', { mode: 'boolean' }).notNull().default(false),
    explicitlyTrashed: integer('explicitly_trashed', { mode: 'boolean' }).notNull().default(false),
    createdMs: integer('created_ms').notNull(),
    modifiedMs: integer('modified_ms').notNull(),
    lastModifyingUserId: text('last_modifying_user_id').notNull(),
    version: integer('version').notNull(),
    content: blob('content', { mode: 'buffer' }),
    size: integer('size'),
    /** Plain text used by `fullText contains` (file content for text types, document text for Docs). */
    fullText: text('full_text').notNull().default(''),
    properties: text('properties').notNull().default('{}'),
    appProperties: text('app_properties').notNull().default('{}'),
    headRevisionId: text('head_revision_id'),
    /** JSON `{md5, sha1, sha256}` hex digests of `content` (binary files only; null for folders and Google types). */
    checksums: text('checksums'),
    /** The shared drive whose tree holds the file (null in My Drive). */
    driveId: text('drive_id'),
    /**
     * Derived from `name` on every write (store/name-search.ts), for searches and ordering in SQL: the lower-cased
     * name as UTF-16BE bytes, which sort as JavaScript compares strings, and the name's lower-cased words, each
     * after a space (`name contains` is prefix matching on the name and on its words).
     */
    nameKey: blob('name_key', { mode: 'buffer' }),
    nameWords: text('name_words').notNull().default(''),
    /** A shortcut's `shortcutDetails` as JSON `{targetId, targetMimeType}` (the type as it was at creation). */
    shortcut: text('shortcut'),
  },
  // By owner, with drive and id so a listing's "does the caller own it" probe reads the index alone; by type, as
  // listings walk the folder tree (folders are few next to files) and `mimeType = …` narrows a search. By parents
  // (`'x' in parents`), then in the default order with the listing index's columns and the owner, so a folder's
  // page reads about a page of one range (docs/decisions/0298). In files.list's default order (folders first,
  // newest first, name, id) with the columns exact searches and scopes test (words, trashed, starred, type,
  // created, drive), so a page of `name contains` reads about a page of index entries and a rare match walks the
  // index alone, looking up only rows it returns (docs/decisions/0220).
  (t) => [
    index('drive_files_by_owner').on(t.ownerId, t.driveId, t.id),
    index('drive_files_by_mime').on(t.mimeType),
    index('drive_files_by_parent_listing').on(
      t.parents,
      sql`(${t.mimeType} != 'application/vnd.google-apps.folder')`,
      sql`${t.modifiedMs} DESC`,
      t.nameKey,
      t.id,
      t.nameWords,
      t.ownerId,
      t.driveId,
      t.trashed,
      t.starred,
      t.mimeType,
      t.createdMs,
    ),
    index('drive_files_by_listing').on(
      sql`(${t.mimeType} != 'application/vnd.google-apps.folder')`,
      sql`${t.modifiedMs} DESC`,
      t.nameKey,
      t.id,
      t.nameWords,
      t.trashed,
      t.starred,
      t.mimeType,
      t.createdMs,
      t.driveId,
    ),
  ],
)

export const permissions = sqliteTable(
  'drive_permissions',
  {
    fileId: text('file_id').notNull(),
    id: text('id').notNull(),
    type: text('type', { enum: ['user', 'group', 'domain', 'anyone'] }).notNull(),
    role: text('role', { enum: ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'] }).notNull(),
    emailAddress: text('email_address'),
    domain: text('domain'),
    allowFileDiscovery: integer('allow_file_discovery', { mode: 'boolean' }).notNull().default(false),
    expirationMs: integer('expiration_ms'),
    /** A writer the owner asked to take ownership (consumer accounts' transfer, docs/decisions/0456). */
    pendingOwner: integer('pending_owner', { mode: 'boolean' }).notNull().default(false),
  },
  // By type: listings look up the (few) domain and anyone grants.
  (t) => [
    primaryKey({ columns: [t.fileId, t.id] }),
    index('drive_permissions_by_email').on(t.emailAddress),
    index('drive_permissions_by_type').on(t.type),
  ],
)

export const revisions = sqliteTable(
  'drive_revisions',
  {
    fileId: text('file_id').notNull(),
    id: text('id').notNull(),
    modifiedMs: integer('modified_ms').notNull(),
    userId: text('user_id').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size'),
    keepForever: integer('keep_forever', { mode: 'boolean' }).notNull().default(false),
    /**
     * This revision's bytes, but NULL for the file's head revision, whose bytes are the file's `content` (stored
     * once, docs/decisions/0421), and for a Google Doc's revisions (no size either). Read through
     * store/revisions.ts `revisionBytes`.
     */
    content: blob('content', { mode: 'buffer' }),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.id] })],
)

/**
 * Bytes the episode erased (docs/decisions/0439): a row per stored version of a file deleted for good (`files.delete`,
 * `emptyTrash`, a shared drive's removal; the head's bytes, or a Doc's text, and each other revision's) and per
 * revision deleted (`revisions.delete`), with the file's name, type and place as they stood. Read by the oracle only
 * (gym/file-text.ts), to judge what a deleted file showed; no route, dump or inspector view reads it.
 */
export const erased = sqliteTable('drive_erased', {
  seq: integer('seq').primaryKey(),
  fileId: text('file_id').notNull(),
  /** The revision the bytes were (null for a file without revisions: a folder, a Doc). */
  revisionId: text('revision_id'),
  /** Who wrote this version, and when (the revision's, or the file's last modifier for a file without one). */
  userId: text('user_id').notNull(),
  modifiedMs: integer('modified_ms').notNull(),
  erasedMs: integer('erased_ms').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** JSON object of the file's (public) properties. */
  properties: text('properties').notNull().default('{}'),
  mimeType: text('mime_type').notNull(),
  /** JSON array of the file's parent folder ids when it was erased. */
  parents: text('parents').notNull(),
  driveId: text('drive_id'),
  createdMs: integer('created_ms').notNull(),
  content: blob('content', { mode: 'buffer' }),
  /** The file's `checksums` for its head bytes (null for other revisions and Google types). */
  checksums: text('checksums'),
})

/** The change feed behind changes.list: one row per file change, in order. */
export const changes = sqliteTable('drive_changes', {
  seq: integer('seq').primaryKey(),
  fileId: text('file_id').notNull(),
  timeMs: integer('time_ms').notNull(),
  removed: integer('removed', { mode: 'boolean' }).notNull().default(false),
  /** A removal's audience, kept from before the file went: JSON `{ users, ownerId, driveId }` (null otherwise). */
  audience: text('audience'),
})

/** Resumable upload sessions (uploadType=resumable): metadata first, bytes later. */
export const uploads = sqliteTable('drive_uploads', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  fileId: text('file_id'),
  metadata: text('metadata').notNull(),
  received: blob('received', { mode: 'buffer' }).notNull(),
})

/**
 * The bytes of a resumable session, one row per chunk, joined once when the last chunk arrives (0407): rewriting the
 * whole received blob on every chunk made an upload in small chunks quadratic (16 MiB in 256 KiB chunks: 9.4 s).
 */
export const uploadChunks = sqliteTable(
  'drive_upload_chunks',
  {
    uploadId: text('upload_id').notNull(),
    seq: integer('seq').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.seq] })],
)

/** Comments (and their replies, `commentId` set) on files; one store for Drive and Docs. */
export const comments = sqliteTable(
  'drive_comments',
  {
    fileId: text('file_id').notNull(),
    id: text('id').notNull(),
    commentId: text('comment_id'),
    authorId: text('author_id').notNull(),
    content: text('content').notNull(),
    anchor: text('anchor'),
    quoted: text('quoted'),
    action: text('action'),
    resolved: integer('resolved', { mode: 'boolean' }).notNull().default(false),
    deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
    createdMs: integer('created_ms').notNull(),
    modifiedMs: integer('modified_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.id] })],
)

/** Shared drives. Members are rows of drive_permissions whose file_id is the drive id. */
export const sharedDrives = sqliteTable(
  'drive_shared_drives',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    creatorId: text('creator_id').notNull(),
    requestId: text('request_id').notNull(),
    createdMs: integer('created_ms').notNull(),
    themeId: text('theme_id'),
    colorRgb: text('color_rgb').notNull(),
    /** JSON object of the drive's restrictions. */
    restrictions: text('restrictions').notNull().default('{}'),
    /** JSON array of user ids that hid the drive (hiding is per user). */
    hiddenBy: text('hidden_by').notNull().default('[]'),
  },
  (t) => [uniqueIndex('drive_shared_drives_by_request').on(t.creatorId, t.requestId)],
)

/** Notification channels opened by files.watch / changes.watch (closed by channels.stop). */
export const channels = sqliteTable(
  'drive_channels',
  {
    id: text('id').notNull(),
    resourceId: text('resource_id').notNull(),
    resourceUri: text('resource_uri').notNull(),
    userId: text('user_id').notNull(),
    token: text('token'),
    address: text('address').notNull(),
    expirationMs: integer('expiration_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.id, t.resourceId] })],
)

/** Labels applied to files: one row per (file, label) with its field values as JSON. */
export const fileLabels = sqliteTable(
  'drive_file_labels',
  {
    fileId: text('file_id').notNull(),
    labelId: text('label_id').notNull(),
    revisionId: text('revision_id').notNull(),
    /** JSON object fieldId → { valueType, values[] }. */
    fields: text('fields').notNull().default('{}'),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.labelId] })],
)

/** Long-running operations started by files.download (done at once; operations.get reads them back). */
export const operations = sqliteTable('drive_operations', {
  name: text('name').primaryKey(),
  userId: text('user_id').notNull(),
  fileId: text('file_id').notNull(),
  /** Export format for Docs Editors files; null downloads the stored bytes. */
  mimeType: text('mime_type'),
  revisionId: text('revision_id'),
})

/** Approvals on files (approvals.start … approve/decline/cancel). */
export const approvals = sqliteTable(
  'drive_approvals',
  {
    fileId: text('file_id').notNull(),
    id: text('id').notNull(),
    initiatorId: text('initiator_id').notNull(),
    status: text('status', { enum: ['IN_PROGRESS', 'APPROVED', 'CANCELLED', 'DECLINED'] }).notNull(),
    /** JSON array of { email, response } in the order reviewers were added. */
    reviewers: text('reviewers').notNull(),
    dueMs: integer('due_ms'),
    createdMs: integer('created_ms').notNull(),
    modifiedMs: integer('modified_ms').notNull(),
    completedMs: integer('completed_ms'),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.id] })],
)

/** Pending access requests ("Request access" in Drive), resolved by approvers through accessproposals.resolve. */
export const accessProposals = sqliteTable(
  'drive_access_proposals',
  {
    fileId: text('file_id').notNull(),
    id: text('id').notNull(),
    requesterEmail: text('requester_email').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    role: text('role').notNull(),
    view: text('view'),
    message: text('message').notNull().default(''),
    createdMs: integer('created_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.id] })],
)

export const driveTables = [
  files,
  permissions,
  revisions,
  erased,
  changes,
  uploads,
  uploadChunks,
  comments,
  sharedDrives,
  channels,
  fileLabels,
  operations,
  approvals,
  accessProposals,
] as const
export type SharedDriveRow = typeof sharedDrives.$inferSelect
export type FileRow = typeof files.$inferSelect
export type PermissionRow = typeof permissions.$inferSelect
