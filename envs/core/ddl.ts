import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import { Column, is, SQL, StringChunk } from 'drizzle-orm'

/**
 * CREATE TABLE / CREATE INDEX statements for drizzle tables, so the drizzle definitions stay the one
 * source of truth for storage and a world needs no migration files to start.
 * Covers what our schemas use: column types, NOT NULL, single and composite primary keys, literal
 * defaults, unique and plain indexes, index terms written as `sql` (an expression, or a column with DESC), and
 * partial indexes (`.where(sql`…`)`: rows outside it get no entry, so a write of such a row skips that index).
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
    const { name, columns, unique, where } = idx.config
    const on = columns.map(indexTerm).join(', ')
    const partial = where ? ` WHERE ${indexTerm(where)}` : ''
    statements.push(
      `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(name)} ON ${quote(cfg.name)} (${on})${partial}`,
    )
  }
  return statements
}

/**
 * One term of an index: a column, or an `sql` template over the table's columns and literal text (for example
 * sql`${t.modifiedMs} DESC` or sql`(${t.mimeType} != 'x')`), written with bare column names as CREATE INDEX needs.
 */
function indexTerm(term: unknown): string {
  if (is(term, SQL)) return term.queryChunks.map(indexTerm).join('')
  if (is(term, StringChunk)) return term.value.join('')
  if (is(term, Column)) return quote(term.name)
  throw new Error(`createTableSql: unsupported index term ${String(term)}`)
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
