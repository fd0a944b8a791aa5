import { stmt, type Db } from '../envs/core/db.ts'

const SQL = {
  drive: 'SELECT content AS bytes FROM drive_files WHERE id = ?',
  slack: 'SELECT data AS bytes FROM slack_files WHERE id = ?',
} as const

/**
 * A file's whole stored bytes as UTF-8 text, for the secret scan past the dump's first MiB (oracles/types.ts
 * `fileText`, docs/decisions/0409); null where the file has no stored bytes.
 */
export function fileText(db: Db, service: 'drive' | 'slack', id: string): string | null {
  const row = stmt(db, SQL[service]).get(id) as { bytes?: unknown } | undefined
  return Buffer.isBuffer(row?.bytes) ? row.bytes.toString('utf8') : null
}
