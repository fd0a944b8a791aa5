import type { Db } from '../../core/db.ts'
import { opaqueId } from '../../core/ids.ts'

/** Comment and reply ids as Drive shows them (`AAAB` + 7 characters; comments and replies share one counter). */
export const commentId = (db: Db) => `AAAB${opaqueId(db, 'drive.comment', 7, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`
