/**
 * Validates families in memory at a forced volume (no corpus on disk needed): reference 1, no-op and near misses
 * fail, attacks < 1. For authors checking that the haystack does not break their references or oracles.
 * Usage: `node --import tsx tasks-lite/world/check.ts --family gmail-reply-po [--volume heavy] [--seeds 1-4]
 * [--no-attacks]`; without --volume each seed keeps the volume its family gives it.
 */
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { validateTask } from '../../gym/validate.ts'
import { families } from '../families/index.ts'
import type { Volume } from './context.ts'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
const want = arg('--family')
const volume = arg('--volume') as Volume | undefined
const [lo, hi] = (arg('--seeds') ?? '1-8').split('-').map(Number)
const chosen = families.filter((f) => !want || want.split(',').includes(f.id))
if (!chosen.length) throw new Error(`no family ${want}`)
let bad = 0
for (const f of chosen) {
  const tasks = Array.from({ length: (hi ?? lo!) - lo! + 1 }, (_, i) => {
    const t = f.generate(lo! + i)
    return TaskSpec.parse(volume ? { ...t, world: { volume } } : t)
  })
  const gym = createGym({ tasks })
  for (const t of tasks) {
    const t0 = performance.now()
    const v = await validateTask(gym, t, { attacks: !process.argv.includes('--no-attacks') })
    const ms = Math.round(performance.now() - t0)
    if (!v.ok) bad++
    console.log(
      `${v.ok ? 'ok  ' : 'FAIL'} ${t.id} [${t.world?.volume ?? 'none'}] ${ms} ms` +
        (v.ok ? '' : `\n  ${v.problems.join('\n  ')}`),
    )
  }
  gym.worlds.close()
}
process.exit(bad ? 1 : 0)
