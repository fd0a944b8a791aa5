import type { Db } from '../../core/db.ts'
import { renameCalendarAddress } from '../../calendar/transfer.ts'
import { renameDriveAddress } from '../../drive/transfer.ts'
import { renameGmailAddress } from '../../gmail/rename.ts'

/**
 * What a new primary address of a user or group changes outside the Directory (docs/decisions/0469): Calendar (the
 * user's primary calendar takes the new id; rules, guests and organizers follow) and Drive (grants show the new
 * address, approval reviewers, access proposals and label user values: 0476) and Gmail (delegates, forwarding
 * addresses and targets, the user's primary send-as address: 0476). The old address stays an alias (0467), which
 * Calendar and free/busy also accept.
 */
export function followRename(db: Db, kind: 'user' | 'group', oldEmail: string, newEmail: string): void {
  renameCalendarAddress(db, kind, oldEmail, newEmail)
  renameDriveAddress(db, kind, oldEmail, newEmail)
  renameGmailAddress(db, oldEmail, newEmail)
}
