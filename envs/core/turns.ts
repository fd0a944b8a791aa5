/**
 * Long requests share the event loop: every world of a server runs on one thread, so a handler doing much work
 * (a listing of thousands of expanded instances, a big page to render) gives other requests a turn every few
 * milliseconds. Only scheduling changes: what the request reads and answers does not depend on where it yields.
 */

/** Work between two turns handed to other requests (ms). */
export const TURN_MS = 8

/** Resolves on a later turn of the event loop, after pending I/O (another world's /healthz) was served. */
export function nextTurn(): Promise<void> {
  handed.all++
  return new Promise<void>((resolve) => setImmediate(resolve))
}

const handed = { all: 0, work: 0 }

/**
 * Turns handed over by every request of this process so far (tests and benches count them around one request):
 * `work` by handlers' budgets (below) as they compute an answer, `all` adds those of a streamed body or a batch.
 */
export const turnsHanded = (kind: keyof typeof handed) => handed[kind]

/** A budget for one request: `maybeYield()` yields once TURN_MS of work has passed since the last turn. */
export function turnTaker(turnMs = TURN_MS) {
  let since = performance.now()
  let turns = 0
  return {
    async maybeYield(): Promise<void> {
      if (performance.now() - since < turnMs) return
      turns++
      handed.work++
      await nextTurn()
      since = performance.now()
    },
    /** How many turns this request handed over (tests and benches). */
    get turns() {
      return turns
    },
  }
}
