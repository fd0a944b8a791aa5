import type { Cond } from './parse.ts'
import { nameContainsSql, nameKeyOf, wellFormed } from '../store/name-search.ts'
import { CONTAINS_FN, textContainsSql } from '../store/text-search.ts'

/**
 * Turns a parsed `q` into a SQL WHERE clause over `drive_files` that keeps at least every file the query
 * matches (a superset), so files.list loads only candidate rows; `matches()` stays the judge of each file.
 * `visibility` and properties become TRUE, as do the terms about the viewer (`in parents|owners|writers|readers`,
 * `sharedWithMe`) when the viewer is not given. `exact` says the clause selects exactly the matching files, which
 * `not` needs to stay sound. `contains` over description and fullText calls a SQL function: run the clause on a
 * connection that `useTextSearch` (store/text-search.ts) set up.
 */
export type Prefilter = { where: string; params: (string | number | Buffer)[]; exact: boolean; owned?: boolean }

/**
 * Who is searching: their user id, address, and My Drive root id (which `root` stands for). `rootNamed: false`
 * says no file names that root id as its parent (only a seed can), so `'root' in parents` is the viewer's own
 * top-level files alone: one range of the parents index, and `owned` (every selected row is the viewer's).
 */
export type Viewer = { id: string; email: string; root: string; rootNamed?: boolean }

const TRUE: Prefilter = { where: '1', params: [], exact: false }

/**
 * `{ ...sql, exact: true }` as a literal: in Node 20's V8 a literal that starts with a spread and adds a key gets a
 * hidden class of its own each time, and each reader then misses its inline caches (docs/decisions/0446).
 */
const exactly = (sql: { where: string; params: Prefilter['params'] }): Prefilter => ({
  where: sql.where,
  params: sql.params,
  exact: true,
})

/** Sort key of an `and`'s terms: inexact after exact, and text scans after the rest. */
const cost = (p: Prefilter) => (p.exact ? 0 : 2) + (p.where.includes(' LIKE ') || p.where.includes(CONTAINS_FN) ? 1 : 0)

export function prefilter(c: Cond | undefined, viewer?: Viewer): Prefilter {
  if (!c) return TRUE
  switch (c.kind) {
    case 'and': {
      const parts = c.items.map((i) => prefilter(i, viewer))
      // SQLite tests the terms in the order written: exact terms first, and text scans (which read the row, not
      // the listing index) after the others, so a row is read only once the cheap terms let it through.
      const narrowing = parts.filter((p) => p.where !== '1').sort((a, b) => cost(a) - cost(b))
      if (!narrowing.length) return { where: TRUE.where, params: TRUE.params, exact: parts.every((p) => p.exact) }
      const where = narrowing.map((p) => `(${p.where})`).join(' AND ')
      const exact = parts.every((p) => p.exact)
      return { where, params: narrowing.flatMap((p) => p.params), exact, owned: narrowing.some((p) => p.owned) }
    }
    case 'or': {
      const parts = c.items.map((i) => prefilter(i, viewer))
      if (parts.some((p) => p.where === '1')) return TRUE
      const where = parts.map((p) => `(${p.where})`).join(' OR ')
      const exact = parts.every((p) => p.exact)
      return { where, params: parts.flatMap((p) => p.params), exact, owned: parts.every((p) => p.owned) }
    }
    case 'not': {
      const inner = prefilter(c.item, viewer)
      return inner.exact && inner.where !== '1'
        ? { where: `NOT (${inner.where})`, params: inner.params, exact: true }
        : TRUE
    }
    case 'cmp':
      return comparison(c.field, c.op, c.value)
    case 'in':
      if (!viewer) return TRUE
      return c.field === 'parents'
        ? inParents(viewer, c.value)
        : byPerson(c.field, c.value === 'me' ? viewer.email : c.value)
    case 'flag':
      return viewer ? sharedWithMe(viewer) : TRUE
    default:
      return TRUE
  }
}

/**
 * `column` (an address) might equal the lower-cased `who` once JS lower-cases it: SQL's lower() folds ASCII only,
 * so an address with any other character is kept.
 */
const sameAddress = (column: string) => `(lower(${column}) = ? OR length(${column}) != octet_length(${column}))`

