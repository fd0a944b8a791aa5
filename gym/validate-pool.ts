/**
 * Validates tasks in worker threads (node:worker_threads): each worker holds its own gym and takes the next task
 * when it finishes one, so a slow family does not hold the others up. Results come back in the input order,
 * whatever order the workers finish in, so the output is the same for any number of workers.
 */
import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { createGym } from './index.ts'
import { validateTask, type TaskValidation } from './validate.ts'
import type { TaskSpec } from './task.ts'

export type PoolOptions = {
  /** Worker threads; 1 validates in this thread (default: the available cores, at most one per task). */
  workers?: number
  attacks?: boolean
  /** Episodes also share the requests they have in common unless false (gym/shared-prefix.ts; ValidateOptions). */
  sharedPrefix?: boolean
  /** A fresh world identity for every episode instead of one per task (ValidateOptions). */
  isolated?: boolean
  /** Called after every finished task (in completion order) with the running totals. */
  progress?: (p: Progress) => void
}
export type Progress = { done: number; total: number; failed: number; last: TaskValidation }

/** What a worker is sent and answers (the worker entry is gym/validate-worker.ts). */
export type WorkerRequest = { index: number; task: TaskSpec } | { stop: true }
export type WorkerReply = { index: number; result: TaskValidation }

export const defaultWorkers = () => availableParallelism()

/** A task whose validation threw: reported as an invalid task, never a crash of the whole run. */
export function crashed(task: TaskSpec, e: unknown): TaskValidation {
  const none = { reward: 0, passed: false, metrics: {}, violations: [], details: { checks: [] } }
  const message = e instanceof Error ? e.message : String(e)
  return {
    id: task.id,
    family: task.family,
    reference: none,
    noop: none,
    nearMisses: [],
    attacks: [],
    unexplained: [],
    ok: false,
    problems: [`validation threw: ${message}`],
  }
}

/** A task's background volume, as a weight: a heavy world costs about ten times a plain one to validate. */
const VOLUME_WEIGHT = { none: 1, light: 2, medium: 4, heavy: 10 } as const

/**
 * A rough, static estimate of a task's validation cost (world volume times apps, plus program lengths), used only
 * to hand the largest tasks out first so that no worker is left with a big one at the end while the others idle.
 */
export function costEstimate(t: TaskSpec): number {
  const volume = VOLUME_WEIGHT[t.world?.volume ?? 'none']
  const steps = t.reference.length + t.nearMisses.reduce((n, m) => n + m.program.length, 0)
  return volume * (1 + t.services.length) + steps / 10
}

/** Indices of `tasks`, largest estimated cost first (ties in input order). */
export function largestFirst(tasks: readonly TaskSpec[]): number[] {
  const cost = tasks.map(costEstimate)
  return tasks.map((_, i) => i).sort((a, b) => cost[b]! - cost[a]! || a - b)
}

/** Validates tasks one after another in one gym (the single-thread path, and each worker's loop body). */
export async function validateSerial(tasks: TaskSpec[], opts: PoolOptions = {}): Promise<TaskValidation[]> {
  const gym = createGym({ tasks, reuseWorlds: true })
  const results: TaskValidation[] = []
  let failed = 0
  try {
    for (const t of tasks) {
      let r: TaskValidation
      try {
        const { attacks, sharedPrefix, isolated } = opts
        r = await validateTask(gym, t, { attacks, sharedPrefix, isolated })
      } catch (e) {
        r = crashed(t, e)
      }
      results.push(r)
      if (!r.ok) failed++
      opts.progress?.({ done: results.length, total: tasks.length, failed, last: r })
    }
  } finally {
    gym.worlds.close()
  }
  return results
}

/** Validates tasks over `workers` threads; results in the order of `tasks`. */
export async function validatePool(tasks: TaskSpec[], opts: PoolOptions = {}): Promise<TaskValidation[]> {
  const n = Math.max(1, Math.min(opts.workers ?? defaultWorkers(), tasks.length))
  if (n === 1) return validateSerial(tasks, opts)
  const results: (TaskValidation | undefined)[] = new Array(tasks.length)
  // Handed out largest first; results are still stored by input index, so the output order does not change.
  const order = largestFirst(tasks)
  let next = 0
  let done = 0
  let failed = 0
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
  const entry = new URL(`./validate-worker.${ext}`, import.meta.url)
  // From TypeScript sources (tsx, vitest) the worker registers tsx's loader before it imports its entry.
  const boot =
    ext === 'ts'
      ? `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry.href)}) })`
      : `import(${JSON.stringify(entry.href)})`
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const { attacks, sharedPrefix, isolated } = opts
      const w = new Worker(boot, { eval: true, workerData: { attacks, sharedPrefix, isolated } })
      let current: number | undefined
      const feed = () => {
        if (next >= tasks.length) {
          current = undefined
          w.postMessage({ stop: true } satisfies WorkerRequest)
          return
        }
        current = order[next++]!
        w.postMessage({ index: current, task: tasks[current]! } satisfies WorkerRequest)
      }
      w.on('message', (m: WorkerReply) => {
        results[m.index] = m.result
        done++
        if (!m.result.ok) failed++
        opts.progress?.({ done, total: tasks.length, failed, last: m.result })
        feed()
      })
      w.on('error', (e) => {
        // A worker that dies takes its current task with it: that task is reported, the others go on elsewhere.
        if (current !== undefined && !results[current]) {
          results[current] = crashed(tasks[current]!, e)
          done++
          failed++
        }
        reject(e)
      })
      w.on('exit', () => resolve())
      feed()
    })
  const runs = Array.from({ length: n }, one)
  const settled = await Promise.allSettled(runs)
  // Tasks a dead worker never took are validated here, so every task gets a verdict.
  const left = tasks.map((t, i) => (results[i] ? undefined : { t, i })).filter((x) => x !== undefined)
  if (left.length) {
    const { attacks, sharedPrefix, isolated } = opts
    const more = await validateSerial(
      left.map((x) => x.t),
      { attacks, sharedPrefix, isolated },
    )
    left.forEach((x, j) => (results[x.i] = more[j]))
  }
  void settled
  return results as TaskValidation[]
}
