import { stmt, type Db } from '../core/db.ts'
import { findUserById } from '../core/users.ts'
import type { WorldUserRow } from '../core/world-tables.ts'
import type { FileRow, PermissionRow } from './schema.ts'
import { atLeast, effectiveRole, FOLDER, GOOGLE_DOC, parentsOf, permissionIdFor, permissionsOf } from './store/files.ts'

/** Each user's My Drive root folder id (stable per user, shaped like Drive's `0A…` root ids). */
export function rootIdOf(userId: string): string {
  let h = 7
  for (const ch of userId) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  return `0A${h.toString(36).toUpperCase().padStart(8, '0')}Uk9PVA`
}

const iso = (ms: number) => new Date(ms).toISOString()

/** A user as Drive shows them; `known` is their world user row when the caller holds it (undefined: none). */
export function driveUser(db: Db, userId: string, viewerId: string, known?: WorldUserRow | null) {
  const u = known === undefined ? findUserById(db, userId) : known ?? undefined
  return { kind: 'drive#user', displayName: u?.name ?? userId, me: userId === viewerId, permissionId: permissionIdFor(db, userId), emailAddress: u?.email ?? '' }
}

export function toPermission(db: Db, p: PermissionRow, fileOwnerId: string) {
  const user = p.type === 'user' && p.emailAddress ? (stmt(db, 'SELECT name FROM world_users WHERE lower(email) = lower(?)').get(p.emailAddress) as { name: string } | undefined) : undefined
  const out: Record<string, unknown> = { kind: 'drive#permission', id: p.id, type: p.type, role: p.role }
  if (p.emailAddress) out.emailAddress = p.emailAddress
  if (p.domain) out.domain = p.domain
  if (user) out.displayName = user.name
  if (p.type === 'anyone' || p.type === 'domain') out.allowFileDiscovery = p.allowFileDiscovery
  if (p.expirationMs !== null) out.expirationTime = iso(p.expirationMs)
  out.deleted = false
  if (p.type === 'user') out.pendingOwner = false
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
export function toFile(db: Db, row: FileRow, viewer: string | WorldUserRow, only?: ReadonlySet<string>) {
  const viewerId = typeof viewer === 'string' ? viewer : viewer.id
  const known = typeof viewer === 'string' ? undefined : viewer
  // A field `only` leaves out is not worked out (the role walk, permissions, users), only dropped later.
  const wants = (k: string) => !only || only.has(k)
  const access = ACCESS_FIELDS.some(wants)
  const role = access ? effectiveRole(db, row.id, viewerId, { row, user: known }) : 'none'
  const perms = access ? permissionsOf(db, row.id) : []
  const canEdit = atLeast(role, 'writer')
  const canShare = canEdit
  const parents = parentsOf(row)
  const isFolder = row.mimeType === FOLDER
  // Owner and last modifier are mostly the same user, and often the viewer: each is read once.
  const users = new Map<string, WorldUserRow | undefined>(known ? [[known.id, known]] : [])
  const userRow = (id: string) => {
    if (!users.has(id)) users.set(id, findUserById(db, id))
    return users.get(id) ?? null
  }
  const out: Record<string, unknown> = {
    kind: 'drive#file',
    id: row.id,
    name: row.name,
    mimeType: row.mimeType,
  }
  if (row.description) out.description = row.description
  Object.assign(out, {
    starred: row.starred,
    trashed: row.trashed,
    explicitlyTrashed: row.explicitlyTrashed,
    parents: parents.length ? parents : row.ownerId === viewerId ? [rootIdOf(viewerId)] : undefined,
    properties: JSON.parse(row.properties),
    appProperties: JSON.parse(row.appProperties),
    spaces: ['drive'],
    version: String(row.version),
    webViewLink: row.mimeType === GOOGLE_DOC ? `https://docs.google.com/document/d/${row.id}/edit?usp=drivesdk` : isFolder ? `https://drive.google.com/drive/folders/${row.id}` : `https://drive.google.com/file/d/${row.id}/view?usp=drivesdk`,
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${row.mimeType}`,
    hasThumbnail: false,
    viewedByMe: row.ownerId === viewerId,
    createdTime: iso(row.createdMs),
    modifiedTime: iso(row.modifiedMs),
    modifiedByMe: row.lastModifyingUserId === viewerId,
    owners: row.driveId || !wants('owners') ? undefined : [driveUser(db, row.ownerId, viewerId, userRow(row.ownerId))],
    driveId: row.driveId ?? undefined,
    teamDriveId: row.driveId ?? undefined,
    lastModifyingUser: wants('lastModifyingUser')
      ? driveUser(db, row.lastModifyingUserId, viewerId, userRow(row.lastModifyingUserId)) : undefined,
    shared: perms.length > 1,
    ownedByMe: !row.driveId && row.ownerId === viewerId,
    capabilities: {
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
      // in specs/parity/gdrive). Deviation: no pending ownership transfers, so canAcceptOwnership is false.
      canAcceptOwnership: false,
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
    },
    viewersCanCopyContent: true,
    copyRequiresWriterPermission: false,
    writersCanShare: true,
    permissionIds: perms.map((p) => p.id),
    isAppAuthorized: false,
  })
  if (canShare) out.permissions = perms.map((p) => toPermission(db, p, row.ownerId))
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
  for (const k of ['parents', 'owners', 'driveId', 'teamDriveId', 'lastModifyingUser']) {
    if (out[k] === undefined) delete out[k]
  }
  if (!access) for (const k of ACCESS_FIELDS) delete out[k]
  return out
}
