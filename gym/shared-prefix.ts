import type { WorldEntry, WorldManager } from '../server/worlds.ts'
import type { WorldKeys } from '../envs/core/tokens.ts'
import type { CallResult } from './episode.ts'

/** The acting user's credentials as an episode reads them (WorldManager.credentials). */
type Credentials = ReturnType<WorldManager['credentials']>[number]

/** What a request of the chain gives: its result, and whether its body is `JSON.parse(text)` (gym/response-body.ts). */
export type Sent = { result: CallResult; json: boolean }

/**
 * One request the chain ran for real, with the result it gave. The path keeps it unchanged, as immutable parts: the
 * status and text, and the body only when it is not parsed from the text (a copy then, callers may change theirs).
 */
type Step = { key: string; status: number; text: string; json: boolean; body: unknown }

/**
 * Episodes of one task run one after another in one held world, sharing what their requests have in common.
 *
 * Validation runs ~20 programs a task (reference, no-op, near misses, attacks) from the same start; many begin
 * with the same requests (the same lookups, listings, reads). Here every episode of the chain uses one world
 * identity (id, secret, tokens), so the same request in the same state gives the same answer byte for byte. The
 * chain keeps the requests the last episode ran, with a savepoint of the held world before each: a new episode
 * whose requests repeat that path is answered from it without running them (`virtual`), and at its first
 * different request, or the first time anything else touches the world (verify, a read, another user's call),
 * the world is rolled back to the savepoint where the episodes parted and the episode goes on for real.
 *
 * Only requests through `Episode.call` as the task's actor are shared; the world's before-use hook catches every
 * other use. A write outside those requests (an attack acting as another user, say) makes the path from there on
 * unshareable (`#clean`), since the answers after it depend on it. Everything a request changes lives in the
 * world's database (rolled back with it); the world's keys, which only a seal replaces, are put back at each
 * episode's start. Rolling back releases and retakes the savepoint, so SQLite drops the page copies no savepoint
 * needs any more (World.rollbackTo). See docs/decisions/0316 and 0336 (validation's default: a savepoint per request)
 * and 0339 (validation runs a task's episodes in the order that shares the most, gym/episode-order.ts; the path keeps
 * a JSON body as its text, parsed again for each replay).
 */
export class SharedPrefix {
  constructor(
    /** Savepoints are taken only for the first `depth` requests of an episode (see `#mark`). */
    readonly depth = 3,
    /**
     * An episode that begins once this many requests ran for real since the world was last rolled back to the
     * start shares nothing and starts there. Rolling back to a deeper savepoint and taking it again leaves SQLite's
     * sub-journal as long as it was whenever the requests after it first wrote a page the outer savepoints had not
     * copied yet (they need that copy); the copies pile up until a rollback to the outermost one, and every noted
     * write walks the sub-journal from its head (World.rollbackTo, docs/decisions/0336, 0339).
     */
    readonly restartAfter = Infinity,
  ) {}
  #entry: WorldEntry | undefined
  #keys: WorldKeys | undefined
  #credentials: Credentials | undefined
  /** The last episode's requests, in order (savepoint `shared_i` holds the world as it was before `#path[i]`). */
  #path: Step[] = []
  /** The connection's change count at each savepoint taken (position i: after i requests of the episode). */
  #marks: number[] = []
  /** Steps before this index are replayable (nothing else wrote the world between them). */
  #clean = 0
  /** Requests of the current episode so far. */
  #pos = 0
  /** True while the world may not be at the current episode's state (its requests were answered from the path). */
  #virtual = false
  /** True while a request of the chain runs for real (its own uses of the world do not count as outside ones). */
  #running = false
  /** Requests run for real since the world was last rolled back to the start (`restartAfter`). */
  #sinceStart = 0
  /** Requests answered from the path, and run for real (for reports). */
  replayed = 0
  ran = 0

  get entry(): WorldEntry | undefined {
    return this.#entry
  }

