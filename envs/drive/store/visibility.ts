import { sqlRowCount, stmt, type Db } from '../../core/db.ts'
import { groupsContaining } from '../../core/groups.ts'
import { nowMs } from '../../core/clock.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { getTableColumns } from 'drizzle-orm'
import { files, type FileRow, type PermissionRow } from '../schema.ts'
import { rootIdOf } from '../map.ts'
import type { FileView, ListingRow } from '../query/evaluate.ts'
import type { Cond } from '../query/parse.ts'
import { prefilter } from '../query/prefilter.ts'
import { freezeRows, keptWhileUnwritten } from '../../core/write-epoch.ts'
import { useTextSearch } from './text-search.ts'

const FOLDER = 'application/vnd.google-apps.folder'

/** Every column but the content bytes (keys as the drizzle table names them), for the files a response renders. */
const FULL_SQL = `/* listed rows */ SELECT ${Object.entries(getTableColumns(files))
  .filter(([key]) => key !== 'content')
  .map(([key, col]) => `"${col.name}" AS "${key}"`)
  .join(', ')} FROM drive_files WHERE id IN (SELECT value FROM json_each(?))`

/** The listed files with `ids`, as full rows (without the content bytes), by id: a page about to be rendered. */
export function listedRows(db: Db, ids: string[]): Map<string, FileRow> {
  const rows = stmt(db, FULL_SQL).all(JSON.stringify(ids)) as Record<string, unknown>[]
  return new Map(
    rows.map((r) => [
      r.id as string,
      {
        ...r,
        content: null,
        starred: r.starred === 1,
        trashed: r.trashed === 1,
        explicitlyTrashed: r.explicitlyTrashed === 1,
      } as FileRow,
    ]),
  )
}

/**
 * The top-level File fields `toFile` (map.ts) renders from the columns every listing reads (ALWAYS) alone: a page
 * whose `fields` asks only for these is rendered from its listing rows, without reading the files again.
 */
const FROM_LISTING = new Set([
  'kind',
  'id',
  'name',
  'mimeType',
  'parents',
  'starred',
  'trashed',
  'spaces',
  'webViewLink',
  'iconLink',
  'hasThumbnail',
  'viewedByMe',
  'createdTime',
  'modifiedTime',
  'owners',
  'driveId',
  'teamDriveId',
  'ownedByMe',
  'viewersCanCopyContent',
  'copyRequiresWriterPermission',
  'writersCanShare',
  'isAppAuthorized',
])

/**
 * The rows `toFile` renders a listing page from, by id, for the top-level fields `only` (null: all of them). When
 * every field is one of FROM_LISTING, the page's listing rows serve, the columns no such field reads at their
 * defaults (toFile works them out and the field selection drops them); otherwise the files are read again
 * (`listedRows`).
 */
export function pageRows(db: Db, page: readonly FileView[], only: ReadonlySet<string> | null): Map<string, FileRow> {
  if (only === null || [...only].some((field) => !FROM_LISTING.has(field))) {
    return listedRows(
      db,
      page.map((v) => v.row.id),
    )
  }
  return new Map(
    page.map(({ row: r }) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        mimeType: r.mimeType,
        ownerId: r.ownerId,
        parents: r.parents,
        description: '',
        starred: r.starred,
        trashed: r.trashed,
        explicitlyTrashed: false,
        createdMs: r.createdMs,
        modifiedMs: r.modifiedMs,
        lastModifyingUserId: '',
        version: 0,
        content: null,
        size: null,
        fullText: '',
        properties: '{}',
        appProperties: '{}',
        headRevisionId: null,
        checksums: null,
        driveId: r.driveId,
        nameKey: null,
        nameWords: '',
        shortcut: null,
      } satisfies FileRow,
    ]),
  )
}

/**
 * The columns a listing reads for matching, ordering and the corpus: the cheap ones always, the others only when
 * the query or the order reads them (each value costs per row, and most listings read few). What is not read
 * stays at its default.
 */
type Needs = {
  description: boolean
  fullText: boolean
  properties: boolean
  appProperties: boolean
  lastModifyingUserId: boolean
  size: boolean
}
const ALWAYS =
  'f.id, f.name, f.mime_type, f.owner_id, f.drive_id, f.parents, f.starred, f.trashed, f.created_ms, f.modified_ms'
