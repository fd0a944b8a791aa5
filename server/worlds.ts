import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { join } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { World, type Snapshot } from '../envs/core/world.ts'
import { stmt, type Db } from '../envs/core/db.ts'
import { getMeta, nowMs } from '../envs/core/clock.ts'
import { DEMO_WORLD_SECRET, listTokens, WorldKeys } from '../envs/core/tokens.ts'
import { findUserById, listUsers } from '../envs/core/users.ts'
import { namedSeeds } from '../seeds/index.ts'
import { buildWorld, SeedError } from './seeding.ts'
import { allServiceTables } from './registry.ts'
import { DEFAULT_LIMITS, memoryPressure, type Limits } from './limits.ts'
import { ownEntry } from '../envs/core/own-key.ts'
import { envDefaults } from './env.ts'

/** A world the server holds, with its baseline (for diffs) and named snapshots. */
export type WorldEntry = {
  id: string
  world: World
  seedName: string
  seedValue: number
  createdAt: number
  baseline: Snapshot
  snapshots: Map<string, Snapshot>
  /** The world's secrets (token macs, OAuth secrets, upload ids); replaced by `rotateKeys`. */
  keys: WorldKeys
}

export type CreateWorldInput = {
  id?: string
  seed: string | Record<string, unknown>
  seedValue?: number
  /** Use the published demo secret (only the `demo` world `wsgym serve` starts, so the README's tokens work). */
  publicDemoKeys?: boolean
  /**
   * Build the template from `build()` under the caller's `key` instead of hashing an inline `seed` (the gym's task
   * worlds with background volume: the key names the task's seed and volume, the big document is made once).
   */
  template?: { key: string; build: () => Record<string, unknown> }
  /**
   * Reuse an idle connection of the same template (World.hold): the world runs in one open transaction that
   * `delete` rolls back, so the next world of that template starts from the same bytes with its statements already
   * compiled. For short-lived worlds that are never snapshotted (the gym's validation episodes).
   */
  reuse?: boolean
  /**
   * With `reuse`: the world serves an agent, not a trusted program (the gym's episodes for training and evaluation),
   * so its hold is guarded (World.hold): a risky request, a snapshot, a fork or a restore ends the hold and keeps its
   * writes (World.release), and the connection is then closed, not reused. The template's bytes are serialized when
   * built (several episodes of one task may run at once, each from the bytes).
   */
  guarded?: boolean
  /**
   * Open the world's database on its first use instead of now (the start world of `wsgym serve`, which many runs
   * never call): an idle server then holds no copy of it (docs/decisions/0299). Its users and tokens are read from
   * its template's file meanwhile. In memory only: ignored with a data directory or `reuse`.
   */
  onFirstUse?: boolean
}

/** Unrevoked tokens in table order (a scan, as listTokens reads them): user, kind, key. */
const LIVE_TOKENS = 'SELECT user_id, kind, key FROM world_tokens WHERE revoked = 0'

/**
 * Idle held-world connections kept for reuse, in all and per template (validation runs one episode of a task at a
 * time; a training loop may run several samples of one task at once), and their bytes in all.
 */
const MAX_IDLE_WORLDS = 32
const MAX_IDLE_PER_TEMPLATE = 8
const MAX_IDLE_BYTES = 256 * 1024 * 1024

export class WorldNotFound extends Error {}
export class WorldConflict extends Error {}
/** A request the server refuses for a limit or bad name: `status` and a machine-readable `reason`. */
export class WorldRefused extends Error {
  constructor(
    readonly status: 400 | 429 | 507,
    readonly reason: string,
    message: string,
  ) {
    super(message)
  }
}

const WORLD_ID = /^[a-z0-9_]{1,40}$/
/** Snapshot names: what fits in a file name everywhere, and never the reserved `baseline`. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** A snapshot kept in a file and read only when used (restarts do not load every snapshot into memory). */
function fileSnapshot(file: string): Snapshot {
  let bytes: Buffer | undefined
  return {
    get bytes() {
      bytes ??= readFileSync(file)
      return bytes
    },
  }
}

