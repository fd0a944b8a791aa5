/**
 * Validates the task corpus through the gym: for every instance the reference solution passes with reward 1,
 * the no-op agent does not pass (reward ≤ 0), and every near miss fails. Prints a per-family table.
 * Usage: npm run tasks:validate [-- --sample 2] [--family gmail-reply-po]
 */
import { createGym } from '../gym/index.ts'
import { loadCorpus } from '../gym/corpus.ts'
import { familyTable, validateTask, type TaskValidation } from '../gym/validate.ts'
import type { TaskSpec } from '../gym/task.ts'

/** Picks up to `perFamily` instances of each family (all when undefined). */
export function sampleTasks(tasks: TaskSpec[], perFamily?: number, family?: string): TaskSpec[] {
  const out: TaskSpec[] = []
  const seen = new Map<string, number>()
  for (const t of tasks) {
    if (family && t.family !== family) continue
    const n = seen.get(t.family) ?? 0
    if (perFamily !== undefined && n >= perFamily) continue
    seen.set(t.family, n + 1)
    out.push(t)
  }
  return out
}

/** Validates tasks one after another in one gym. */
export async function validateAll(tasks: TaskSpec[]): Promise<TaskValidation[]> {
  const gym = createGym({ tasks })
  const results: TaskValidation[] = []
  for (const t of tasks) results.push(await validateTask(gym, t))
  gym.worlds.close()
  return results
}

if (process.argv[1]?.endsWith('validate-tasks.ts')) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name)
    return i > 0 ? process.argv[i + 1] : undefined
  }
  const sample = arg('--sample')
  const tasks = sampleTasks(loadCorpus(), sample ? Number(sample) : undefined, arg('--family'))
  if (!tasks.length) {
    console.error('no tasks found: run `node --import tsx tasks-lite/generate.ts` first')
    process.exit(1)
  }
  const t0 = performance.now()
  const results = await validateAll(tasks)
  console.log(familyTable(results))
  const bad = results.filter((r) => !r.ok)
  for (const r of bad) console.log(`\n${r.id}:\n  ${r.problems.join('\n  ')}`)
  const pending = results.filter((r) => r.pending).length
  if (pending) console.log(`\n${pending} instances pending (their service methods are not implemented yet)`)
  console.log(`\n${results.length - bad.length - pending}/${results.length - pending} runnable instances valid in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  process.exit(bad.length ? 1 : 0)
}
