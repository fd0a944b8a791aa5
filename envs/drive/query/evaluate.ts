import type { Cond } from './parse.ts'
import { WORD_BREAK } from '../store/name-search.ts'
import type { FileRow, PermissionRow } from '../schema.ts'

/**
 * The columns a search reads: matching, ordering and the corpus check. A listing may leave the ones its query and
 * order do not read at their defaults ('', '{}', null); see `listableFiles`.
 */
export type ListingRow = Pick<
  FileRow,
  | 'id'
  | 'name'
  | 'mimeType'
  | 'ownerId'
  | 'driveId'
  | 'parents'
  | 'starred'
  | 'trashed'
  | 'createdMs'
  | 'modifiedMs'
  | 'description'
  | 'fullText'
  | 'properties'
  | 'appProperties'
  | 'lastModifyingUserId'
  | 'size'
>

/** Everything a query needs to know about one file, from one viewer's standpoint. */
export type FileView = {
  row: ListingRow
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
    case '=':
      return a === b
    case '!=':
      return a !== b
    case '<':
      return a < b
    case '<=':
      return a <= b
    case '>':
      return a > b
    case '>=':
      return a >= b
    default:
      return false
  }
}

/**
 * `name contains` is prefix matching on the name's words, as Drive documents it (`v` lower-cased): the value is split
 * into words the same way and every one of them must start some word of the name ('incident runbook' finds "Login
 * incident runbook"; 'World' does not find "HelloWorld"). A value with no letters or digits must start the name.
 */
function nameContains(name: string, v: string): boolean {
  const n = lower(name)
  const wanted = v.split(WORD_BREAK).filter(Boolean)
  if (wanted.length === 0) return n.startsWith(v)
  // A value that is not in the name at all fails here, without the name being split into words.
  if (!wanted.every((t) => n.includes(t))) return false
  const words = n.split(WORD_BREAK)
  return wanted.every((t) => words.some((w) => w.startsWith(t)))
}

function visibility(perms: PermissionRow[]): string {
  const anyone = perms.find((p) => p.type === 'anyone')
  if (anyone) return anyone.allowFileDiscovery ? 'anyoneCanFind' : 'anyoneWithLink'
  const domain = perms.find((p) => p.type === 'domain')
  if (domain) return domain.allowFileDiscovery ? 'domainCanFind' : 'domainWithLink'
  return 'limited'
}

const RANK: Record<string, number> = { reader: 1, commenter: 2, writer: 3, fileOrganizer: 4, organizer: 5, owner: 6 }

/** Whether a file matches a query. Compile once with `compileQuery` to test many files. */
export function matches(c: Cond, f: FileView): boolean {
  return compileQuery(c)(f)
}

type Test = (f: FileView) => boolean

/** ISO strings of instants in years 0000–9999 have one width, so they order like the instants themselves. */
const ISO_MIN_MS = -62167219200000
const ISO_MAX_MS = 253402300799999
const plainIso = (ms: number) => ms >= ISO_MIN_MS && ms <= ISO_MAX_MS

/**
 * A query as a test over files, with its constants (lower-cased values, the instant of a date) worked out once
 * rather than per file. Dates compare as ISO strings, as numbers where that is the same thing; an invalid date
 * throws when first compared, as it always has.
 */
export function compileQuery(c: Cond): Test {
  switch (c.kind) {
    case 'and': {
      const items = c.items.map(compileQuery)
      return (f) => items.every((t) => t(f))
    }
    case 'or': {
      const items = c.items.map(compileQuery)
      return (f) => items.some((t) => t(f))
    }
    case 'not': {
      const item = compileQuery(c.item)
      return (f) => !item(f)
    }
    case 'flag':
      return (f) =>
        f.row.ownerId !== f.viewerId &&
        f.perms.some((p) => p.type === 'user' && lower(p.emailAddress ?? '') === lower(f.viewerEmail))
    case 'has': {
      const { key, value } = c
      return c.field === 'properties'
        ? (f) => (JSON.parse(f.row.properties) as Record<string, string>)[key] === value
        : (f) => (JSON.parse(f.row.appProperties) as Record<string, string>)[key] === value
    }
    case 'in': {
      const { value } = c
      if (c.field === 'parents') return (f) => f.parents.includes(value === 'root' ? f.viewerRoot : value)
      const who = (f: FileView) => lower(value === 'me' ? f.viewerEmail : value)
      if (c.field === 'owners') return (f) => lower(f.ownerEmail) === who(f)
      const need = c.field === 'writers' ? RANK.writer! : RANK.reader!
      return (f) => {
        const w = who(f)
        return (
          lower(f.ownerEmail) === w ||
          f.perms.some((p) => lower(p.emailAddress ?? '') === w && (RANK[p.role] ?? 0) >= need)
        )
      }
    }
    case 'cmp': {
      const { field, op, value } = c
      const text = String(value)
      const low = lower(text)
      switch (field) {
        case 'name':
          return op === 'contains' ? (f) => nameContains(f.row.name, low) : (f) => compare(f.row.name, op, text)
        case 'fullText':
          return op === 'contains'
            ? (f) => lower(`${f.row.name}\n${f.row.description}\n${f.row.fullText}`).includes(low)
            : () => false
        case 'description':
          return op === 'contains'
            ? (f) => lower(f.row.description).includes(low)
            : (f) => compare(f.row.description, op, text)
        case 'mimeType':
          return op === 'contains' ? (f) => f.row.mimeType.includes(text) : (f) => compare(f.row.mimeType, op, text)
        case 'trashed':
          return (f) => compare(f.row.trashed, op, value)
        case 'starred':
          return (f) => compare(f.row.starred, op, value)
        case 'modifiedTime':
        case 'createdTime': {
          let at: { ms: number; iso: string } | undefined
          const test = (ms: number) => {
            if (!at) {
              const d = new Date(text)
              at = { iso: d.toISOString(), ms: d.getTime() }
            }
            return plainIso(ms) && plainIso(at.ms) ? compare(ms, op, at.ms) : compare(iso(ms), op, at.iso)
          }
          return field === 'modifiedTime' ? (f) => test(f.row.modifiedMs) : (f) => test(f.row.createdMs)
        }
        case 'visibility':
          return (f) => compare(visibility(f.perms), op, text)
        default:
          return () => false
      }
    }
  }
}
