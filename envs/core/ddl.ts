import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import { is, SQL } from 'drizzle-orm'

/**
 * CREATE TABLE / CREATE INDEX statements for drizzle tables, so the drizzle definitions stay the one
 * source of truth for storage and a world needs no migration files to start.
 * Covers what our schemas use: column types, NOT NULL, single and composite primary keys, literal
 * defaults, unique and plain indexes.
 */
export function createTableSql(table: SQLiteTable): string[] {
  const cfg = getTableConfig(table)
  const cols = cfg.columns.map((col) => {
    const parts = [quote(col.name), col.getSQLType()]
    if (col.primary) parts.push('PRIMARY KEY')
    if (col.notNull) parts.push('NOT NULL')
    if (col.hasDefault && col.default !== undefined && !is(col.default, SQL)) {
      parts.push(`DEFAULT ${literal(col.default)}`)
    }
    return parts.join(' ')
  })
  for (const pk of cfg.primaryKeys) cols.push(`PRIMARY KEY (${pk.columns.map((c) => quote(c.name)).join(', ')})`)
  const statements = [`CREATE TABLE IF NOT EXISTS ${quote(cfg.name)} (${cols.join(', ')})`]
  for (const idx of cfg.indexes) {
    const { name, columns, unique } = idx.config
    const on = columns.map((c) => quote((c as { name: string }).name)).join(', ')
    statements.push(`CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(name)} ON ${quote(cfg.name)} (${on})`)
  }
  return statements
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

function literal(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  if (typeof value === 'boolean') return value ? '1' : '0'
  if (value === null) return 'NULL'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return `'${text.replace(/'/g, "''")}'`
}
