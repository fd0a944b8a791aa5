import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { getMeta } from '../../core/clock.ts'
import { selectRows, type Db } from '../../core/db.ts'
import { nextCounter } from '../../core/ids.ts'
import { identityAppPasswords, identityBackupCodes } from '../schema.ts'

// The sign-in secrets an administrator revokes when an account is compromised or its owner leaves: app passwords
// (`asps`) and backup verification codes (`verificationCodes`). The secrets themselves are never shown for app
// passwords; backup codes are listed, as Google lists them to an administrator.

export type AppPassword = typeof identityAppPasswords.$inferSelect

export const appPasswordsOf = (db: Db, userId: string): AppPassword[] =>
  selectRows(db, identityAppPasswords, { userId }).sort((a, b) => a.codeId - b.codeId)

export function insertAppPassword(db: Db, userId: string, name: string, createdMs: number, lastUsedMs: number | null) {
  const codeId = Math.max(0, ...appPasswordsOf(db, userId).map((a) => a.codeId)) + 1
  db.insert(identityAppPasswords).values({ userId, codeId, name, createdMs, lastUsedMs }).run()
  return codeId
}

export function deleteAppPassword(db: Db, userId: string, codeId: number) {
  db.delete(identityAppPasswords)
    .where(and(eq(identityAppPasswords.userId, userId), eq(identityAppPasswords.codeId, codeId)))
    .run()
}

export const backupCodesOf = (db: Db, userId: string): string[] =>
  selectRows(db, identityBackupCodes, { userId })
    .sort((a, b) => a.seq - b.seq)
    .map((r) => r.code)

export function invalidateBackupCodes(db: Db, userId: string) {
  db.delete(identityBackupCodes).where(eq(identityBackupCodes.userId, userId)).run()
}

/** A new set of ten codes in place of the user's current ones: eight digits, stable per seed and generation. */
export function generateBackupCodes(db: Db, userId: string) {
  invalidateBackupCodes(db, userId)
  const generation = nextCounter(db, 'identity.backup-codes')
  const salt = getMeta(db, 'id_salt') ?? ''
  for (let seq = 0; seq < 10; seq++) {
    const h = createHash('sha256').update(`${salt}\u0000backup-code\u0000${userId}\u0000${generation}\u0000${seq}`)
    const code = (h.digest().readUInt32BE(0) % 10 ** 8).toString().padStart(8, '0')
    db.insert(identityBackupCodes).values({ userId, seq, code }).run()
  }
}

/** The dump's `appPasswords` and `backupCodes` (shape in ../state.ts). */
export function signInCodeEntities(db: Db) {
  const passwords = selectRows(db, identityAppPasswords, {}).sort(
    (a, b) => a.userId.localeCompare(b.userId) || a.codeId - b.codeId,
  )
  const counts = new Map<string, number>()
  for (const r of selectRows(db, identityBackupCodes, {})) counts.set(r.userId, (counts.get(r.userId) ?? 0) + 1)
  return {
    appPasswords: Object.fromEntries(
      passwords.map((a) => [`${a.userId} ${a.codeId}`, { userId: a.userId, codeId: a.codeId, name: a.name }]),
    ),
    backupCodes: Object.fromEntries(
      [...counts].sort((a, b) => a[0].localeCompare(b[0])).map(([userId, count]) => [userId, { userId, count }]),
    ),
  }
}
