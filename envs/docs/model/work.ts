// The work one batchUpdate may make the single server thread do (docs/decisions/0377). Walks over blocks and
// paragraph elements charge units here; past the budget the batch is refused whole, before anything is saved. The
// units are counted, not timed, so the same requests on the same document always meet the same answer.

/** Work left to the running batch; Infinity outside one (renders, exports and seeding are not charged). */
export const work = { left: Infinity }

/** Thrown when a batch runs out of work; the route answers it as a refused batch. */
export class WorkExhausted extends Error {}

/** Charges `n` units to the running batch. */
export function charge(n: number) {
  if ((work.left -= n) < 0) throw new WorkExhausted('work budget exhausted')
}

/** Units the last finite budget had spent when it ended; read by tests. */
export const workStats = { lastSpent: 0 }

/** Runs `fn` with `budget` units of work; the budget ends when it returns or throws. */
export function withWorkBudget<T>(budget: number, fn: () => T): T {
  const saved = work.left
  work.left = budget
  try {
    return fn()
  } finally {
    if (Number.isFinite(budget)) workStats.lastSpent = budget - work.left
    work.left = saved
  }
}
