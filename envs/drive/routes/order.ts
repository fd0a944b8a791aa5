import { badRequest } from '../../core/errors/google.ts'
import type { FileView } from '../query/evaluate.ts'
import { FOLDER } from '../store/files.ts'

const KEYS: Record<string, (v: FileView) => string | number> = {
  createdTime: (v) => v.row.createdMs,
  modifiedTime: (v) => v.row.modifiedMs,
  modifiedByMeTime: (v) => (v.row.lastModifyingUserId === v.viewerId ? v.row.modifiedMs : 0),
  viewedByMeTime: (v) => v.row.modifiedMs,
  recency: (v) => v.row.modifiedMs,
  sharedWithMeTime: (v) => v.row.createdMs,
  name: (v) => v.row.name.toLowerCase(),
  name_natural: (v) => v.row.name.toLowerCase(),
  folder: (v) => (v.row.mimeType === FOLDER ? 0 : 1),
  starred: (v) => (v.row.starred ? 0 : 1),
  quotaBytesUsed: (v) => v.row.size ?? 0,
}

/**
 * The same keys as SQL over `drive_files f` (`@owner` is the viewer): numbers alike, names as the UTF-16BE bytes of
 * the lower-cased name, which order as JavaScript compares the strings. Ids (generated, or seeded with letters,
 * digits, `-` and `_`) are ASCII, so SQLite's text order is JavaScript's.
 */
const SQL_KEYS: Record<string, string> = {
  createdTime: 'f.created_ms',
  modifiedTime: 'f.modified_ms',
  modifiedByMeTime: 'CASE WHEN f.last_modifying_user_id = @owner THEN f.modified_ms ELSE 0 END',
  viewedByMeTime: 'f.modified_ms',
  recency: 'f.modified_ms',
  sharedWithMeTime: 'f.created_ms',
  name: 'f.name_key',
  name_natural: 'f.name_key',
  // Written as the listing index's first term (schema.ts), so the default order reads that index.
  folder: `(f.mime_type != '${FOLDER}')`,
  starred: '(f.starred = 0)',
  quotaBytesUsed: 'coalesce(f.size, 0)',
}

export type OrderKey = { key: string; desc: boolean }

/**
 * `orderBy=folder,modifiedTime desc,name`: several keys, each ascending unless `desc` (400 for anything else). A key
 * named again is dropped: files equal on every earlier key are equal on it, so it cannot change the order (and
 * thousands of repeats would pass SQLite's limit on ORDER BY terms).
 */
export function orderSpec(orderBy: string | undefined): OrderKey[] {
  const spec: OrderKey[] = []
  for (const part of (orderBy ?? 'folder,modifiedTime desc,name').split(',')) {
    const s = part.trim()
    if (!s) continue
    const [key = '', dir] = s.split(/\s+/)
    if (!Object.hasOwn(KEYS, key) || (dir && dir !== 'desc' && dir !== 'asc')) {
      throw badRequest(`Invalid sort order: ${s}`, 'invalid', { location: 'orderBy', locationType: 'parameter' })
    }
    if (!spec.some((k) => k.key === key)) spec.push({ key, desc: dir === 'desc' })
  }
  return spec
}

/** The ORDER BY clause that lists files as `sortFiles` orders them (the keys, then the id). */
export function orderSql(orderBy: string | undefined): string {
  const terms = orderSpec(orderBy).map(({ key, desc }) => `${SQL_KEYS[key]}${desc ? ' DESC' : ''}`)
  return [...terms, 'f.id'].join(', ')
}

/** `orderBy=folder,modifiedTime desc,name`: several keys, each ascending unless `desc`, then the id. */
export function sortFiles(views: FileView[], orderBy: string | undefined): FileView[] {
  const spec = orderSpec(orderBy).map(({ key, desc }) => ({ get: KEYS[key]!, desc }))
  // Each key is read once per file (lower-casing names inside the comparator dominated large sorts).
  const keyed = views.map((v) => ({ v, keys: spec.map(({ get }) => get(v)), id: v.row.id }))
  keyed.sort((a, b) => {
    for (let i = 0; i < spec.length; i++) {
      const x = a.keys[i]!
      const y = b.keys[i]!
      if (x < y) return spec[i]!.desc ? 1 : -1
      if (x > y) return spec[i]!.desc ? -1 : 1
    }
    return a.id < b.id ? -1 : 1
  })
  return keyed.map((k) => k.v)
}
