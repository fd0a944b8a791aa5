/**
 * World states of worlds cloned from the same bytes, without re-dumping the services whose data did not change
 * (docs/decisions/0230-state-since-base.md). A base is one world's state plus what makes reuse safe:
 * - the database image it was taken from, and which table (or index's table) owns each page of that image;
 * - per service, the tables its dump read, learnt from the SQL its dump ran (statementsDuring).
 * A later world's state compares its image page by page with the base's: a table none of whose pages (as the
 * base laid them out: root, interior, leaf and overflow pages) differs holds exactly the base's rows, since the
 * B-tree is reached from the same root through the same bytes. A service whose dump read no changed table gets
 * the base's dump back (the same object); the others are dumped. The clock is always read, the users when their
 * table may have changed.
 */
import type { World } from '../envs/core/world.ts'
import type { ServiceState } from '../envs/core/service.ts'
import type { WorldState } from '../envs/core/diff.ts'
import { statementsDuring } from '../envs/core/db.ts'
import { GET_META_SQL, nowMs } from '../envs/core/clock.ts'
import { listUsers } from '../envs/core/users.ts'
import { services } from './registry.ts'

/** The owner of the schema B-tree (page 1 and up): a change there (a new table, a moved root) forbids reuse. */
const SCHEMA = '\0schema'

export type StateBase = {
  readonly state: WorldState
  /** Tables (lower case) and `world_meta:<key>`s each service's dump read; a service missing here is always dumped. */
  readonly reads: Map<string, Set<string>>
  /** The world_meta rows (key → value), to tell which keys changed when the table did. */
  readonly meta: Map<string, string>
  /**
   * The committed image, for worlds that are not held (World.hold): absent when it cannot be compared page by
   * page (file-backed, auto-vacuum, or the base itself was held, its bytes uncommitted). Without it, and for a world
   * that is not held, every service is dumped.
   */
  readonly image?: {
    bytes: Buffer
    pageSize: number
    /** Owner table (lower case) of page i + 1; undefined for free and other non-B-tree pages. */
    owners: (string | undefined)[]
  }
}

const META = 'world_meta'
const USERS = 'world_users'
const metaOf = (world: World) =>
  new Map(world.sqlite.prepare('SELECT key, value FROM world_meta').raw().all() as [string, string][])

const usersOf = (world: World) =>
  listUsers(world.db).map((u) => ({ id: u.id, email: u.email, name: u.name, timeZone: u.timeZone }))

/** Dumps the whole world (as `worldState` does) and keeps what later `stateSince` calls compare against. */
export function stateBase(world: World): StateBase {
  const sqlite = world.sqlite
  const objects = sqlite.prepare('SELECT type, name, tbl_name AS tbl FROM sqlite_master').all() as {
    type: string
    name: string
    tbl: string
  }[]
  const tables = new Set(objects.filter((o) => o.type === 'table').map((o) => o.name.toLowerCase()))
  const views = new Set(objects.filter((o) => o.type === 'view').map((o) => o.name.toLowerCase()))
  const out: Record<string, ServiceState> = {}
  const reads = new Map<string, Set<string>>()
  for (const s of services) {
    const { result, sql, meta } = statementsDuring(sqlite, () => s.dump(world))
    out[s.name] = result
    // world_meta holds the clock, which every request moves: a dump reading it only through getMeta depends on the
    // keys it read (`world_meta:<key>`), not on the whole table.
    const other = sql.filter((q) => q !== GET_META_SQL)
    const names = new Set(other.flatMap((q) => q.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []))
    // A dump that reads through a view reads tables its SQL does not name: it is dumped every time.
    if ([...names].some((n) => views.has(n))) continue
    reads.set(s.name, new Set([...[...names].filter((n) => tables.has(n)), ...meta.map((k) => `${META}:${k}`)]))
  }
  const meta = metaOf(world)
  const state: WorldState = { version: 1, clockMs: nowMs(world.db), users: usersOf(world), services: out }
  const autoVacuum = sqlite.pragma('auto_vacuum', { simple: true }) as number
  if (world.file || world.held || autoVacuum !== 0) return { state, reads, meta }
  // The world's own serialize: a batched world commits first (its connection's serialize gives committed pages).
  const bytes = world.serialize()
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number
  const owner = new Map(objects.map((o) => [o.name.toLowerCase(), o.tbl.toLowerCase()]))
  const owners: (string | undefined)[] = new Array(Math.ceil(bytes.length / pageSize))
  for (const p of sqlite.prepare('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[]) {
    const name = p.name.toLowerCase()
    owners[p.pageno - 1] = name === 'sqlite_schema' || name === 'sqlite_master' ? SCHEMA : (owner.get(name) ?? name)
  }
  return { state, reads, meta, image: { bytes, pageSize, owners } }
}

/**
 * Tables whose pages differ between the base image and `bytes` (undefined: the schema changed or the image
 * shrank, so nothing may be reused). Page 1 is compared after its 100-byte file header (change counter, freelist).
 */
export function changedPages(image: NonNullable<StateBase['image']>, bytes: Buffer): Set<string> | undefined {
  const { pageSize, owners } = image
  const base = image.bytes
  if (bytes.length < base.length || bytes.readUInt16BE(16) !== base.readUInt16BE(16)) return undefined
  const dirty = new Set<string>()
  for (let i = 0; i < owners.length; i++) {
    const start = i === 0 ? 100 : i * pageSize
    const end = (i + 1) * pageSize
    if (bytes.compare(base, start, end, start, end) === 0) continue
    const owner = owners[i]
    if (owner === SCHEMA) return undefined
    if (owner !== undefined) dirty.add(owner)
  }
  return dirty
}

/**
 * The world's state, equal to `worldState(world)`: the base's dump of every service whose tables are as in the base
 * is reused, the others are dumped.
 */
export function stateSince(world: World, base: StateBase): WorldState {
  const image = base.image
  // A held world (World.hold) knows which tables it wrote (unless its schema changed: then everything is dumped; its
  // serialize() would give the committed pages, not its own); any other is compared page by page.
  const written = world.changedTables()
  const dirty = written
    ? new Set([...written].map((t) => t.toLowerCase()))
    : image && !world.file && !world.held
      ? changedPages(image, world.serialize())
      : undefined
  if (dirty?.has(META)) {
    const now = metaOf(world)
    for (const k of new Set([...now.keys(), ...base.meta.keys()])) {
      if (now.get(k) !== base.meta.get(k)) dirty.add(`${META}:${k}`)
    }
  }
  const out: Record<string, ServiceState> = {}
  for (const s of services) {
    const read = base.reads.get(s.name)
    const same = dirty !== undefined && read !== undefined && ![...read].some((t) => dirty.has(t))
    out[s.name] = same ? base.state.services[s.name]! : s.dump(world)
  }
  // The users as in the base while `world_users` is (the same list: oracles read states, never change them).
  const users = dirty !== undefined && !dirty.has(USERS) ? base.state.users : usersOf(world)
  return { version: 1, clockMs: nowMs(world.db), users, services: out }
}
