import { createHash } from 'node:crypto'
import type { OpenAPIHono } from '@hono/zod-openapi'
import { WorldManager } from '../server/worlds.ts'
import { createAgentApp } from '../server/app.ts'
import type { SharedPrefix } from './shared-prefix.ts'
import { Episode } from './episode.ts'
import { TaskSpec, type TaskInput } from './task.ts'
import { loadCorpus } from './corpus.ts'
import { setTickLimit, tickMs } from '../envs/core/clock.ts'
import { worldTemplate } from './world.ts'

export { Episode, truncateObservation, type Action, type StepResult } from './episode.ts'
export { TaskSpec, publicTask } from './task.ts'
export { runProgram } from './program.ts'

export type GymOptions = {
  worlds?: WorldManager
  app?: OpenAPIHono<any>
  tasks?: TaskSpec[]
  /** Wall clock for episode expiry (tests inject one); default Date.now. */
  clock?: () => number
  /**
   * Run episodes of one task on one reused connection, rolled back between episodes, trusting what they send
   * (CreateWorldInput.reuse without `guarded`): for validation, whose programs never snapshot, fork, restore or
   * upload. Off by default: an agent's episodes reuse connections under a guard instead (below).
   */
  reuseWorlds?: boolean
  /**
   * Give every episode a connection of its own, opened from the template's bytes. By default an episode takes an
   * idle connection of its task's template (statements compiled, schema read) under a guarded hold
   * (CreateWorldInput.guarded), rolled back and kept for the next episode when it closes: the same world, bytes and
   * answers, at a fraction of the cost (docs/decisions/0450).
   */
  freshWorlds?: boolean
}

/** A reset the gym refuses (live-episode cap): 429 with a reason. */
export class EpisodeRefused extends Error {
  readonly status = 429
  readonly reason = 'max_episodes'
}

/**
 * A task tagged `rest-only` reset on the typed profile: its reference needs a call no typed tool makes (the OAuth token
 * endpoint's JWT-bearer grant, for one), so an agent holding only typed tools could not solve it.
 */
export class ProfileRefused extends Error {
  readonly status = 400
  readonly reason = 'rest_only'
}

/** Why an episode ended without close(): kept (bounded) so late callers learn it expired rather than "no such". */
const EXPIRED_KEPT = 10_000

/** The gym: many episodes at once, each in its own world of one WorldManager. */
export class Gym {
  readonly worlds: WorldManager
  readonly app: OpenAPIHono<any>
  readonly episodes = new Map<string, Episode>()
  readonly #expired = new Set<string>()
  readonly #clock: () => number
  readonly #reuse: boolean
  readonly #fresh: boolean
  #tasks: Map<string, TaskSpec> | undefined
  #counter = 0
  /** Specs this gym parsed and deep-froze (prepare), with their template descriptors, computed once. */
  readonly #prepared = new WeakMap<TaskSpec, { template: GymTemplate }>()

  constructor(opts: GymOptions = {}) {
    this.worlds = opts.worlds ?? new WorldManager()
    this.app = opts.app ?? createAgentApp(this.worlds)
    this.#clock = opts.clock ?? Date.now
    this.#reuse = opts.reuseWorlds === true
    this.#fresh = opts.freshWorlds === true
    if (opts.tasks) this.#tasks = new Map(opts.tasks.map((t) => [t.id, t]))
  }