/** Writes a file through a temporary name, so a crash never leaves half a snapshot under the real name. */
function writeAtomic(file: string, bytes: Buffer | string) {
  writeFileSync(`${file}.tmp`, bytes)
  renameSync(`${file}.tmp`, file)
}

export type ManagerOptions = {
  dataDir?: string
  limits?: Partial<Limits>
  owns?: (id: string) => boolean
  templates?: Map<string, Snapshot>
  /** A secret shared by every process of one deployment (`WSGYM_SECRET`, `--secret-file`); see #newKeys. */
  serverSecret?: Buffer
  /**
   * Agent requests per commit of an in-memory world (World.batchWrites, docs/decisions/0419); 0 commits every write
   * as it is made. Default: `WSGYM_BATCH_WRITES`, else BATCH_REQUESTS.
   */
  batchWrites?: number
}

/** Agent requests whose writes an in-memory world commits at once (World.batchWrites). */
export const BATCH_REQUESTS = 64

function batchWritesOf(opts: ManagerOptions): number {
  if (opts.batchWrites !== undefined) return opts.batchWrites
  const env = envDefaults.batchWrites
  const n = env === undefined || env === '' ? BATCH_REQUESTS : Number(env)
  return Number.isInteger(n) && n >= 0 ? n : BATCH_REQUESTS
}

/**
 * Every world one process serves. Templates (one per seed and seed value) are built once and cloned
 * from their bytes, so creating a world from a known seed costs a database open, not a re-seed; the
 * template cache is bounded (least recently used out). With a data directory, each world is a WAL-mode
 * SQLite file and survives restarts. Limits (worlds, snapshots, memory headroom) refuse with `WorldRefused`.
 */
export class WorldManager {
  readonly #worlds = new Map<string, WorldEntry>()
  readonly #templates: Map<string, Snapshot>
  readonly #snapshotSizes = new Map<string, Map<string, number>>()
  /** Rewound held worlds by template, least recently used template first (CreateWorldInput.reuse). */
  readonly #idle = new Map<Snapshot, World[]>()
  /** How many worlds #idle holds, and their bytes (the template's size each). */
  #idleCount = 0
  #idleBytes = 0
  /** Worlds deleted so far, and the count at the last deletion of a world of each template (#recurs). */
  #deletions = 0
  readonly #deletedAt = new WeakMap<Snapshot, number>()
  /** Live worlds leased under a guard: the entries, and how many by template (#recurs). */
  readonly #guardedLeases = new WeakSet<WorldEntry>()
  readonly #heldLive = new Map<Snapshot, number>()
  /** Worlds created `onFirstUse` whose database is not open yet. */
  readonly #unopened = new Set<WorldEntry>()
  readonly #dataDir: string | undefined
  readonly limits: Limits
  #counter = 0
  /** Which world ids this process serves (one worker of several: server/routing.ts); all by default. */
  readonly owns: (id: string) => boolean
  /** `WSGYM_SECRET`: new worlds derive their secret from it and their id (WorldKeys.shared); none: random. */
  readonly #serverSecret: Buffer | undefined
  /** Requests per commit of the in-memory worlds this manager serves (0: none batched). */
  readonly #batchWrites: number

  /**
   * `templates` lets several managers share built templates (the test harness shares one map per process: a
   * template is immutable bytes keyed by seed name or document hash and seed value).
   */
  constructor(opts: ManagerOptions = {}) {
    this.#serverSecret = opts.serverSecret
    this.#batchWrites = batchWritesOf(opts)
    this.#templates = opts.templates ?? new Map()
    this.#dataDir = opts.dataDir
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits }
    this.owns = opts.owns ?? (() => true)
    if (this.#dataDir) {
      mkdirSync(this.#dataDir, { recursive: true })
      this.#reload()
    }
  }

