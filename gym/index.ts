import type { OpenAPIHono } from '@hono/zod-openapi'
import { WorldManager } from '../server/worlds.ts'
import { createAgentApp } from '../server/app.ts'
import { Episode } from './episode.ts'
import { TaskSpec, type TaskInput } from './task.ts'
import { loadCorpus } from './corpus.ts'

export { Episode, truncateObservation, type Action, type StepResult } from './episode.ts'
export { TaskSpec, publicTask } from './task.ts'
export { runProgram } from './program.ts'

/** The gym: many episodes at once, each in its own world of one WorldManager. */
export class Gym {
  readonly worlds: WorldManager
  readonly app: OpenAPIHono<any>
  readonly episodes = new Map<string, Episode>()
  #tasks: Map<string, TaskSpec> | undefined
  #counter = 0

  constructor(opts: { worlds?: WorldManager; app?: OpenAPIHono<any>; tasks?: TaskSpec[] } = {}) {
    this.worlds = opts.worlds ?? new WorldManager()
    this.app = opts.app ?? createAgentApp(this.worlds)
    if (opts.tasks) this.#tasks = new Map(opts.tasks.map((t) => [t.id, t]))
  }

  /** Tasks known by id (the tasks-lite corpus unless given). */
  get tasks(): Map<string, TaskSpec> {
    this.#tasks ??= new Map(loadCorpus().map((t) => [t.id, t]))
    return this.#tasks
  }

  /** Starts an episode: clones the task's template world. */
  reset(task: TaskInput | TaskSpec | string, opts: { seed?: number } = {}): Episode {
    const spec = typeof task === 'string' ? this.tasks.get(task) : TaskSpec.parse(task)
    if (!spec) throw new Error(`unknown task "${String(task)}"`)
    let id: string
    do id = `ep${(++this.#counter).toString(36).padStart(5, '0')}`
    while (this.worlds.find(id) || !this.worlds.owns(id))
    const entry = this.worlds.create({ id, seed: spec.seed, seedValue: opts.seed ?? spec.seedValue })
    const ep = new Episode(id, spec, entry, this.worlds, this.app)
    this.episodes.set(id, ep)
    const close = ep.close.bind(ep)
    ep.close = () => { close(); this.episodes.delete(id) }
    return ep
  }

  get(id: string): Episode | undefined {
    return this.episodes.get(id)
  }
}

/** Creates a gym (in-process: tool calls go through the agent app without HTTP). */
export function createGym(opts: { worlds?: WorldManager; app?: OpenAPIHono<any>; tasks?: TaskSpec[] } = {}): Gym {
  return new Gym(opts)
}
