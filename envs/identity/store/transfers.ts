import { stmt, insertRow, type Db } from '../../core/db.ts'
import { identityTransfers } from '../schema.ts'

export type TransferParam = { key: string; value: string[] }
export type AppTransfer = {
  applicationId: string
  applicationTransferParams: TransferParam[]
  applicationTransferStatus: string
}
export type TransferRow = typeof identityTransfers.$inferSelect

/** The applications that support transfer, with the parameters each takes (Google's published ids). */
export const TRANSFER_APPS = [
  { id: '435070579839', name: 'Calendar', transferParams: [{ key: 'RELEASE_RESOURCES', value: ['TRUE'] }] },
  {
    id: '55656082996',
    name: 'Drive and Docs',
    transferParams: [{ key: 'PRIVACY_LEVEL', value: ['PRIVATE', 'SHARED'] }],
  },
] as const

export const DRIVE_APP = '55656082996'
export const CALENDAR_APP = '435070579839'

export function insertTransfer(db: Db, row: TransferRow): void {
  insertRow(db, identityTransfers, row)
}

const COLUMNS = `id, old_owner_id AS oldOwnerId, new_owner_id AS newOwnerId, applications, status,
  request_ms AS requestMs`

export function findTransfer(db: Db, id: string): TransferRow | undefined {
  return stmt(db, `SELECT ${COLUMNS} FROM identity_transfers WHERE id = ?`).get(id) as TransferRow | undefined
}

/** Every transfer, oldest first. */
export function listTransfers(db: Db): TransferRow[] {
  return stmt(db, `SELECT ${COLUMNS} FROM identity_transfers ORDER BY request_ms, rowid`).all() as TransferRow[]
}

export const appsOf = (row: TransferRow) => JSON.parse(row.applications) as AppTransfer[]