const OPTIONAL = [
  ['description', 'f.description'],
  ['fullText', 'f.full_text'],
  ['properties', 'f.properties'],
  ['appProperties', 'f.app_properties'],
  ['lastModifyingUserId', 'f.last_modifying_user_id'],
  ['size', 'f.size'],
] as const

function needsOf(cond: Cond | undefined, orderBy: string | undefined, all: boolean): Needs {
  const reads = (test: (c: Cond) => boolean) => all || (cond !== undefined && some(cond, test))
  return {
    description: reads((c) => c.kind === 'cmp' && (c.field === 'description' || c.field === 'fullText')),
    fullText: reads((c) => c.kind === 'cmp' && c.field === 'fullText'),
    properties: reads((c) => c.kind === 'has' && c.field === 'properties'),
    appProperties: reads((c) => c.kind === 'has' && c.field === 'appProperties'),
    lastModifyingUserId: all || /modifiedByMeTime/.test(orderBy ?? ''),
    size: all || /quotaBytesUsed/.test(orderBy ?? ''),
  }
}

const some = (c: Cond, test: (c: Cond) => boolean): boolean =>
  test(c) ||
  (c.kind === 'and' || c.kind === 'or'
    ? c.items.some((i) => some(i, test))
    : c.kind === 'not'
      ? some(c.item, test)
      : false)

/** Reads listing rows from the columns `needs` selected (ALWAYS, then the OPTIONAL ones in order). */
function listingRows(needs: Needs): (r: unknown[]) => ListingRow {
  let next = 10
  const at = (wanted: boolean) => (wanted ? next++ : -1)
  const description = at(needs.description)
  const fullText = at(needs.fullText)
  const properties = at(needs.properties)
  const appProperties = at(needs.appProperties)
  const lastModifyingUserId = at(needs.lastModifyingUserId)
  const size = at(needs.size)
  return (r) => ({
    id: r[0] as string,
    name: r[1] as string,
    mimeType: r[2] as string,
    ownerId: r[3] as string,
    driveId: r[4] as string | null,
    parents: r[5] as string,
    starred: r[6] === 1,
    trashed: r[7] === 1,
    createdMs: r[8] as number,
    modifiedMs: r[9] as number,
    description: description < 0 ? '' : (r[description] as string),
    fullText: fullText < 0 ? '' : (r[fullText] as string),
    properties: properties < 0 ? '{}' : (r[properties] as string),
    appProperties: appProperties < 0 ? '{}' : (r[appProperties] as string),
    lastModifyingUserId: lastModifyingUserId < 0 ? '' : (r[lastModifyingUserId] as string),
    size: size < 0 ? null : (r[size] as number | null),
  })
}

// Statements here set raw/pluck modes on the shared statement cache, so their SQL text is their own.
// Permission emails are stored lower-cased (seed and permissions.create), so the email index applies.
const UNEXPIRED = '(expiration_ms IS NULL OR expiration_ms > @now)'

/**
 * `id` (a file, or a shared drive by membership) is one on which the user holds an unexpired user/group
 * permission, or a discoverable domain/anyone one: a probe of that id's permissions (the primary key's prefix).
 * Each use below tests ownership first or beside it, so the user's own owner permissions need no exclusion; a
 * set of every grant, built per statement, cost a read of each of the user's permissions, one per owned file.
 */
function granted(id: string) {
  return `EXISTS (SELECT 1 FROM drive_permissions g WHERE g.file_id = ${id}
    AND (g.expiration_ms IS NULL OR g.expiration_ms > @now)
    AND ((g.email_address = @email AND g.type IN ('user', 'group'))
      OR (g.type = 'group' AND g.email_address IN (SELECT value FROM json_each(@groups)))
      OR (g.allow_file_discovery = 1 AND (g.type = 'anyone' OR (g.type = 'domain' AND lower(g.domain) = @domain)))))`
}

/**
 * The caller's reach, computed once per statement: the folders and shared drives whose contents the user may list
 * (owned or granted, or below one that is), by a recursive walk down the folder tree. `containers` (every folder
 * and shared drive) lets a parent that is neither, which only a seed can make, still count when it is owned or
 * granted itself.
 */
