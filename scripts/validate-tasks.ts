/**
 * Validates the task corpus through the gym: for every instance the reference solution passes with reward 1 and
 * looked before it acted, the no-op agent does not pass (reward ≤ 0), every near miss fails, and every attack of the
 * library (gym/attacks/) scores < 1 (damaging ones ≤ 0). Prints a per-family table and the attack matrix.
 * Usage: npm run tasks:validate [-- --sample 2] [--family gmail-reply-po]… [--json] [--no-attacks] [--write-families]
 *        [--no-share-prefix]   (episodes do not answer the requests they repeat from the episode before:
 *        docs/decisions/0316, 0336, 0339)
 *        [--isolated]   (a fresh world identity for every episode, not one per task: docs/decisions/0322)
 *        [--results FILE]   (every task's verdicts as JSON lines, and their sha256 on stderr)
 *        [--workers N]   (worker threads; default: the available cores. Output is the same for any N.)
 * A progress bar (tasks done/total, failures, rate, ETA) goes to stderr on a terminal, plain lines otherwise.
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS_DIR, loadSample } from '../gym/corpus.ts'
import { familiesDoc } from '../tasks-lite/generate.ts'
import { attackMatrix, familyTable, type TaskValidation } from '../gym/validate.ts'
import type { TaskSpec } from '../gym/task.ts'
import { defaultWorkers, validatePool, validateSerial, type Progress } from '../gym/validate-pool.ts'

/** Picks up to `perFamily` instances of each family (all when undefined), of the named families (all when none). */
export function sampleTasks(tasks: TaskSpec[], perFamily?: number, family?: string | readonly string[]): TaskSpec[] {
  const out: TaskSpec[] = []
  const seen = new Map<string, number>()
  const only = family === undefined ? undefined : new Set(typeof family === 'string' ? [family] : family)
  for (const t of tasks) {
    if (only && only.size > 0 && !only.has(t.family)) continue
    const n = seen.get(t.family) ?? 0
    if (perFamily !== undefined && n >= perFamily) continue
    seen.set(t.family, n + 1)
    out.push(t)
  }
  return out
}

