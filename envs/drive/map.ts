import { stmt, type Db } from '../core/db.ts'
import { findUserById } from '../core/users.ts'
import type { WorldUserRow } from '../core/world-tables.ts'
import type { PermissionRow } from './schema.ts'
import { EXPORT_LINK_FORMATS } from '../docs/render.ts'
import {
  atLeast,
  type BareFileRow,
  effectiveRole,
  FOLDER,
  GOOGLE_DOC,
  parentsOf,
  permissionIdFor,
  permissionsOf,
  type Role,
} from './store/files.ts'

/** Each user's My Drive root folder id (stable per user, shaped like Drive's `0A…` root ids). */
export function rootIdOf(userId: string): string {
  let h = 7
  for (const ch of userId) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  return `0A${h.toString(36).toUpperCase().padStart(8, '0')}Uk9PVA`
}

const iso = (ms: number) => new Date(ms).toISOString()

/** A user as Drive shows them; `known` is their world user row when the caller holds it (undefined: none). */
export function driveUser(db: Db, userId: string, viewerId: string, known?: WorldUserRow | null) {
  const u = known === undefined ? findUserById(db, userId) : (known ?? undefined)
  return {
    kind: 'drive#user',
    displayName: u?.name ?? userId,
    me: userId === viewerId,
    permissionId: permissionIdFor(db, userId),
    emailAddress: u?.email ?? '',
  }
}

export function toPermission(db: Db, p: PermissionRow, fileOwnerId: string) {
  const user =
    p.type === 'user' && p.emailAddress
      ? (stmt(db, 'SELECT name FROM world_users WHERE lower(email) = lower(?)').get(p.emailAddress) as
          { name: string } | undefined)
      : undefined
  const out: Record<string, unknown> = { kind: 'drive#permission', id: p.id, type: p.type, role: p.role }
  if (p.emailAddress) out.emailAddress = p.emailAddress
  if (p.domain) out.domain = p.domain
  if (user) out.displayName = user.name
  if (p.type === 'anyone' || p.type === 'domain') out.allowFileDiscovery = p.allowFileDiscovery
  if (p.expirationMs !== null) out.expirationTime = iso(p.expirationMs)
  out.deleted = false
  if (p.type === 'user') out.pendingOwner = p.pendingOwner
  void fileOwnerId
  return out
}

/** File fields that need the viewer's role or the file's permissions. */
const ACCESS_FIELDS = ['capabilities', 'permissions', 'permissionIds', 'shared']

/**
 * A file resource as a given viewer sees it (capabilities, `me`, `ownedByMe`, parents). `only` names the
 * top-level fields the response keeps (from `fields=`); when none of them needs access, the role walk and the
 * permission rows are skipped and those fields left out. `row` is the file as it is now; `viewer` is the
 * viewer's id or world user row (the row saves reading it again).
 */