const REACH = `WITH RECURSIVE
  folder_parents(id, parent) AS MATERIALIZED (
    SELECT d.id, j.value FROM drive_files d, json_each(d.parents) j WHERE d.mime_type = '${FOLDER}'),
  containers(id) AS MATERIALIZED (
    SELECT id FROM drive_files WHERE mime_type = '${FOLDER}' UNION SELECT id FROM drive_shared_drives),
  reach(id) AS (
    SELECT id FROM drive_files WHERE mime_type = '${FOLDER}'
      AND ((owner_id = @owner AND drive_id IS NULL) OR ${granted('drive_files.id')})
    UNION SELECT id FROM drive_shared_drives WHERE ${granted('drive_shared_drives.id')}
    UNION SELECT fp.id FROM folder_parents fp
      WHERE fp.parent NOT IN containers AND (${granted('fp.parent')} OR ${owned('fp.parent')})
    UNION SELECT fp.id FROM reach r JOIN folder_parents fp ON fp.parent = r.id)`

/** `id` is a My Drive file the user owns (one covering-index probe). */
function owned(id: string) {
  return `EXISTS (SELECT 1 FROM drive_files o INDEXED BY drive_files_by_owner WHERE o.id = ${id} AND o.owner_id = @owner AND o.drive_id IS NULL)`
}

/**
 * `parents` exactly as JSON.stringify writes a lone parent with a plain id (letters, digits, `-`, `_`: every
 * generated and seeded id), so most rows are judged by one string lookup; any other `parents` (none, several,
 * unusual ids) is read with json_each.
 */
const soleParent = (set: string) => `(SELECT '["' || id || '"]' FROM ${set} WHERE id NOT GLOB '*[^-A-Za-z0-9_]*')`

/**
 * A listing row is visible: owned, under a reached folder/drive, granted (or under an odd parent owned or granted
 * itself). The cheap tests come first: most rows are owned or under a reached folder.
 */
const VISIBLE = `((f.owner_id = @owner AND f.drive_id IS NULL)
    OR f.parents IN ${soleParent('reach')}
    OR ${granted('f.id')}
    OR (f.parents != '[]' AND f.parents NOT IN ${soleParent('containers')}
      AND EXISTS (SELECT 1 FROM json_each(f.parents) j WHERE j.value IN reach
        OR (j.value NOT IN containers AND (${granted('j.value')} OR ${owned('j.value')})))))`

const PERMS_OF_SQL = `SELECT file_id AS fileId, id, type, role, email_address AS emailAddress, domain,
  allow_file_discovery AS allowFileDiscovery, expiration_ms AS expirationMs, pending_owner AS pendingOwner
  FROM drive_permissions WHERE file_id IN (SELECT value FROM json_each(?))`

/**
 * How a listing is narrowed and what it loads: the corpus in SQL (exactly; the route's corpus check stays the
 * judge), the order it will be sorted in (for the columns that reads), or every column a search may read.
 */
export type ListOptions = { driveId?: string; myDriveOnly?: boolean; orderBy?: string; allColumns?: boolean }

/**
 * The files a user may find through files.list that can match `cond`, as FileViews. A file is listed when the
 * user owns it or holds a user/group permission on it or an ancestor, or a domain/anyone permission that allows
 * discovery; link-only sharing opens a file by id but does not put it in searches (as in Drive).
 * One statement does the work: the query's SQL prefilter (cheap exact terms first) and the caller's reach over
 * the folder tree, so only candidate rows reach JS, with only the columns the query and order read (see Needs;
 * `listedRows` loads whole rows for the page that is rendered). Permissions load lazily, in one query, the first
 * time any view's `perms` is read (by `sharedWithMe`, `in writers`, `visibility` or a corpus check).
 */
export function listableFiles(db: Db, user: WorldUserRow, cond?: Cond, options: ListOptions = {}): FileView[] {
  return listing(db, user, cond, options).all()
}

