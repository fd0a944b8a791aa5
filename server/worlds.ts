import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { World, type Snapshot } from '../envs/core/world.ts'
import { getMeta, nowMs } from '../envs/core/clock.ts'
import { formatToken, listTokens } from '../envs/core/tokens.ts'
import { listUsers } from '../envs/core/users.ts'
import { namedSeeds } from '../seeds/index.ts'
import { buildWorld, SeedError } from './seeding.ts'
import { createHash } from 'node:crypto'

/** A world the server holds, with its baseline (for diffs) and named snapshots. */
export type WorldEntry = {
  id: string
  world: World
  seedName: string
  seedValue: number
  createdAt: number
  baseline: Snapshot
  snapshots: Map<string, Snapshot>
}

export type CreateWorldInput = { id?: string; seed: string | Record<string, unknown>; seedValue?: number }

export class WorldNotFound extends Error {}
export class WorldConflict extends Error {}

const WORLD_ID = /^[a-z0-9_]{1,40}$/

/**
 * Every world one process serves. Templates (one per seed and seed value) are built once and cloned
 * from their bytes, so creating a world from a known seed costs a database open, not a re-seed.
 * With a data directory, each world is a WAL-mode SQLite file and survives restarts.
 */
export class WorldManager {
  readonly #worlds = new Map<string, WorldEntry>()
  readonly #templates: Map<string, Snapshot>
  readonly #dataDir: string | undefined
  #counter = 0
  /** Which world ids this process serves (one worker of several: server/routing.ts); all by default. */
  readonly owns: (id: string) => boolean

  /**
   * `templates` lets several managers share built templates (the test harness shares one map per process: a
   * template is immutable bytes keyed by seed name or document hash and seed value).
   */
  constructor(opts: { dataDir?: string; owns?: (id: string) => boolean; templates?: Map<string, Snapshot> } = {}) {
    this.#templates = opts.templates ?? new Map()
    this.#dataDir = opts.dataDir
    this.owns = opts.owns ?? (() => true)
    if (this.#dataDir) {
      mkdirSync(this.#dataDir, { recursive: true })
      this.#reload()
    }
  }

  /** The template snapshot for a seed (by name or inline document) and seed value, built on first use. */
  template(seed: string | Record<string, unknown>, seedValue: number): Snapshot {
    const key =
      typeof seed === 'string'
        ? `name:${seed}:${seedValue}`
        : `inline:${createHash('sha256').update(JSON.stringify(seed)).digest('hex')}:${seedValue}`
    let snap = this.#templates.get(key)
    if (!snap) {
      const doc = typeof seed === 'string' ? this.#named(seed)(seedValue) : seed
      const world = buildWorld(doc, seedValue)
      snap = world.snapshot()
      world.close()
      this.#templates.set(key, snap)
    }
    return snap
  }

  /** Uses `snap` as the template of a named seed (one baked by an earlier build of this same code). */
  adoptTemplate(seed: string, seedValue: number, snap: Snapshot): void {
    this.#named(seed)
    this.#templates.set(`name:${seed}:${seedValue}`, snap)
  }

  #named(name: string) {
    const make = namedSeeds[name]
    if (!make) throw new SeedError([{ path: 'seed', message: `unknown seed "${name}" (known: ${Object.keys(namedSeeds).join(', ')})` }])
    return make
  }