/** `'who' in owners|writers|readers`: the owner's address, or (writers, readers) any permission's, is who's. */
function byPerson(field: 'owners' | 'writers' | 'readers', value: string): Prefilter {
  const who = value.toLowerCase()
  // A file whose owner is not a world user has no owner address: '' matches it.
  if (!who) return TRUE
  const owner: Prefilter = {
    where: `owner_id IN (SELECT id FROM world_users WHERE ${sameAddress('email')})`,
    params: [who],
    exact: false,
  }
  if (field === 'owners') return owner
  return {
    where: `${owner.where} OR id IN (SELECT file_id FROM drive_permissions WHERE ${sameAddress('email_address')})`,
    params: [who, who],
    exact: false,
  }
}

/** `sharedWithMe`: someone else's file with a user permission for the viewer. */
function sharedWithMe(viewer: Viewer): Prefilter {
  return {
    where: `owner_id != ? AND id IN (SELECT file_id FROM drive_permissions WHERE type = 'user' AND ${sameAddress('email_address')})`,
    params: [viewer.id, viewer.email.toLowerCase()],
    exact: false,
  }
}

/**
 * `'id' in parents`, exactly: every writer stores `parents` with JSON.stringify and at most one parent (files.create
 * and files.update refuse more, seeds name one), so the file's parents text is that of the one-element array, which
 * the parents index finds. The viewer's root (or `root`) also stands for the top-level files they own, as
 * files.list shows them.
 */
function inParents(viewer: Viewer, value: string): Prefilter {
  const id = value === 'root' ? viewer.root : value
  const holds: Prefilter = { where: 'parents = ?', params: [JSON.stringify([id])], exact: true }
  if (id !== viewer.root) return holds
  if (viewer.rootNamed === false) {
    return { where: "parents = '[]' AND owner_id = ?", params: [viewer.id], exact: true, owned: true }
  }
  const where = `(parents = '[]' AND owner_id = ?) OR ${holds.where}`
  return { where, params: [viewer.id, ...holds.params], exact: true }
}

function comparison(field: string, op: string, value: string | boolean): Prefilter {
  if (typeof value === 'boolean') {
    if ((field === 'trashed' || field === 'starred') && (op === '=' || op === '!='))
      return { where: `${field} ${op} ?`, params: [value ? 1 : 0], exact: true }
    return TRUE
  }
  // A lone surrogate is stored as bytes that read back as other characters: SQL and JavaScript would disagree.
  if (!wellFormed(value)) return TRUE
  const text = (column: string): Prefilter => {
    // `name = v` also means the name's derived key is v's (implied, so still exact): a test the listing index
    // answers alone, sparing a row lookup for every file walked.
    if (column === 'name' && op === '=') {
      return { where: 'name_key IS ? AND name = ?', params: [nameKeyOf(value), value], exact: true }
    }
    if (op === '=' || op === '!=') return { where: `${column} ${op} ?`, params: [value], exact: true }
    if (op !== 'contains') return TRUE
    // Needs the listing's SQL function (store/text-search.ts useTextSearch).
    const sql = textContainsSql([column], value)
    return sql ? exactly(sql) : TRUE
  }
  switch (field) {
    case 'name': {
      if (op !== 'contains') return text(field)
      const sql = nameContainsSql(value)
      return sql ? exactly(sql) : TRUE
    }
    case 'description':
      return text(field)
    case 'mimeType':
      if (op === 'contains') return { where: 'instr(mime_type, ?) > 0', params: [value], exact: true }
      return op === '=' || op === '!=' ? { where: `mime_type ${op} ?`, params: [value], exact: true } : TRUE
    case 'fullText': {
      // Searched over name, description and text together (a value with a line break may span them).
      if (op !== 'contains') return TRUE
      const sql = textContainsSql(['name', 'description', 'full_text'], value)
      return sql ? exactly(sql) : TRUE
    }
    case 'modifiedTime':
    case 'createdTime': {
      const ms = Date.parse(value)
      if (Number.isNaN(ms) || !['=', '!=', '<', '<=', '>', '>='].includes(op)) return TRUE
      return { where: `${field === 'modifiedTime' ? 'modified_ms' : 'created_ms'} ${op} ?`, params: [ms], exact: true }
    }
    default:
      return TRUE
  }
}
