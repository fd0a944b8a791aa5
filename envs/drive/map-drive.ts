import type { Db } from '../core/db.ts'
import { stmt } from '../core/db.ts'
import type { SharedDriveRow } from './schema.ts'
import { atLeast, type Role } from './store/files.ts'

/** The background themes a shared drive may take (about.driveThemes lists the same). */
export const DRIVE_THEMES = [
  { id: 'abacus', colorRgb: '#1e88e5' },
  { id: 'bok_choy', colorRgb: '#43a047' },
  { id: 'citrus', colorRgb: '#f4511e' },
  { id: 'desk', colorRgb: '#6d4c41' },
].map((t) => ({ ...t, backgroundImageLink: `https://ssl.gstatic.com/team_drive_themes/${t.id}_background.jpg` }))

export const DEFAULT_DRIVE_COLOR = '#4285f4'

/** A shared drive as a member with `role` sees it (`drive#drive`, or `drive#teamDrive` for the legacy API). */
export function toSharedDrive(db: Db, d: SharedDriveRow, viewerId: string, role: Role | 'none', legacy = false) {
  const theme = DRIVE_THEMES.find((t) => t.id === d.themeId)
  const organizer = atLeast(role, 'organizer')
  const r = JSON.parse(d.restrictions) as Record<string, boolean>
  const restrictions = {
    adminManagedRestrictions: r.adminManagedRestrictions ?? false,
    copyRequiresWriterPermission: r.copyRequiresWriterPermission ?? false,
    domainUsersOnly: r.domainUsersOnly ?? false,
    driveMembersOnly: r.driveMembersOnly ?? false,
    sharingFoldersRequiresOrganizerPermission: r.sharingFoldersRequiresOrganizerPermission ?? false,
  }
  const capabilities: Record<string, boolean> = {
    canAddChildren: atLeast(role, 'writer'),
    canChangeCopyRequiresWriterPermissionRestriction: organizer,
    canChangeDomainUsersOnlyRestriction: organizer,
    canChangeDriveBackground: organizer,
    canChangeDriveMembersOnlyRestriction: organizer,
    canChangeSharingFoldersRequiresOrganizerPermissionRestriction: organizer,
    canComment: atLeast(role, 'commenter'),
    canCopy: atLeast(role, 'reader'),
    canDeleteChildren: atLeast(role, 'fileOrganizer'),
    canDeleteDrive: organizer,
    canDownload: atLeast(role, 'reader'),
    canEdit: atLeast(role, 'writer'),
    canListChildren: atLeast(role, 'reader'),
    canManageMembers: organizer,
    canReadRevisions: atLeast(role, 'reader'),
    canRename: organizer,
    canRenameDrive: organizer,
    canResetDriveRestrictions: organizer,
    canShare: atLeast(role, 'writer') && !(restrictions.sharingFoldersRequiresOrganizerPermission && !organizer),
    canTrashChildren: atLeast(role, 'fileOrganizer'),
  }
  if (legacy) {
    capabilities.canRemoveChildren = capabilities.canTrashChildren!
    capabilities.canRenameTeamDrive = organizer
    capabilities.canDeleteTeamDrive = organizer
    capabilities.canChangeTeamDriveBackground = organizer
    capabilities.canChangeTeamMembersOnlyRestriction = organizer
    delete capabilities.canRenameDrive
    delete capabilities.canDeleteDrive
    delete capabilities.canChangeDriveBackground
    capabilities.canResetTeamDriveRestrictions = organizer
    delete capabilities.canChangeDriveMembersOnlyRestriction
    delete capabilities.canResetDriveRestrictions
  }
  const hidden = (JSON.parse(d.hiddenBy) as string[]).includes(viewerId)
  const out: Record<string, unknown> = {
    kind: legacy ? 'drive#teamDrive' : 'drive#drive',
    id: d.id,
    name: d.name,
    colorRgb: d.colorRgb,
    backgroundImageLink: theme?.backgroundImageLink ?? 'https://ssl.gstatic.com/team_drive_themes/bg_default.jpg',
    capabilities,
    createdTime: new Date(d.createdMs).toISOString(),
    restrictions: legacy
      ? { ...restrictions, teamMembersOnly: restrictions.driveMembersOnly, driveMembersOnly: undefined }
      : restrictions,
  }
  if (d.themeId) out.themeId = d.themeId
  if (!legacy) out.hidden = hidden
  return out
}

/** Member counts used by drives.list `q` (memberCount, organizerCount). */
export function memberCounts(db: Db, driveId: string): { members: number; organizers: number } {
  const rows = stmt(db, 'SELECT role FROM drive_permissions WHERE file_id = ?').pluck().all(driveId) as string[]
  return { members: rows.length, organizers: rows.filter((r) => r === 'organizer').length }
}
