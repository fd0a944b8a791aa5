import type Database from 'better-sqlite3'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'

/**
 * The drizzle handle every store function takes, with the raw connection as `$client` for the few
 * hot paths that use prepared statements. Synchronous: never `await` inside a transaction.
 */
export type Db = BetterSQLite3Database<Record<string, never>> & { $client: Database.Database }

const MAX_STATEMENTS = 1000
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/**
 * A prepared statement for this connection, compiled once. Preparing costs far more than running,
 * so per-request paths (auth, clock, ids, action log) go through here. The cache dies with the
 * connection (restore swaps connections), so it never outlives the world's bytes.
 */
export function stmt(db: Db, sql: string): Database.Statement {
  const client = db.$client
  let cache = statements.get(client)
  if (!cache) statements.set(client, (cache = new Map()))
  let s = cache.get(sql)
  if (!s) {
    // Search paths prepare one statement per query shape; a caller inventing shapes must not grow this forever.
    if (cache.size >= MAX_STATEMENTS) cache.clear()
    cache.set(sql, (s = client.prepare(sql)))
  }
  return s
}
