import type Database from 'better-sqlite3'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'

/**
 * The drizzle handle every store function takes, with the raw connection as `$client` for the few
 * hot paths that use prepared statements. Synchronous: never `await` inside a transaction.
 */
export type Db = BetterSQLite3Database<Record<string, never>> & { $client: Database.Database }