  create(input: CreateWorldInput): WorldEntry {
    const id = input.id ?? this.#nextId()
    if (!WORLD_ID.test(id)) throw new WorldConflict(`world id must match ${WORLD_ID}`)
    if (this.#worlds.has(id)) throw new WorldConflict(`world "${id}" exists`)
    if (!this.owns(id)) throw new WorldConflict(`world id "${id}" routes to another worker`)
    const seedValue = input.seedValue ?? 1
    const template = this.template(input.seed, seedValue)
    return this.#adopt(id, template, typeof input.seed === 'string' ? input.seed : 'inline', seedValue)
  }

  #adopt(id: string, snap: Snapshot, seedName: string, seedValue: number): WorldEntry {
    let world: World
    if (this.#dataDir) {
      const file = join(this.#dataDir, `${id}.sqlite`)
      writeFileSync(file, snap.bytes)
      writeFileSync(join(this.#dataDir, `${id}.baseline`), snap.bytes)
      world = World.open(file)
    } else {
      world = World.from(snap)
    }
    const entry: WorldEntry = { id, world, seedName, seedValue, createdAt: nowMs(world.db), baseline: snap, snapshots: new Map() }
    this.#worlds.set(id, entry)
    return entry
  }

  #nextId(): string {
    let id: string
    do id = `w${(++this.#counter).toString(36).padStart(4, '0')}`
    while (this.#worlds.has(id) || !this.owns(id))
    return id
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

  delete(id: string): void {
    const entry = this.get(id)
    entry.world.close()
    this.#worlds.delete(id)
    if (this.#dataDir) {
      for (const f of readdirSync(this.#dataDir)) if (f === `${id}.sqlite` || f.startsWith(`${id}.`)) rmSync(join(this.#dataDir, f), { force: true })
    }
  }

  snapshot(id: string, name: string): Snapshot {
    const entry = this.get(id)
    const snap = entry.world.snapshot()
    entry.snapshots.set(name, snap)
    if (this.#dataDir) writeFileSync(join(this.#dataDir, `${id}.snap.${encodeURIComponent(name)}`), snap.bytes)
    return snap
  }

  /** Restores a named snapshot, or the baseline when `name` is `baseline`. */
  restore(id: string, name: string): void {
    const entry = this.get(id)
    const snap = name === 'baseline' ? entry.baseline : entry.snapshots.get(name)
    if (!snap) throw new WorldNotFound(`world "${id}" has no snapshot "${name}"`)
    entry.world.restore(snap)
  }

  /** An independent copy under a new id; the copy's baseline is the source's current state. */
  fork(id: string, newId?: string): WorldEntry {
    const source = this.get(id)
    const target = newId ?? this.#nextId()
    if (this.#worlds.has(target)) throw new WorldConflict(`world "${target}" exists`)
    if (!WORLD_ID.test(target)) throw new WorldConflict(`world id must match ${WORLD_ID}`)
    if (!this.owns(target)) throw new WorldConflict(`world id "${target}" routes to another worker`)
    return this.#adopt(target, source.world.snapshot(), source.seedName, source.seedValue)
  }

  /** Users of a world with their ready-to-use tokens. */
  credentials(id: string) {
    const { world } = this.get(id)
    const tokens = listTokens(world.db).filter((t) => !t.revoked)
    return listUsers(world.db).map((u) => {
      const of = (kind: 'google' | 'slack_user' | 'slack_bot') => {
        const t = tokens.find((x) => x.userId === u.id && x.kind === kind)
        return t ? formatToken(id, kind, t.key) : undefined
      }
      return { id: u.id, email: u.email, name: u.name, googleToken: of('google'), slackUserToken: of('slack_user') }
    })
  }

  /** Slack bot tokens of a world (bots are Slack-side principals, not people). */
  botTokens(id: string) {
    const { world } = this.get(id)
    return listTokens(world.db)
      .filter((t) => t.kind === 'slack_bot' && !t.revoked)
      .map((t) => ({ botUserId: t.userId, token: formatToken(id, 'slack_bot', t.key) }))
  }

  close(): void {
    for (const entry of this.#worlds.values()) entry.world.close()
    this.#worlds.clear()
  }

  /** Reopens the worlds of a data directory after a restart. */
  #reload() {
    const dir = this.#dataDir!
    for (const f of readdirSync(dir).sort()) {
      const m = /^([a-z0-9_]+)\.sqlite$/.exec(f)
      if (!m || !this.owns(m[1]!)) continue
      const id = m[1]!
      const world = World.open(join(dir, f))
      const baselineFile = join(dir, `${id}.baseline`)
      const baseline = existsSync(baselineFile) ? { bytes: readFileSync(baselineFile) } : world.snapshot()
      const snapshots = new Map<string, Snapshot>()
      for (const s of readdirSync(dir)) {
        const sm = new RegExp(`^${id}\\.snap\\.(.+)$`).exec(s)
        if (sm) snapshots.set(decodeURIComponent(sm[1]!), { bytes: readFileSync(join(dir, s)) })
      }
      const seedName = getMeta(world.db, 'seed_name') ?? 'inline'
      const seedValue = Number(getMeta(world.db, 'seed_value') ?? 1)
      this.#worlds.set(id, { id, world, seedName, seedValue, createdAt: nowMs(world.db), baseline, snapshots })
    }
  }
}