export function toFile(db: Db, row: BareFileRow, viewer: string | WorldUserRow, only?: ReadonlySet<string>) {
  const viewerId = typeof viewer === 'string' ? viewer : viewer.id
  const known = typeof viewer === 'string' ? undefined : viewer
  // A field `only` leaves out is not worked out (the role walk, permissions, users, dates), nor set.
  const all = only === undefined
  const access = all || ACCESS_FIELDS.some((k) => only.has(k))
  const role = access ? effectiveRole(db, row.id, viewerId, { row, user: known }) : 'none'
  const perms = access ? permissionsOf(db, row.id) : []
  const canEdit = atLeast(role, 'writer')
  const canShare = canEdit
  const isFolder = row.mimeType === FOLDER
  // Owner and last modifier are mostly the same user, and often the viewer: each is read once.
  const users: UserMemo = { known, db, ids: [], rows: [] }
  const out: Record<string, unknown> = {
    kind: 'drive#file',
    id: row.id,
    name: row.name,
    mimeType: row.mimeType,
  }
  if (row.description && (all || only.has('description'))) out.description = row.description
  if (all || only.has('starred')) out.starred = row.starred
  if (all || only.has('trashed')) out.trashed = row.trashed
  if (all || only.has('explicitlyTrashed')) out.explicitlyTrashed = row.explicitlyTrashed
  if (all || only.has('parents')) {
    const parents = parentsOf(row)
    if (parents.length) out.parents = parents
    else if (row.ownerId === viewerId) out.parents = [rootIdOf(viewerId)]
  }
  if (all || only.has('properties')) out.properties = JSON.parse(row.properties)
  if (all || only.has('appProperties')) out.appProperties = JSON.parse(row.appProperties)
  if (all || only.has('spaces')) out.spaces = ['drive']
  if (all || only.has('version')) out.version = String(row.version)
  if (all || only.has('webViewLink')) {
    out.webViewLink =
      row.mimeType === GOOGLE_DOC
        ? `https://docs.google.com/document/d/${row.id}/edit?usp=drivesdk`
        : isFolder
          ? `https://drive.google.com/drive/folders/${row.id}`
          : `https://drive.google.com/file/d/${row.id}/view?usp=drivesdk`
  }
  if (row.mimeType === GOOGLE_DOC && (all || only.has('exportLinks'))) out.exportLinks = exportLinksOf(row.id)
  if (row.shortcut && (all || only.has('shortcutDetails'))) out.shortcutDetails = JSON.parse(row.shortcut) as unknown
  if (all || only.has('iconLink')) {
    out.iconLink = `https://drive-thirdparty.googleusercontent.com/16/type/${row.mimeType}`
  }
  if (all || only.has('hasThumbnail')) out.hasThumbnail = false
  if (all || only.has('viewedByMe')) out.viewedByMe = row.ownerId === viewerId
  if (all || only.has('createdTime')) out.createdTime = iso(row.createdMs)
  if (all || only.has('modifiedTime')) out.modifiedTime = iso(row.modifiedMs)
  if (all || only.has('modifiedByMe')) out.modifiedByMe = row.lastModifyingUserId === viewerId
  if (!row.driveId && (all || only.has('owners'))) {
    out.owners = [driveUser(db, row.ownerId, viewerId, userRowOf(users, row.ownerId))]
  }
  if (row.driveId && (all || only.has('driveId'))) out.driveId = row.driveId
  if (row.driveId && (all || only.has('teamDriveId'))) out.teamDriveId = row.driveId
  if (all || only.has('lastModifyingUser')) {
    out.lastModifyingUser = driveUser(db, row.lastModifyingUserId, viewerId, userRowOf(users, row.lastModifyingUserId))
  }
  if (access) out.shared = perms.length > 1
  if (all || only.has('ownedByMe')) out.ownedByMe = !row.driveId && row.ownerId === viewerId
  if (access) {
    // The viewer may accept ownership while their own permission is pending (docs/decisions/0456).
    const accept = !row.driveId && perms.some((p) => p.pendingOwner && p.id === permissionIdFor(db, viewerId))
    out.capabilities = capabilitiesOf(row, role, isFolder, canEdit, canShare, accept)
  }
  if (all || only.has('viewersCanCopyContent')) out.viewersCanCopyContent = true
  if (all || only.has('copyRequiresWriterPermission')) out.copyRequiresWriterPermission = false
  if (all || only.has('writersCanShare')) out.writersCanShare = true
  if (access) out.permissionIds = perms.map((p) => p.id)
  if (all || only.has('isAppAuthorized')) out.isAppAuthorized = false
  if (access && canShare) out.permissions = perms.map((p) => toPermission(db, p, row.ownerId))
  if (row.size !== null) {
    out.size = String(row.size)
    out.quotaBytesUsed = String(row.size ?? 0)
    out.originalFilename = row.name
    const ext = /\.([A-Za-z0-9]+)$/.exec(row.name)?.[1]
    if (ext) Object.assign(out, { fullFileExtension: ext, fileExtension: ext })
    if (row.headRevisionId) out.headRevisionId = row.headRevisionId
    if (row.checksums) {
      const sums = JSON.parse(row.checksums) as { md5: string; sha1: string; sha256: string }
      Object.assign(out, { md5Checksum: sums.md5, sha1Checksum: sums.sha1, sha256Checksum: sums.sha256 })
    }
  } else out.quotaBytesUsed = '0'
  return out
}

