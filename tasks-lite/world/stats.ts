/**
 * Build time and snapshot size per volume, over one instance of each family:
 * `node --import tsx tasks-lite/world/stats.ts [--seed 1]`. Prints a Markdown table (docs/decisions/0120).
 */
import { TaskSpec } from '../../gym/task.ts'
import { buildWorld } from '../../server/seeding.ts'
import { families } from '../families/index.ts'
import { taskWorldSeed } from './index.ts'
import type { Volume } from './context.ts'

export function worldStats(seed = 1, volumes: Volume[] = ['none', 'light', 'medium', 'heavy']) {
  return volumes.map((volume) => {
    let ms = 0,
      bytes = 0,
      mails = 0,
      events = 0,
      files = 0,
      messages = 0,
      n = 0
    for (const f of families) {
      const t = TaskSpec.parse({ ...f.generate(seed), world: { volume } })
      const t0 = performance.now()
      const doc = taskWorldSeed(t) as Record<string, any>
      const w = buildWorld(doc, t.seedValue)
      const snap = w.snapshot()
      ms += performance.now() - t0
      bytes += snap.bytes.length
      w.close()
      mails += doc.gmail?.messages?.length ?? 0
      events += doc.calendar?.events?.length ?? 0
      files += (doc.drive?.files?.length ?? 0) + (doc.docs?.documents?.length ?? 0)
      messages += doc.slack?.messages?.length ?? 0
      n++
    }
    const avg = (x: number) => Math.round(x / n)
    return {
      volume,
      families: n,
      buildMs: avg(ms),
      snapshotKiB: avg(bytes / 1024),
      mails: avg(mails),
      events: avg(events),
      files: avg(files),
      slackMessages: avg(messages),
    }
  })
}

if (process.argv[1]?.endsWith('stats.ts')) {
  const i = process.argv.indexOf('--seed')
  const rows = worldStats(i > 0 ? Number(process.argv[i + 1]) : 1)
  console.log('| volume | build ms (mean per task) | snapshot KiB | mails | events | files+docs | Slack messages |')
  console.log('|---|---|---|---|---|---|---|')
  for (const r of rows)
    console.log(
      `| ${r.volume} | ${r.buildMs} | ${r.snapshotKiB} | ${r.mails} | ${r.events} | ${r.files} | ${r.slackMessages} |`,
    )
}
