import type { Cond } from './parse.ts'
import type { FileRow, PermissionRow } from '../schema.ts'

/** Everything a query needs to know about one file, from one viewer's standpoint. */
export type FileView = {
  row: FileRow
  perms: PermissionRow[]
  ownerEmail: string
  viewerId: string
  viewerEmail: string
  viewerRoot: string
  /** Parent ids as the viewer sees them (the viewer's root id for top-level files they own). */
  parents: string[]
}

const lower = (s: string) => s.toLowerCase()
const iso = (ms: number) => new Date(ms).toISOString()

function compare(a: string | number | boolean, op: string, b: string | number | boolean): boolean {
  switch (op) {
    case '=': return a === b
    case '!=': return a !== b
    case '<': return a < b
    case '<=': return a <= b
    case '>': return a > b
    case '>=': return a >= b
    default: return false
  }
}

/** `name contains` is prefix matching on the name and its words, as Drive documents it. */
function nameContains(name: string, value: string): boolean {
  const v = lower(value)
  const n = lower(name)
  if (n.startsWith(v)) return true
  return n.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(v))
}

function visibility(perms: PermissionRow[]): string {
  const anyone = perms.find((p) => p.type === 'anyone')
  if (anyone) return anyone.allowFileDiscovery ? 'anyoneCanFind' : 'anyoneWithLink'
  const domain = perms.find((p) => p.type === 'domain')
  if (domain) return domain.allowFileDiscovery ? 'domainCanFind' : 'domainWithLink'
  return 'limited'
}

const RANK: Record<string, number> = { reader: 1, commenter: 2, writer: 3, fileOrganizer: 4, organizer: 5, owner: 6 }

export function matches(c: Cond, f: FileView): boolean {
  switch (c.kind) {
    case 'and': return c.items.every((i) => matches(i, f))
    case 'or': return c.items.some((i) => matches(i, f))
    case 'not': return !matches(c.item, f)
    case 'flag':
      return f.row.ownerId !== f.viewerId && f.perms.some((p) => p.type === 'user' && lower(p.emailAddress ?? '') === lower(f.viewerEmail))
    case 'has': {
      const props = JSON.parse(c.field === 'properties' ? f.row.properties : f.row.appProperties) as Record<string, string>
      return props[c.key] === c.value
    }
    case 'in': {
      if (c.field === 'parents') return f.parents.includes(c.value === 'root' ? f.viewerRoot : c.value)
      const who = lower(c.value === 'me' ? f.viewerEmail : c.value)
      if (c.field === 'owners') return lower(f.ownerEmail) === who
      const need = c.field === 'writers' ? RANK.writer! : RANK.reader!
      return lower(f.ownerEmail) === who || f.perms.some((p) => lower(p.emailAddress ?? '') === who && (RANK[p.role] ?? 0) >= need)
    }
    case 'cmp': {
      const { field, op, value } = c
      switch (field) {
        case 'name':
          return op === 'contains' ? nameContains(f.row.name, String(value)) : compare(f.row.name, op, String(value))
        case 'fullText':
          return op === 'contains' && lower(`${f.row.name}\n${f.row.description}\n${f.row.fullText}`).includes(lower(String(value)))
        case 'description':
          return op === 'contains' ? lower(f.row.description).includes(lower(String(value))) : compare(f.row.description, op, String(value))
        case 'mimeType':
          return op === 'contains' ? f.row.mimeType.includes(String(value)) : compare(f.row.mimeType, op, String(value))
        case 'trashed':
          return compare(f.row.trashed, op, value)
        case 'starred':
          return compare(f.row.starred, op, value)
        case 'modifiedTime':
          return compare(iso(f.row.modifiedMs), op, new Date(String(value)).toISOString())
        case 'createdTime':
          return compare(iso(f.row.createdMs), op, new Date(String(value)).toISOString())
        case 'visibility':
          return compare(visibility(f.perms), op, String(value))
        default:
          return false
      }
    }
  }
}