/** The world users toFile has read (the viewer's row when the caller held it), by id. */
type UserMemo = { known: WorldUserRow | undefined; db: Db; ids: string[]; rows: (WorldUserRow | undefined)[] }

function userRowOf(memo: UserMemo, id: string): WorldUserRow | null {
  if (memo.known?.id === id) return memo.known
  let at = memo.ids.indexOf(id)
  if (at < 0) {
    at = memo.ids.push(id) - 1
    memo.rows.push(findUserById(memo.db, id))
  }
  return memo.rows[at] ?? null
}

/** A file's capabilities for a viewer holding `role`. */
function capabilitiesOf(
  row: BareFileRow,
  role: Role | 'none',
  isFolder: boolean,
  canEdit: boolean,
  canShare: boolean,
  canAcceptOwnership: boolean,
) {
  return {
    canAddChildren: isFolder && canEdit,
    canComment: atLeast(role, 'commenter'),
    canCopy: !isFolder && atLeast(role, 'reader'),
    canDelete: row.driveId ? atLeast(role, 'fileOrganizer') : role === 'owner',
    canDownload: atLeast(role, 'reader'),
    canEdit,
    canListChildren: isFolder && atLeast(role, 'reader'),
    canModifyContent: canEdit,
    canReadRevisions: canEdit,
    canRemoveChildren: isFolder && canEdit,
    canRename: canEdit,
    canShare,
    canTrash: row.driveId ? atLeast(role, 'fileOrganizer') : role === 'owner',
    canUntrash: row.driveId ? atLeast(role, 'fileOrganizer') : role === 'owner',
    canModifyLabels: canEdit,
    canReadLabels: atLeast(role, 'reader'),
    canMoveItemWithinDrive: row.driveId ? atLeast(role, 'fileOrganizer') : role === 'owner',
    // Ownership, My Drive parents, moves across drives and restrictions, from the role (recorded owner values
    // in specs/parity/gdrive).
    canAcceptOwnership,
    canAddMyDriveParent: !row.driveId && role !== 'owner' && atLeast(role, 'reader'),
    canRemoveMyDriveParent: !row.driveId && role === 'owner',
    canMoveChildrenWithinDrive: isFolder && canEdit,
    canMoveItemIntoTeamDrive: !row.driveId && role === 'owner',
    canMoveItemOutOfDrive: row.driveId ? atLeast(role, 'organizer') : role === 'owner',
    canChangeCopyRequiresWriterPermission: canEdit,
    canChangeViewersCanCopyContent: canEdit,
    canChangeItemDownloadRestriction: canEdit,
    canChangeSecurityUpdateEnabled: false,
    canDisableInheritedPermissions: !!row.driveId && atLeast(role, 'organizer'),
    canEnableInheritedPermissions: canEdit,
    canModifyContentRestriction: canEdit,
    canModifyEditorContentRestriction: canEdit,
    canModifyOwnerContentRestriction: row.driveId ? atLeast(role, 'organizer') : role === 'owner',
    canRemoveContentRestriction: false,
  }
}

/** A Google Doc's `exportLinks`: Google's own download URLs (the agent port serves their path as well). */
function exportLinksOf(id: string): Record<string, string> {
  const base = `https://docs.google.com/feeds/download/documents/export/Export?id=${encodeURIComponent(id)}&exportFormat=`
  return Object.fromEntries(EXPORT_LINK_FORMATS.map(([mime, ext]) => [mime, base + ext]))
}
