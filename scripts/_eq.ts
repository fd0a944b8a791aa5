import { createGym } from '../gym/index.ts'
import { Episode } from '../gym/episode.ts'
import { validateTask } from '../gym/validate.ts'
import { loadCorpus } from '../gym/corpus.ts'
import { worldState } from '../server/state.ts'
import { sampleTasks } from './validate-tasks.ts'
const tasks = sampleTasks(loadCorpus(), Number(process.argv[2] ?? 1))
const gym = createGym({ tasks, reuseWorlds: true })
const orig = Episode.prototype.verify
let n = 0, bad = 0, reused = 0, total = 0, held = 0
Episode.prototype.verify = function (this: Episode) {
  const r = orig.call(this)
  const full = worldState(this.entry.world)
  n++; if (this.entry.world.held) held++
  for (const [k, v] of Object.entries(this.lastVerified!.final.services)) { total++; if (v === this.initial.services[k]) reused++ }
  if (JSON.stringify(full) !== JSON.stringify(this.lastVerified!.final)) { bad++; console.log('MISMATCH', this.task.id) }
  return r
}
for (const t of tasks) await validateTask(gym, t)
console.log({ episodes: n, held, bad, reusedServiceDumps: reused, serviceDumps: total })
gym.worlds.close()