  /** The template snapshot for a seed (by name or inline document) and seed value, built on first use. */
  template(seed: string | Record<string, unknown>, seedValue: number, keyed?: CreateWorldInput['template']): Snapshot {
    return this.#template(seed, seedValue, keyed, false)
  }

  /**
   * `template()`; with `keepBuilt`, a template built now keeps the connection that built it as its idle world (see
   * `#keepIdle`) instead of closing it: its contents are the template's bytes, and its statements are compiled.
   */
  #template(
    seed: string | Record<string, unknown>,
    seedValue: number,
    keyed: CreateWorldInput['template'],
    keepBuilt: boolean,
  ): Snapshot {
    const key = keyed
      ? `keyed:${keyed.key}:${seedValue}`
      : typeof seed === 'string'
        ? `name:${seed}:${seedValue}`
        : `inline:${createHash('sha256').update(JSON.stringify(seed)).digest('hex')}:${seedValue}`
    let snap = this.#templates.get(key)
    if (snap) {
      // Most recently used goes to the end; eviction takes from the front.
      this.#templates.delete(key)
      this.#templates.set(key, snap)
      return snap
    }
    const build = () =>
      buildWorld(keyed ? keyed.build() : typeof seed === 'string' ? this.#named(seed)(seedValue) : seed, seedValue)
    const world = build()
    if (keepBuilt) {
      snap = this.#builtSnapshot(world, build)
      this.#keepIdle(snap, world)
    } else {
      snap = world.snapshot()
      world.close()
    }
    this.#templates.set(key, snap)
    this.#trimTemplates()
    return snap
  }

  /**
   * The template of a world just built and kept as its idle connection (`#keepIdle`), its bytes serialized only when
   * read: a validated task's episodes run on that connection and never open another from the bytes, so serializing
   * them at every build (~2 % of validation's CPU) was work no verdict read (docs/decisions/0402). Read while the
   * connection is idle, its contents are the template's: it is serialized. Read while it is held by a world (or
   * after it was closed), the template is built again from the same seed, which gives the same bytes (a seed's
   * build is deterministic: same seed, same bytes). `size` is the image's, so the template cache counts it unread.
   */
  #builtSnapshot(world: World, rebuild: () => World): Snapshot & { readonly size: number } {
    const size = world.imageSize()
    const idle = this.#idle
    // Weakly: a template in the cache must not keep a closed connection alive (nor the memos keyed by it).
    const built = new WeakRef(world)
    let bytes: Buffer | undefined
    const snap = {
      size,
      get bytes(): Buffer {
        if (bytes) return bytes
        const world = built.deref()
        if (world && idle.get(snap)?.includes(world)) return (bytes = world.snapshot().bytes)
        const again = rebuild()
        try {
          return (bytes = again.snapshot().bytes)
        } finally {
          again.close()
        }
      },
    }
    return snap
  }

  /** Template cache size: entries and bytes (tests and `GET /limits`). */
  templateStats(): { count: number; bytes: number } {
    let bytes = 0
    // A baked template (server/templates.ts) gives its file's size without being read.
    for (const t of this.#templates.values()) bytes += (t as { size?: number }).size ?? t.bytes.length
    return { count: this.#templates.size, bytes }
  }

  #trimTemplates() {
    const { maxTemplates, maxTemplateBytes } = this.limits
    let { bytes } = this.templateStats()
    for (const [key, snap] of this.#templates) {
      if (this.#templates.size <= maxTemplates && bytes <= maxTemplateBytes) break
      if (this.#templates.size === 1) break
      this.#templates.delete(key)
      bytes -= sizeOf(snap)
      // Its idle connections would never be leased again (the template is built anew on next use).
      this.closeIdle(snap)
    }
  }

  /** Uses `snap` as the template of a named seed (one baked by an earlier build of this same code). */
  adoptTemplate(seed: string, seedValue: number, snap: Snapshot): void {
    this.#named(seed)
    this.#templates.set(`name:${seed}:${seedValue}`, snap)
  }

  #named(name: string) {
    const make = ownEntry(namedSeeds, name)
    if (!make)
      throw new SeedError([
        { path: 'seed', message: `unknown seed "${name}" (known: ${Object.keys(namedSeeds).join(', ')})` },
      ])
    return make
  }

  /** Refuses a new world when the world cap or the memory headroom is reached. */
  #admit() {
    if (this.#worlds.size >= this.limits.maxWorlds) {
      throw new WorldRefused(
        429,
        'max_worlds',
        `the server holds its maximum of ${this.limits.maxWorlds} worlds; delete one first`,
      )
    }
    const pressure = memoryPressure(this.limits)
    if (pressure) throw new WorldRefused(507, 'memory', `not enough memory headroom for another world (${pressure})`)
  }

  create(input: CreateWorldInput): WorldEntry {
    const id = input.id ?? this.#nextId()
    if (!WORLD_ID.test(id)) throw new WorldConflict(`world id must match ${WORLD_ID}`)
    if (this.#worlds.has(id)) throw new WorldConflict(`world "${id}" exists`)
    if (!this.owns(id)) throw new WorldConflict(`world id "${id}" routes to another worker`)
    this.#admit()
    const seedValue = input.seedValue ?? 1
    const reuse = input.reuse === true && !this.#dataDir
    const guarded = reuse && input.guarded === true
    const template = this.#template(input.seed, seedValue, input.template, reuse && !guarded)
    const keys = input.publicDemoKeys ? new WorldKeys(id, DEMO_WORLD_SECRET) : this.#newKeys(id)
    const held = reuse && (!guarded || this.#recurs(template)) ? this.#lease(template, guarded) : undefined
    const seedName = typeof input.seed === 'string' ? input.seed : 'inline'
    if (input.onFirstUse && !held && !this.#dataDir) return this.#adoptUnopened(id, template, seedName, seedValue, keys)
    const entry = this.#adopt(id, template, seedName, seedValue, keys, held)
    if (held && guarded) {
      this.#guardedLeases.add(entry)
      this.#heldLive.set(template, (this.#heldLive.get(template) ?? 0) + 1)
    }
    return entry
  }

  /** A world that opens its database from `snap` when `world` is first read (CreateWorldInput.onFirstUse). */
  #adoptUnopened(id: string, snap: Snapshot, seedName: string, seedValue: number, keys: WorldKeys): WorldEntry {
    const unopened = this.#unopened
    const batch = this.#batchWrites
    let world: World | undefined
    let createdAt = 0
    const entry: WorldEntry = {
      id,
      seedName,
      seedValue,
      baseline: snap,
      snapshots: new Map(),
      keys,
      get world() {
        if (!world) {
          world = World.from(snap)
          if (batch > 0) world.batchWrites(batch)
          createdAt = nowMs(world.db)
          unopened.delete(entry)
        }
        return world
      },
      get createdAt() {
        void entry.world
        return createdAt
      },
    }
    this.#unopened.add(entry)
    this.#worlds.set(id, entry)
    this.#snapshotSizes.set(id, new Map())
    return entry
  }

  /**
   * Runs `fn` on a world's database without opening an unopened one: it still holds its template's bytes, so a
   * baked template's file answers (read-only, closed after). Otherwise the world itself.
   */
  #read<T>(entry: WorldEntry, fn: (db: Db) => T): T {
    const file = this.#unopened.has(entry) ? (entry.baseline as { file?: string }).file : undefined
    if (!file) return fn(entry.world.db)
    const sqlite = new Database(file, { readonly: true, fileMustExist: true })
    try {
      return fn(drizzle({ client: sqlite }) as unknown as Db)
    } finally {
      sqlite.close()
    }
  }

  /**
   * Whether an agent's world of `template` should be held: an idle connection waits for it, or a world of it was
   * deleted within the last MAX_IDLE_WORLDS deletions, so that its connection, given back, would likely be leased
   * again. Holding a new connection costs more than opening one unheld (~3 ms of note triggers against a 9 ms
   * episode), which only reuse repays: a loop cycling through more tasks than the pool holds, or a group of one
   * task's episodes started at once, opens unheld connections as before (docs/decisions/0450).
   */
  #recurs(template: Snapshot): boolean {
    if (this.#idle.has(template)) return true
    // No more held at once than the pool keeps of one template: a held connection also holds its note triggers'
    // schema (~0.4 MiB), which only a later lease repays.
    if ((this.#heldLive.get(template) ?? 0) >= MAX_IDLE_PER_TEMPLATE) return false
    const last = this.#deletedAt.get(template)
    return last !== undefined && this.#deletions - last < MAX_IDLE_WORLDS
  }

  /** An idle connection of this template, or a new one, held open (World.hold; `guarded`: CreateWorldInput). */
  #lease(template: Snapshot, guarded: boolean): World {
    const kept = this.#idle.get(template)
    let world = kept?.pop()
    if (world) {
      this.#idleCount--
      this.#idleBytes -= sizeOf(template)
      if (!kept!.length) this.#idle.delete(template)
    } else world = World.from(template)
    world.hold(guarded)
    return world
  }

  /** Rolls a held world back and keeps it for the next world of its template (or closes it). */
  #giveBack(entry: WorldEntry) {
    const world = entry.world
    if (!world.rewind() || (this.#idle.get(entry.baseline)?.length ?? 0) >= MAX_IDLE_PER_TEMPLATE) return world.close()
    this.#keepIdle(entry.baseline, world)
  }

  /**
   * Keeps `world`, an unheld in-memory connection whose contents are exactly `template`'s bytes, for the next world
   * of that template (the least recently kept templates' beyond MAX_IDLE_WORLDS or MAX_IDLE_BYTES are closed).
   */
  #keepIdle(template: Snapshot, world: World) {
    const kept = this.#idle.get(template) ?? []
    // Most recently kept goes to the end; closing takes from the front.
    this.#idle.delete(template)
    this.#idle.set(template, kept)
    kept.push(world)
    this.#idleCount++
    this.#idleBytes += sizeOf(template)
    for (const [snap, worlds] of this.#idle) {
      if (this.#idleCount <= MAX_IDLE_WORLDS && this.#idleBytes <= MAX_IDLE_BYTES) break
      this.#closeIdle(snap, worlds)
    }
  }

  #closeIdle(template: Snapshot, worlds: World[]) {
    this.#idle.delete(template)
    this.#idleCount -= worlds.length
    this.#idleBytes -= worlds.length * sizeOf(template)
    for (const w of worlds) w.close()
  }

  /**
   * Closes the idle connection kept for `template`, if any: for a caller that knows no world of that template will
   * be made again (a validated task's own world, docs/decisions/0402), so that its memory goes now.
   */
  closeIdle(template: Snapshot): void {
    const worlds = this.#idle.get(template)
    if (worlds) this.#closeIdle(template, worlds)
  }

  #adopt(id: string, snap: Snapshot, seedName: string, seedValue: number, keys: WorldKeys, held?: World): WorldEntry {
    let world: World
    if (held) {
      world = held
    } else if (this.#dataDir) {
      const file = join(this.#dataDir, `${id}.sqlite`)
      writeAtomic(join(this.#dataDir, `${id}.key`), keys.exportHex())
      writeFileSync(file, snap.bytes)
      writeFileSync(join(this.#dataDir, `${id}.baseline`), snap.bytes)
      world = World.open(file)
    } else {
      world = World.from(snap)
      if (this.#batchWrites > 0) world.batchWrites(this.#batchWrites)
    }
    const entry: WorldEntry = {
      id,
      world,
      seedName,
      seedValue,
      createdAt: nowMs(world.db),
      baseline: snap,
      snapshots: new Map(),
      keys,
    }
    this.#worlds.set(id, entry)
    this.#snapshotSizes.set(id, new Map())
    return entry
  }

  #nextId(): string {
    let id: string
    do id = `w${(++this.#counter).toString(36).padStart(4, '0')}${this.idSuffix()}`
    while (this.#worlds.has(id) || !this.owns(id))
    return id
  }

  /**
   * A new world's secret. Without a server secret: 256 random bits, known to this process (and its data dir) only.
   * With one: derived from the world id, so every worker and host of the deployment accepts the world's tokens
   * (a world moved as snapshot bytes keeps them). Ids must then never repeat, which #nextId and the gym's episode
   * ids ensure with `idSuffix`; sealing (rotateKeys) still draws a random secret, so a sealed episode's tokens stay
   * dead everywhere.
   */
  #newKeys(id: string): WorldKeys {
    return this.#serverSecret ? WorldKeys.shared(id, this.#serverSecret) : WorldKeys.random(id)
  }

  /**
   * What generated ids (worlds, episodes) end with: nothing by default; with a server secret, `_` and 64 random
   * bits in base 36, because a derived secret makes an id's tokens follow the id, and counters restart with each
   * process (a restarted worker's `ep00001` must not reopen a deleted `ep00001`'s tokens).
   */
  idSuffix(): string {
    return this.#serverSecret ? `_${randomBytes(8).readBigUInt64BE().toString(36).padStart(13, '0')}` : ''
  }

  get(id: string): WorldEntry {
    const entry = this.#worlds.get(id)
    if (!entry) throw new WorldNotFound(`no world "${id}"`)
    return entry
  }

  /** The world a token names, without throwing (identity middleware). */
  find(id: string): WorldEntry | undefined {
    return this.#worlds.get(id)
  }

  list(): WorldEntry[] {
    return [...this.#worlds.values()]
  }

  get size(): number {
    return this.#worlds.size
  }

  delete(id: string): void {
    const entry = this.get(id)
    this.#deletedAt.set(entry.baseline, ++this.#deletions)
    if (this.#guardedLeases.delete(entry)) {
      const held = this.#heldLive.get(entry.baseline)!
      if (held > 1) this.#heldLive.set(entry.baseline, held - 1)
      else this.#heldLive.delete(entry.baseline)
    }
    if (this.#unopened.delete(entry)) {
      // Never opened: nothing to close.
    } else if (entry.world.held) this.#giveBack(entry)
    else entry.world.close()
    this.#worlds.delete(id)
    this.#snapshotSizes.delete(id)
    if (this.#dataDir) {
      for (const f of readdirSync(this.#dataDir))
        if (f.startsWith(`${id}.`)) rmSync(join(this.#dataDir, f), { force: true })
    }
  }

  /**
   * Replaces the world's secret: every token, OAuth secret and upload URL issued so far stops working at
   * once (the gym seals finished episodes this way). The world's data is untouched.
   */
  rotateKeys(id: string): WorldKeys {
    const entry = this.get(id)
    entry.keys = WorldKeys.random(id)
    if (this.#dataDir) writeAtomic(join(this.#dataDir, `${id}.key`), entry.keys.exportHex())
    return entry.keys
  }

  snapshot(id: string, name: string): Snapshot {
    const entry = this.get(id)
    if (!SNAPSHOT_NAME.test(name) || name === 'baseline') {
      throw new WorldRefused(
        400,
        'bad_name',
        'snapshot names are 1-64 characters of A-Z a-z 0-9 . _ - (starting with a letter or digit), not "baseline"',
      )
    }
    const sizes = this.#snapshotSizes.get(id)!
    const pressure = memoryPressure(this.limits)
    if (pressure && !this.#dataDir)
      throw new WorldRefused(507, 'memory', `not enough memory headroom for another snapshot (${pressure})`)
    if (!sizes.has(name) && sizes.size >= this.limits.maxSnapshotsPerWorld) {
      throw new WorldRefused(
        429,
        'max_snapshots',
        `world "${id}" holds its maximum of ${this.limits.maxSnapshotsPerWorld} snapshots; delete one first`,
      )
    }
    // A world held for an agent keeps its writes from now on (World.release): its bytes are committed.
    entry.world.release()
    const snap = entry.world.snapshot()
    let total = snap.bytes.length
    for (const [n, b] of sizes) if (n !== name) total += b
    if (total > this.limits.maxSnapshotBytesPerWorld) {
      throw new WorldRefused(
        507,
        'snapshot_bytes',
        `snapshots of world "${id}" would take ${total} bytes (limit ${this.limits.maxSnapshotBytesPerWorld})`,
      )
    }
    // Written before it is listed: what the control plane lists is what survives a restart.
    if (this.#dataDir) writeAtomic(join(this.#dataDir, `${id}.snap.${name}`), snap.bytes)
    entry.snapshots.set(name, this.#dataDir ? fileSnapshot(join(this.#dataDir, `${id}.snap.${name}`)) : snap)
    sizes.set(name, snap.bytes.length)
    return snap
  }

  /**
   * Named snapshots across worlds: how many, and their bytes (in memory, or in files with a data directory). A
   * deleted snapshot leaves these figures at once; its image's memory goes when nothing else shares it (see
   * `snapshotMemory()`, envs/core/snapshot-memory.ts).
   */
  snapshotStats(): { named: number; bytes: number; inFiles: boolean } {
    let named = 0
    let bytes = 0
    for (const sizes of this.#snapshotSizes.values()) {
      named += sizes.size
      for (const b of sizes.values()) bytes += b
    }
    return { named, bytes, inFiles: this.#dataDir !== undefined }
  }

  /**
   * Connections kept for reuse (CreateWorldInput.reuse): idle ones and their bytes (each its template's size), and
   * live worlds on a held connection (gym episodes; docs/decisions/0450).
   */
  connectionStats(): { idle: number; idleBytes: number; held: number } {
    let held = 0
    for (const entry of this.#worlds.values()) if (!this.#unopened.has(entry) && entry.world.held) held++
    return { idle: this.#idleCount, idleBytes: this.#idleBytes, held }
  }

  /** Forgets a named snapshot (and its file). */
  deleteSnapshot(id: string, name: string): void {
    const entry = this.get(id)
    if (!entry.snapshots.delete(name)) throw new WorldNotFound(`world "${id}" has no snapshot "${name}"`)
    this.#snapshotSizes.get(id)!.delete(name)
    if (this.#dataDir) rmSync(join(this.#dataDir, `${id}.snap.${name}`), { force: true })
  }

  /** Restores a named snapshot, or the baseline when `name` is `baseline`. */
  restore(id: string, name: string): void {
    const entry = this.get(id)
    const snap = name === 'baseline' ? entry.baseline : entry.snapshots.get(name)
    if (!snap) throw new WorldNotFound(`world "${id}" has no snapshot "${name}"`)
    entry.world.release()
    entry.world.restore(snap)
  }

  /** An independent copy under a new id with its own secret; the copy's baseline is the source's current state. */
  fork(id: string, newId?: string): WorldEntry {
    const source = this.get(id)
    const target = newId ?? this.#nextId()
    if (this.#worlds.has(target)) throw new WorldConflict(`world "${target}" exists`)
    if (!WORLD_ID.test(target)) throw new WorldConflict(`world id must match ${WORLD_ID}`)
    if (!this.owns(target)) throw new WorldConflict(`world id "${target}" routes to another worker`)
    this.#admit()
    source.world.release()
    return this.#adopt(target, source.world.snapshot(), source.seedName, source.seedValue, this.#newKeys(target))
  }

  /**
   * Users of a world with their ready-to-use tokens; only `userId`'s when given (the gym asks for its actor on every
   * episode: one user's tokens are made, not every user's). Each user's token of a kind is its first unrevoked one
   * in table order.
   */
  credentials(id: string, userId?: string) {
    const entry = this.get(id)
    const keys = entry.keys
    const read = (db: Db) => {
      const users = userId === undefined ? listUsers(db) : [findUserById(db, userId)].filter((u) => u !== undefined)
      const tokens = stmt(db, userId === undefined ? LIVE_TOKENS : `${LIVE_TOKENS} AND user_id = ?`)
        .raw()
        .all(...(userId === undefined ? [] : [userId])) as [string, string, string][]
      return [tokens, users] as const
    }
    const [tokens, users] = this.#read(entry, read)
    const first = new Map<string, string>()
    for (const [user, kind, key] of tokens) if (!first.has(`${user}\0${kind}`)) first.set(`${user}\0${kind}`, key)
    return users.map((u) => {
      const of = (kind: 'google' | 'slack_user') => {
        const key = first.get(`${u.id}\0${kind}`)
        return key === undefined ? undefined : keys.token(kind, key)
      }
      return { id: u.id, email: u.email, name: u.name, googleToken: of('google'), slackUserToken: of('slack_user') }
    })
  }

  /** Slack bot tokens of a world (bots are Slack-side principals, not people). */
  botTokens(id: string) {
    const entry = this.get(id)
    const keys = entry.keys
    return this.#read(entry, listTokens)
      .filter((t) => t.kind === 'slack_bot' && !t.revoked)
      .map((t) => ({ botUserId: t.userId, token: keys.token('slack_bot', t.key) }))
  }

  close(): void {
    for (const entry of this.#worlds.values()) if (!this.#unopened.has(entry)) entry.world.close()
    this.#worlds.clear()
    this.#unopened.clear()
    this.#heldLive.clear()
    for (const [template, worlds] of this.#idle) this.#closeIdle(template, worlds)
  }

  /** Reopens the worlds of a data directory after a restart; snapshots and baselines are read when used. */
  #reload() {
    const dir = this.#dataDir!
    const files = readdirSync(dir).sort()
    for (const f of files) {
      const m = /^([a-z0-9_]+)\.sqlite$/.exec(f)
      if (!m || !this.owns(m[1]!)) continue
      const id = m[1]!
      const world = World.open(join(dir, f))
      const missing = world.missingColumns(allServiceTables())
      if (missing.length) {
        // Left on disk, untouched: serving it would fail every request that reads those columns.
        world.close()
        console.error(
          `wsgym: world ${id} in ${dir} was written by an older build (no ${missing.slice(0, 3).join(', ')}` +
            `${missing.length > 3 ? ', …' : ''}); not loaded. Delete its files to create it again.`,
        )
        continue
      }
      const baselineFile = join(dir, `${id}.baseline`)
      const baseline = existsSync(baselineFile) ? fileSnapshot(baselineFile) : world.snapshot()
      const snapshots = new Map<string, Snapshot>()
      const sizes = new Map<string, number>()
      for (const s of files) {
        if (!s.startsWith(`${id}.snap.`) || s.endsWith('.tmp')) continue
        const name = s.slice(`${id}.snap.`.length)
        if (!SNAPSHOT_NAME.test(name)) continue
        snapshots.set(name, fileSnapshot(join(dir, s)))
        sizes.set(name, statSync(join(dir, s)).size)
      }
      const keyFile = join(dir, `${id}.key`)
      const hex = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : ''
      // A world without its key file gets a new secret: tokens issued before are refused, never guessed.
      const keys = /^[0-9a-f]{64,}$/.test(hex) ? new WorldKeys(id, Buffer.from(hex, 'hex')) : WorldKeys.random(id)
      if (!hex) writeAtomic(keyFile, keys.exportHex())
      const seedName = getMeta(world.db, 'seed_name') ?? 'inline'
      const seedValue = Number(getMeta(world.db, 'seed_value') ?? 1)
      this.#worlds.set(id, { id, world, seedName, seedValue, createdAt: nowMs(world.db), baseline, snapshots, keys })
      this.#snapshotSizes.set(id, sizes)
    }
  }
}

/** A template's image size, without reading its bytes where it knows it (baked, or built and kept idle). */
function sizeOf(snap: Snapshot): number {
  return (snap as { size?: number }).size ?? snap.bytes.length
}