/**
 * A files.list listing. `all()` gives every candidate (see listableFiles). `exact` says the statement selects
 * exactly the files the query matches (no query, or an exact prefilter); then, when the caller's scope is exact
 * too (the user corpus without shared drives, or one drive), `page()` filters, orders (`order`: an ORDER BY clause
 * over `f`, routes/order.ts `orderSql`) and pages in SQL, so a page costs about what it holds rather than every
 * match; with the default order it reads the listing index in order. `more` tells whether a file follows the page.
 */
export function listing(db: Db, user: WorldUserRow, cond: Cond | undefined, options: ListOptions = {}) {
  const q = listingQuery(db, user, cond, options)
  return {
    exact: cond === undefined || q.exact,
    all: () =>
      q.views(
        stmt(db, q.sql)
          .raw()
          .all(...q.params, q.named) as unknown[][],
      ),
    page: (order: string, offset: number, limit: number): { views: FileView[]; more: boolean } => {
      // LIMIT and OFFSET as literals: with a bound LIMIT SQLite recompiles a statement on every run, and compiling
      // this one costs ~0.35 ms (docs/decisions/0302).
      const sql = `${q.sql} ORDER BY ${order} LIMIT ${sqlRowCount(limit + 1)} OFFSET ${sqlRowCount(offset)}`
      const rows = stmt(db, sql)
        .raw()
        .all(...q.params, q.named) as unknown[][]
      const more = rows.length > limit
      return { views: q.views(more ? rows.slice(0, limit) : rows), more }
    },
    /**
     * `page()` reading only what an answer without `fields` renders of each file (kind, id, name, mimeType): the
     * same files in the same order, without the other listing columns (each value read costs per row).
     */
    heads: (order: string, offset: number, limit: number): HeadsPage => {
      const sql = `${q.headsSql()} ORDER BY ${order} LIMIT ${sqlRowCount(limit + 1)} OFFSET ${sqlRowCount(offset)}`
      const read = (): HeadsPage => {
        const rows = stmt(db, sql)
          .raw()
          .all(...q.params, q.named) as [string, string, string][]
        const more = rows.length > limit
        const heads = (more ? rows.slice(0, limit) : rows).map(([id, name, mimeType]) => ({ id, name, mimeType }))
        return { heads, more }
      }
      // A statement over drive_files alone (no subquery: the caller's own My Drive files) is kept while the table
      // is unwritten (docs/decisions/0319, 0328): a page asked again reads no rows. Its key is every input.
      if (!readsFilesAlone(sql)) return read()
      const key = `heads\u0000${JSON.stringify([sql, q.params, q.named])}`
      return keptWhileUnwritten(db.$client, 'drive_files', key, read, freezeHeads)
    },
  }
}

/** What files.list answers of a file when the request names no `fields`. */
export type FileHead = { id: string; name: string; mimeType: string }
/** A page of heads, and whether a file follows it. */
type HeadsPage = { heads: FileHead[]; more: boolean }

/** The statement reads drive_files and nothing else: one SELECT, one FROM (no subquery, CTE or json_each). */
const readsFilesAlone = (sql: string) =>
  sql.match(/\bSELECT\b/gi)?.length === 1 && sql.match(/\bFROM\b/gi)?.length === 1 && / FROM drive_files f /.test(sql)

function freezeHeads(page: HeadsPage): void {
  freezeRows(page.heads)
  Object.freeze(page)
}

