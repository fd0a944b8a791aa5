import type { Db } from '../../core/db.ts'
import { listUsers } from '../../core/users.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'

/** `findUserByEmail` over one read of the world's users: the first user (by rowid) whose address matches. */
export function usersByEmail(db: Db): (email: string) => WorldUserRow | undefined {
  let byEmail: Map<string, WorldUserRow> | undefined
  return (email) => {
    if (!byEmail) {
      byEmail = new Map()
      for (const u of listUsers(db)) {
        const key = u.email.toLowerCase()
        if (!byEmail.has(key)) byEmail.set(key, u)
      }
    }
    return byEmail.get(email.trim().toLowerCase())
  }
}
