/**
 * Held-out evaluation: every task of a split through the HTTP gym with a model server, k samples each, reported per
 * family and overall (success, pass@k, mean reward, unsafe-action rate, steps), for one model or a base model and its
 * adapters (vLLM serves LoRA adapters under their own model names with `--lora-modules name=path`).
 */
import { collectRollouts } from './rollout.ts'
import type { ChatOptions, GymClient } from './http.ts'
import type { PublicTask, RolloutRecord } from './types.ts'
import { taskSplit, type Split } from './split.ts'

export { SPLITS, taskSplit, type Split } from './split.ts'

/**
 * Unbiased pass@k from n samples of which c passed (Chen et al. 2021): 1 − C(n−c, k) / C(n, k), computed as a
 * product so it stays exact for small n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new Error(`pass@${k} needs at least ${k} samples per task (got ${n})`)
  if (n - c < k) return 1
  let miss = 1
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i
  return 1 - miss
}

export type EvalFigures = {
  group: string
  tasks: number
  episodes: number
  /** Mean of `verdict.passed` over episodes (pass@1). */
  success: number
  /** Mean over tasks of the unbiased pass@k. */
  passAtK: number
  meanReward: number
  /** Episodes whose verdict lists a safety violation, over episodes. */
  unsafeRate: number
  meanSteps: number
  /** Episodes without a verdict (model or gym failure before verify). */
  errors: number
}

export type EvalReport = {
  model: string
  split: Split
  k: number
  samples: number
  families: EvalFigures[]
  overall: EvalFigures
}

/** Figures for a set of episodes (k samples per task, grouped by task id). */
export function figures(group: string, records: RolloutRecord[], k: number): EvalFigures {
  const byTask = new Map<string, RolloutRecord[]>()
  for (const r of records) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r])
  const n = records.length || 1
  const tasks = [...byTask.values()]
  return {
    group,
    tasks: tasks.length,
    episodes: records.length,
    success: records.filter((r) => r.verdict?.passed).length / n,
    passAtK: tasks.length
      ? tasks.reduce((s, rs) => s + passAtK(rs.length, rs.filter((r) => r.verdict?.passed).length, k), 0) / tasks.length
      : 0,
    meanReward: records.reduce((s, r) => s + (r.verdict?.reward ?? 0), 0) / n,
    unsafeRate: records.filter((r) => (r.verdict?.violations.length ?? 0) > 0).length / n,
    meanSteps: records.reduce((s, r) => s + r.steps, 0) / n,
    errors: records.filter((r) => !r.verdict).length,
  }
}

export function report(model: string, split: Split, k: number, samples: number, records: RolloutRecord[]): EvalReport {
  const fams = [...new Set(records.map((r) => r.family))].sort()
  const families = fams.map((f) =>
    figures(
      f,
      records.filter((r) => r.family === f),
      k,
    ),
  )
  return { model, split, k, samples, families, overall: figures('all', records, k) }
}

export type EvalOptions = {
  gym: GymClient
  chat: ChatOptions
  split: Split
  /** pass@k's k (default 1). */
  k?: number
  /** Samples per task (default k; more gives a lower-variance pass@k). */
  samples?: number
  families?: string[]
  concurrency?: number
  systemPrompt?: string
  onRecord?: (r: RolloutRecord, done: number, total: number) => void | Promise<void>
}

/** The tasks of a split, in the gym's order. */
export async function splitTasks(gym: GymClient, split: Split, families: string[] = []): Promise<PublicTask[]> {
  return (await gym.tasks()).filter((t) => taskSplit(t) === split && (!families.length || families.includes(t.family)))
}

/** Runs one model over a split; returns its report and the episodes. */
export async function evaluate(opts: EvalOptions): Promise<{ report: EvalReport; records: RolloutRecord[] }> {
  const k = opts.k ?? 1
  const samples = opts.samples ?? k
  if (samples < k) throw new Error(`--samples (${samples}) must be at least --k (${k})`)
  const tasks = await splitTasks(opts.gym, opts.split, opts.families)
  const of = opts.families?.length ? ` of ${opts.families.join(', ')}` : ''
  if (!tasks.length) throw new Error(`no task in the ${opts.split} split${of}`)
  let done = 0
  const records = await collectRollouts({
    gym: opts.gym,
    chat: opts.chat,
    tasks,
    samples,
    concurrency: opts.concurrency,
    systemPrompt: opts.systemPrompt,
    onRecord: (r) => opts.onRecord?.(r, ++done, tasks.length * samples),
  })
  return { report: report(opts.chat.model, opts.split, k, samples, records), records }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`

/** Reports as one table: a block of rows per model, and a delta block against the first (base) model. */
export function formatReports(reports: EvalReport[]): string {
  const k = reports[0]?.k ?? 1
  const head = ['model', 'family', 'tasks', 'episodes', 'success', `pass@${k}`, 'reward', 'unsafe', 'steps', 'errors']
  const rows: string[][] = []
  for (const r of reports) {
    for (const f of [...r.families, r.overall]) {
      rows.push([
        r.model,
        f.group,
        String(f.tasks),
        String(f.episodes),
        pct(f.success),
        pct(f.passAtK),
        f.meanReward.toFixed(3),
        pct(f.unsafeRate),
        f.meanSteps.toFixed(1),
        String(f.errors),
      ])
    }
  }
  const base = reports[0]
  for (const r of reports.slice(1)) {
    if (!base) break
    const d = (a: number, b: number, p = true) =>
      `${a - b >= 0 ? '+' : ''}${p ? (100 * (a - b)).toFixed(1) + ' pt' : (a - b).toFixed(3)}`
    const o = r.overall
    const b = base.overall
    rows.push([
      `${r.model} − ${base.model}`,
      'all',
      '',
      '',
      d(o.success, b.success),
      d(o.passAtK, b.passAtK),
      d(o.meanReward, b.meanReward, false),
      d(o.unsafeRate, b.unsafeRate),
      (o.meanSteps - b.meanSteps).toFixed(1),
      '',
    ])
  }
  const all = [head, ...rows]
  const w = head.map((_, i) => Math.max(...all.map((x) => x[i]!.length)))
  const line = (x: string[]) => x.map((c, i) => (i < 2 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n')
}

/** A one-line progress bar (`[#####.....] 12/40 label`). */
export function progressBar(done: number, total: number, label = '', width = 30): string {
  const filled = total ? Math.round((width * done) / total) : width
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${label ? ` ${label}` : ''}`
}
