// Start-up of the command as shipped: `wsgym serve` (dist/ when built and current) spawned with the allocator's
// variables set (as the launcher would), timed from the spawn to the first `/healthz` 200 on its agent port, and its
// resident memory once the default world is served (read from /proc; Linux only). Median of a few starts.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BenchFigure } from './types.ts'

const root = join(import.meta.dirname, '..', '..')
const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: String(1 << 30), MALLOC_TRIM_THRESHOLD_: String(2 ** 31) }
const STARTS = 5

/** One start: ms to the first /healthz 200, RSS (MiB) then, and whether it ran the sources through tsx. */
async function start(): Promise<{ readyMs: number; rssMiB: number; tsx: boolean }> {
  const t0 = performance.now()
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0'],
    { cwd: root, env: { ...process.env, ...MALLOC_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<never>((_, reject) =>
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`))),
  )
  try {
    let agent: string | undefined
    while (!(agent = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1])) await Promise.race([pause(2), exited])
    for (;;) {
      const ok = await fetch(`${agent}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) break
      await Promise.race([pause(2), exited])
    }
    const readyMs = performance.now() - t0
    if (!existsSync(`/proc/${child.pid}/status`)) return { readyMs, rssMiB: NaN, tsx: /through tsx/.test(out) }
    const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1])
    return { readyMs, rssMiB: kib / 1024, tsx: /through tsx/.test(out) }
  } finally {
    child.kill('SIGTERM')
    await exited.catch(() => {})
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
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
