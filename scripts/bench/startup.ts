// Start-up of the command as shipped: `wsgym serve` (dist/ when built and current) spawned with the allocator's
// variables set (as the launcher would), timed from the spawn to the first `/healthz` 200 on its agent port, and its
// resident memory once the default world is served (read from /proc; Linux only). Median of a few starts.
import { existsSync, readFileSync } from 'node:fs'
import type { BenchFigure } from './types.ts'
import { spawnServe } from './serve.ts'

const STARTS = 5

/** One start: ms to the first /healthz 200, RSS (MiB) then, and whether it ran the sources through tsx. */
async function start(): Promise<{ readyMs: number; rssMiB: number; tsx: boolean }> {
  const t0 = performance.now()
  const served = spawnServe()
  try {
    await served.ready()
    const readyMs = performance.now() - t0
    const tsx = /through tsx/.test(served.output())
    const pid = served.child.pid
    if (!existsSync(`/proc/${pid}/status`)) return { readyMs, rssMiB: NaN, tsx }
    const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
    return { readyMs, rssMiB: kib / 1024, tsx }
  } finally {
    await served.stop()
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function run(): Promise<BenchFigure[]> {
  const runs = []
  for (let i = 0; i < STARTS; i++) runs.push(await start())
  if (runs.some((r) => r.tsx)) console.log('(wsgym ran its sources through tsx: `npm run build` to bench dist/)')
  return [
    {
      name: `wsgym serve ready (spawn to /healthz 200, median of ${STARTS})`,
      value: median(runs.map((r) => r.readyMs)),
      unit: 'ms',
      target: '≤ 1000',
    },
    {
      name: 'wsgym serve RSS once ready (demo world, no request yet)',
      value: median(runs.map((r) => r.rssMiB)),
      unit: 'MiB',
    },
  ]
}