/** The listing statement (prefilter, scope and reach), its parameters, and how its rows become FileViews. */
function listingQuery(db: Db, user: WorldUserRow, cond: Cond | undefined, options: ListOptions) {
  const me = user.email.toLowerCase()
  const root = rootIdOf(user.id)
  const rootNamed = cond && namesRoot(cond, root) ? rootIsNamed(db, root) : undefined
  const pf = prefilter(cond, { id: user.id, email: user.email, root, rootNamed })
  useTextSearch(db.$client)
  // Every candidate the caller's own My Drive file (`'root' in parents`, say): visible without the reach walk.
  const own = pf.owned === true && options.myDriveOnly === true && options.driveId === undefined
  const scope = options.driveId !== undefined ? 'f.drive_id = @drive' : options.myDriveOnly ? 'f.drive_id IS NULL' : ''
  const where = [pf.where === '1' ? '' : `(${pf.where})`, scope, own ? '' : VISIBLE].filter(Boolean)
  const needs = needsOf(cond, options.orderBy, options.allColumns === true)
  const columns = [ALWAYS, ...OPTIONAL.filter(([key]) => needs[key]).map(([, column]) => column)].join(', ')
  const select = (list: string) =>
    `/* listable */ ${own ? '' : REACH} SELECT ${list} FROM drive_files f WHERE ${where.join(' AND ')}`
  const sql = select(columns)
  const named: Record<string, unknown> = {
    owner: user.id,
    now: own ? 0 : nowMs(db),
    email: me,
    domain: me.split('@')[1] ?? '',
    groups: own ? '[]' : JSON.stringify(groupsContaining(db, me)),
  }
  if (options.driveId !== undefined) named.drive = options.driveId
  const views = (raw: unknown[][]): FileView[] => {
    const rows = raw.map(listingRows(needs))
    const perms = new ListingPermissions(db, rows)
    return rows.map((row) => new ListedFile(row, perms, user, root))
  }
  const headsSql = () => select('f.id, f.name, f.mime_type')
  return { sql, headsSql, params: pf.params, named, exact: pf.exact, views }
}

/** `cond` has an `in parents` term for the caller's root (`root` or its id). */
const namesRoot = (c: Cond, root: string): boolean =>
  some(c, (t) => t.kind === 'in' && t.field === 'parents' && (t.value === 'root' || t.value === root))

/** Some file names the root id `root` as its parent (a seed can write that; the API never stores it). */
const ROOT_NAMED = '/* root named */ SELECT 1 FROM drive_files WHERE parents = ? LIMIT 1'
const rootIsNamed = (db: Db, root: string) =>
  keptWhileUnwritten(
    db.$client,
    'drive_files',
    `root named\u0000${root}`,
    () => stmt(db, ROOT_NAMED).get(JSON.stringify([root])) !== undefined,
  )

/**
 * The permissions of a listing's rows, loaded in one query the first time any of them is read; owners' addresses
 * likewise (only `in owners` and `in writers|readers` read them).
 */
class ListingPermissions {
  #byFile: Map<string, PermissionRow[]> | undefined
  #emails: Map<string, string> | undefined
  constructor(
    private readonly db: Db,
    private readonly rows: ListingRow[],
  ) {}
  emailOf(userId: string): string {
    const sql = '/* listable owners */ SELECT id, email FROM world_users'
    this.#emails ??= new Map(stmt(this.db, sql).raw().all() as [string, string][])
    return this.#emails.get(userId) ?? ''
  }
  of(id: string): PermissionRow[] {
    if (!this.#byFile) {
      this.#byFile = new Map()
      for (const p of stmt(this.db, PERMS_OF_SQL).all(JSON.stringify(this.rows.map((r) => r.id))) as Record<
        string,
        unknown
      >[]) {
        const row = {
          ...p,
          allowFileDiscovery: p.allowFileDiscovery === 1,
          pendingOwner: p.pendingOwner === 1,
        } as PermissionRow
        const list = this.#byFile.get(row.fileId)
        if (list) list.push(row)
        else this.#byFile.set(row.fileId, [row])
      }
    }
    return this.#byFile.get(id) ?? []
  }
}

/** One listed file as its viewer sees it; `perms` reads through the listing's shared loader. */
class ListedFile implements FileView {
  readonly #listing: ListingPermissions
  readonly viewerId: string
  readonly viewerEmail: string
  #parents: string[] | undefined
  constructor(
    readonly row: ListingRow,
    listing: ListingPermissions,
    user: WorldUserRow,
    readonly viewerRoot: string,
  ) {
    this.#listing = listing
    this.viewerId = user.id
    this.viewerEmail = user.email
  }
  /** Parsed on first read: a page SQL ordered and judged is rendered without them. */
  get parents(): string[] {
    if (!this.#parents) {
      const parents = JSON.parse(this.row.parents) as string[]
      this.#parents = parents.length ? parents : this.row.ownerId === this.viewerId ? [this.viewerRoot] : []
    }
    return this.#parents
  }
  get ownerEmail(): string {
    return this.#listing.emailOf(this.row.ownerId)
  }
  get perms(): PermissionRow[] {
    return this.#listing.of(this.row.id)
  }
}
