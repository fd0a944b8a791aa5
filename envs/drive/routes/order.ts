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

/** `orderBy=folder,modifiedTime desc,name`: several keys, each ascending unless `desc`, then the id. */
export function sortFiles(views: FileView[], orderBy: string | undefined): FileView[] {
  const spec = (orderBy ?? 'folder,modifiedTime desc,name').split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const [key = '', dir] = s.split(/\s+/)
    const get = KEYS[key]
    if (!get || (dir && dir !== 'desc' && dir !== 'asc')) throw badRequest(`Invalid sort order: ${s}`, 'invalid', { location: 'orderBy', locationType: 'parameter' })
    return { get, desc: dir === 'desc' }
  })
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