  /**
   * Closes every episode idle longer than `episodeIdleMs` or older than `episodeMaxAgeMs` (the world's
   * limits): its world is freed and its tokens die with it. Runs on each reset and on the server's timer.
   */
  reap(): string[] {
    const now = this.#clock()
    const { episodeIdleMs, episodeMaxAgeMs } = this.worlds.limits
    const gone: string[] = []
    for (const ep of this.episodes.values()) {
      if (now - ep.lastActiveAt < episodeIdleMs && now - ep.startedAt < episodeMaxAgeMs) continue
      ep.close()
      gone.push(ep.id)
      this.#expired.add(ep.id)
      if (this.#expired.size > EXPIRED_KEPT) this.#expired.delete(this.#expired.values().next().value!)
    }
    return gone
  }

  /** True for an episode the gym closed because it expired. */
  expired(id: string): boolean {
    return this.#expired.has(id)
  }

  /** Tasks known by id (the tasks-lite corpus unless given). */
  get tasks(): Map<string, TaskSpec> {
    this.#tasks ??= new Map(loadCorpus().map((t) => [t.id, t]))
    return this.#tasks
  }

  /**
   * The task parsed once and deep-frozen, for callers that reset it many times (validation runs ~20 episodes a
   * task): `reset` takes it without parsing it again, and its template key (a hash of its seed) is computed here
   * once. Frozen, so no episode can change what the next one starts from (a write throws).
   */
  prepare(task: TaskInput | TaskSpec): TaskSpec {
    if (this.#prepared.has(task as TaskSpec)) return task as TaskSpec
    const spec = deepFreeze(TaskSpec.parse(task))
    this.#prepared.set(spec, { template: worldTemplate(spec) ?? inlineTemplate(spec) })
    return spec
  }

  /**
   * Starts an episode: clones the task's template world. With `shared` (validation), the episodes of one task run
   * one after another in the chain's world, sharing the requests they have in common (gym/shared-prefix.ts).
   */
  reset(task: TaskInput | TaskSpec | string, opts: { seed?: number; shared?: SharedPrefix } = {}): Episode {
    const prepared = typeof task === 'string' ? undefined : this.#prepared.get(task as TaskSpec)
    const spec = typeof task === 'string' ? this.tasks.get(task) : prepared ? (task as TaskSpec) : TaskSpec.parse(task)
    if (!spec) throw new Error(`unknown task "${String(task)}"`)
    if (spec.toolProfile === 'typed' && spec.tags.includes('rest-only')) {
      throw new ProfileRefused(
        `task "${spec.id}" needs the rest tool profile (http_request): no typed tool makes all` + ' its calls',
      )
    }
    this.reap()
    const shared = opts.shared
    const chained = shared?.entry
    if (chained) {
      if (this.episodes.has(chained.id)) throw new Error(`episode "${chained.id}" of the chain is still open`)
      shared.begin()
      return this.#track(new Episode(chained.id, spec, chained, this.worlds, this.app, this.#clock, shared))
    }
    const max = this.worlds.limits.maxEpisodes
    if (this.episodes.size >= max)
      throw new EpisodeRefused(`${max} episodes are live (the limit); close one or wait for idle ones to expire`)
    let id: string
    do id = `ep${(++this.#counter).toString(36).padStart(5, '0')}${this.worlds.idSuffix()}`
    while (this.worlds.find(id) || !this.worlds.owns(id) || this.#expired.has(id))
    const entry = this.worlds.create({
      id,
      seed: spec.seed,
      seedValue: opts.seed ?? spec.seedValue,
      reuse: this.#reuse || shared !== undefined || !this.#fresh,
      guarded: !this.#reuse && shared === undefined,
      template: prepared ? prepared.template : worldTemplate(spec),
    })
    // The episode's clock budget: agent requests move it at most one tick per allowed step (docs: gym/README.md).
    entry.world.tx((db) => setTickLimit(db, spec.maxSteps * tickMs(db)))
    if (shared) {
      shared.attach(entry)
      shared.begin()
    }
    return this.#track(new Episode(id, spec, entry, this.worlds, this.app, this.#clock, shared))
  }

  /** Registers a live episode (closing it unregisters it). */
  #track(ep: Episode): Episode {
    const id = ep.id
    this.episodes.set(id, ep)
    const close = ep.close.bind(ep)
    ep.close = () => {
      close()
      this.episodes.delete(id)
    }
    return ep
  }

  get(id: string): Episode | undefined {
    return this.episodes.get(id)
  }
}

type GymTemplate = ReturnType<typeof worldTemplate>

/**
 * A prepared task without background volume: its inline seed under a key hashed once (the manager would hash the
 * seed's JSON on every create). A named seed needs no key.
 */
function inlineTemplate(spec: TaskSpec): GymTemplate {
  if (typeof spec.seed === 'string') return undefined
  const seed = spec.seed as Record<string, unknown>
  return { key: `inline:${createHash('sha256').update(JSON.stringify(seed)).digest('hex')}`, build: () => seed }
}

/** Freezes a parsed (JSON-like) value all the way down. */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value
  for (const v of Object.values(value)) deepFreeze(v)
  return Object.freeze(value)
}

/** Creates a gym (in-process: tool calls go through the agent app without HTTP). */
export function createGym(opts: GymOptions = {}): Gym {
  return new Gym(opts)
}