  /** The chain's world, just created and held (the task's start): the savepoint every episode starts from. */
  attach(entry: WorldEntry): void {
    if (this.#entry) throw new Error('a shared prefix has its world already')
    if (!entry.world.held) throw new Error('a shared prefix needs a held world')
    this.#entry = entry
    this.#keys = entry.keys
    this.#mark()
    entry.world.setBeforeUse(() => this.#touched())
  }

  /** A new episode of the chain starts: at the start state (as far as it can tell), with the chain's keys. */
  begin(): void {
    const entry = this.#entry!
    entry.keys = this.#keys!
    this.#pos = 0
    this.#virtual = true
    if (this.#sinceStart >= this.restartAfter) this.#clean = 0
  }

  /** The acting user's credentials: the same for every episode (same start, same keys), read once. */
  credentials(read: () => Credentials | undefined): Credentials | undefined {
    this.#credentials ??= read()
    return this.#credentials
  }

  /** One request of the current episode: answered from the path when it repeats it, else run and noted. */
  async request(key: string, run: () => Promise<Sent>): Promise<CallResult> {
    const at = this.#pos
    if (this.#virtual && at < this.#clean && at < this.depth && this.#path[at]!.key === key) {
      this.#pos++
      this.replayed++
      return answerOf(this.#path[at]!)
    }
    this.#catchUp()
    if (at >= this.depth) {
      // Past `depth` nothing is replayed or marked: the request just runs (no copy of its result is kept).
      this.#path.length = Math.min(this.#path.length, this.depth)
      const { result } = await this.#run(run)
      this.#pos = at + 1
      this.ran++
      this.#sinceStart++
      return result
    }
    const world = this.#entry!.world
    // Clean: every earlier step is, and nothing but the chain's requests wrote the world since the last savepoint
    // (a write by anything else would make this answer, and every later one, depend on it).
    const clean = this.#clean >= at && world.changeCount() === this.#marks[at]
    const { result, json } = await this.#run(run)
    this.#path.length = at
    this.#path.push(stepOf(key, result, json))
    this.#pos = at + 1
    this.#clean = clean ? at + 1 : Math.min(this.#clean, at)
    this.ran++
    this.#sinceStart++
    this.#mark()
    return result
  }

  /** Runs a request of the chain: its own uses of the world are not outside ones. */
  async #run(run: () => Promise<Sent>): Promise<Sent> {
    this.#running = true
    try {
      return await run()
    } finally {
      this.#running = false
    }
  }

  /**
   * Ends the chain: the world is deleted as any episode's (rolled back), and its connection closed rather than kept
   * for reuse: no other task validates on the same template (each task's world is drawn from its id), and an idle
   * connection keeps its memos alive (docs/decisions/0402). A later chain of the task opens the template's bytes.
   */
  dispose(worlds: WorldManager): void {
    const entry = this.#entry
    if (!entry) return
    entry.world.setBeforeUse(undefined)
    entry.keys = this.#keys!
    if (worlds.find(entry.id) === entry) worlds.delete(entry.id)
    worlds.closeIdle(entry.baseline)
    this.#entry = undefined
  }

  /**
   * A savepoint of the world as it is after `#pos` requests. Every request writes (the clock, the action log), and
   * under each open savepoint a page's first write copies it aside: past `depth` requests no more savepoints are
   * taken, so long episodes pay that once per page, and only prefixes up to `depth` requests are shared.
   */
  #mark(): void {
    if (this.#pos > this.depth) return
    const world = this.#entry!.world
    this.#marks.length = this.#pos
    world.savepoint(savepointName(this.#pos))
    this.#marks.push(world.changeCount())
  }

  /** The world is used outside a request of the chain: bring it to the episode's state first. */
  #touched(): void {
    if (!this.#running) this.#catchUp()
  }

  /** Rolls the world back to where the current episode is (after its first `#pos` requests, all from the path). */
  #catchUp(): void {
    if (!this.#virtual) return
    this.#virtual = false
    const at = this.#pos
    const world = this.#entry!.world
    if (at === 0) this.#sinceStart = 0
    world.rollbackTo(savepointName(at))
    this.#marks[at] = world.changeCount()
    this.#marks.length = at + 1
    this.#path.length = at
    this.#clean = Math.min(this.#clean, at)
  }
}

/** The savepoint before request `i` of an episode (World compiles its statements once per name). */
const savepointName = (i: number) => `shared_${i}`

/** The path's record of a result: a body parsed from its text is not kept (parsed again when replayed). */
function stepOf(key: string, r: CallResult, json: boolean): Step {
  return { key, status: r.status, text: r.text, json, body: json ? undefined : fresh(r.body) }
}

/** A replayed result as a fresh object (callers may change what they were given). */
function answerOf(step: Step): CallResult {
  return { status: step.status, body: step.json ? JSON.parse(step.text) : fresh(step.body), text: step.text }
}

const fresh = (body: unknown) => (typeof body === 'object' && body !== null ? structuredClone(body) : body)