/** Validates tasks one after another in one gym. */
export async function validateAll(tasks: TaskSpec[], opts: { attacks?: boolean } = {}): Promise<TaskValidation[]> {
  return validateSerial(tasks, opts)
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal; otherwise a plain line about every 5% (and at the end).
 */
export function progressReporter(
  out: NodeJS.WriteStream = process.stderr,
  now: () => number = () => performance.now(),
) {
  const t0 = now()
  let lastPct = -1
  return (p: Progress) => {
    const s = (now() - t0) / 1000
    const rate = p.done / Math.max(s, 1e-9)
    const eta = p.done < p.total ? ` ETA ${clock((p.total - p.done) / rate)}` : ''
    const line = `${p.done}/${p.total} tasks, ${p.failed} failed, ${rate.toFixed(1)} tasks/s, ${clock(s)}${eta}`
    // A failure is named when it happens, so a long run can be acted on before it ends.
    if (!p.last.ok) out.write(`${out.isTTY ? '\r\x1b[K' : ''}invalid: ${p.last.id}: ${p.last.problems.join('; ')}\n`)
    if (out.isTTY) {
      const width = 30
      const fill = Math.round((p.done / p.total) * width)
      out.write(`\r[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${line}\x1b[K${p.done === p.total ? '\n' : ''}`)
      return
    }
    const pct = Math.floor((p.done / p.total) * 20)
    if (pct !== lastPct || p.done === p.total) {
      lastPct = pct
      out.write(`validate: ${line}\n`)
    }
  }
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60)
  const sec = Math.round(seconds % 60)
  return m ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`
}

/** What `--help` prints (the options of the header above). */
export const USAGE = `Usage: npm run tasks:validate [-- OPTIONS]  (every task of tasks-lite/ when no --sample or --family)
  --sample N          N instances of each family
  --family F          only family F (repeat, or a comma-separated list)
  --workers N         worker threads (default: the available cores; output is the same for any N)
  --json              the attack matrix and the invalid tasks as JSON on stdout
  --results FILE      every task's verdicts as JSON lines, and their sha256 on stderr
  --no-attacks        reference, no-op and near misses only
  --no-share-prefix   episodes do not answer the requests they repeat (docs/decisions/0316, 0336, 0339)
  --isolated          a fresh world identity for every episode (docs/decisions/0322)
  --write-families    also writes tasks-lite/FAMILIES.md
  --help              this text (validates nothing)`

/** The command (`npm run tasks:validate`, through scripts/validate-tasks.mjs): reads process.argv, exits. */
export async function main(): Promise<void> {
  // Any other option is ignored, so a `--help` taken for an option validated the whole corpus (~20 CPU-minutes).
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE)
    process.exit(0)
  }
  const arg = (name: string) => {
    const i = process.argv.indexOf(name)
    return i > 0 ? process.argv[i + 1] : undefined
  }
  const sample = arg('--sample')
  // `--family` may be given several times (or as a comma-separated list).
  const named = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--family' ? a.split(',') : [])).filter(Boolean)
  // Generates only the sampled instances (the same tasks, in the same order, as sampleTasks over the corpus).
  const tasks = loadSample(sample ? Number(sample) : undefined, named)
  const unknown = named.filter((f) => !tasks.some((t) => t.family === f))
  if (unknown.length) {
    console.error(`unknown famil${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.join(', ')}`)
    process.exit(2)
  }
  if (!tasks.length) {
    console.error('no tasks found: run `node --import tsx tasks-lite/generate.ts` first')
    process.exit(1)
  }
  const t0 = performance.now()
  const workers = Number(arg('--workers') ?? defaultWorkers())
  if (!Number.isInteger(workers) || workers < 1) {
    console.error('--workers takes a whole number >= 1')
    process.exit(2)
  }
  const results = await validatePool(tasks, {
    workers,
    attacks: !process.argv.includes('--no-attacks'),
    sharedPrefix: !process.argv.includes('--no-share-prefix'),
    isolated: process.argv.includes('--isolated'),
    progress: progressReporter(),
  })
  const resultsFile = arg('--results')
  if (resultsFile) {
    // Every verdict in full, one task a line in corpus order, and one digest over them: two runs (versions, worker
    // counts) validated alike exactly when their digests are equal.
    const lines = results.map((r) => JSON.stringify(r))
    writeFileSync(resultsFile, lines.map((l) => `${l}\n`).join(''))
    const digest = createHash('sha256').update(lines.join('\n')).digest('hex')
    console.error(`wrote ${results.length} results to ${resultsFile} (sha256 ${digest})`)
  }
  if (process.argv.includes('--json')) {
    const bad = results.filter((r) => !r.ok)
    console.log(
      JSON.stringify(
        { families: attackMatrix(results), invalid: bad.map((r) => ({ id: r.id, problems: r.problems })) },
        null,
        2,
      ),
    )
    process.exit(bad.length ? 1 : 0)
  }
  console.log(familyTable(results))
  console.log(`\n${matrixTable(results)}`)
  if (process.argv.includes('--write-families')) {
    writeFileSync(join(CORPUS_DIR, '..', 'FAMILIES.md'), familiesDoc(results))
    console.log('\nwrote tasks-lite/FAMILIES.md')
  }
  const bad = results.filter((r) => !r.ok)
  for (const r of bad) console.log(`\n${r.id}:\n  ${r.problems.join('\n  ')}`)
  const pending = results.filter((r) => r.pending).length
  if (pending) console.log(`\n${pending} instances pending (their service methods are not implemented yet)`)
  const secs = (performance.now() - t0) / 1000
  const rate = (results.length / secs).toFixed(1)
  const runnable = results.length - pending
  console.log(
    `\n${runnable - bad.length}/${runnable} runnable instances valid in ${secs.toFixed(1)} s` +
      ` (${rate} tasks/s, ${workers} workers)`,
  )
  process.exit(bad.length ? 1 : 0)
}

if (process.argv[1]?.endsWith('validate-tasks.ts')) await main()

/**
 * The attack matrix as text: one row per family, one column per attack: the highest reward any instance gave it
 * ("-": not applicable; "=ref(r)": every variant left the world exactly as the reference does; r: their best reward).
 */
export function matrixTable(results: TaskValidation[]): string {
  const m = attackMatrix(results)
  const ids = [...new Set(m.flatMap((f) => Object.keys(f.attacks)))]
  const head = ['family', 'valid', ...ids]
  const cell = (a: ReturnType<typeof attackMatrix>[number]['attacks'][string] | undefined) =>
    !a ? '-' : a.max === null ? `=ref(${a.inertMax})` : String(a.max)
  const rows = m.map((f) => [f.family, `${f.valid}/${f.instances}`, ...ids.map((id) => cell(f.attacks[id]))])
  const all = [head, ...rows]
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  return all.map((r) => r.map((x, i) => x.padEnd(w[i]!)).join('  ')).join('\n')
}
