import type { WorldContext } from '../../core/http.ts'
import { driveUser, rootIdOf } from '../map.ts'
import { FOLDER } from '../store/files.ts'

/** `root` (or the caller's own `0A…` root id) names the caller's My Drive folder. */
export const isRootRef = (c: WorldContext, id: string) => id === 'root' || id === rootIdOf(c.var.user.id)

/**
 * The caller's My Drive root as files.get answers it: a folder named "My Drive" with no parents, owned by the
 * caller, that takes children but cannot be renamed, moved, trashed or shared.
 * Deviation: the root is not a stored file, so only files.get (and `root` in parents, addParents and `q`) know it.
 */
export function rootFolder(c: WorldContext): Record<string, unknown> {
  const db = c.var.world.db
  const me = driveUser(db, c.var.user.id, c.var.user.id)
  return {
    kind: 'drive#file',
    id: rootIdOf(c.var.user.id),
    name: 'My Drive',
    mimeType: FOLDER,
    starred: false,
    trashed: false,
    explicitlyTrashed: false,
    spaces: ['drive'],
    version: '1',
    webViewLink: `https://drive.google.com/drive/folders/${rootIdOf(c.var.user.id)}`,
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${FOLDER}`,
    hasThumbnail: false,
    viewedByMe: true,
    owners: [me],
    lastModifyingUser: me,
    shared: false,
    ownedByMe: true,
    capabilities: {
      canAddChildren: true,
      canComment: false,
      canCopy: false,
      canDelete: false,
      canDownload: true,
      canEdit: false,
      canListChildren: true,
      canModifyContent: true,
      canRemoveChildren: true,
      canRename: false,
      canShare: false,
      canTrash: false,
      canUntrash: false,
      canMoveItemWithinDrive: false,
      canMoveChildrenWithinDrive: true,
    },
    quotaBytesUsed: '0',
  }
}
