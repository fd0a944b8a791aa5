import Database from 'better-sqlite3'
import { createGym } from '../gym/index.ts'
import { loadSample } from '../gym/corpus.ts'
import { validateTask } from '../gym/validate.ts'
const probe = new Database(':memory:')
const SP = Object.getPrototypeOf(probe.prepare('select 1'))
const acc: Record<string, number[]> = {}
for (const m of ['run', 'get', 'all']) {
  const f = SP[m]
  SP[m] = function (this: any, ...a: unknown[]) {
    const t = process.hrtime.bigint()
    try { return f.apply(this, a) } finally {
      const k = String(this.source).replace(/\s+/g, ' ').slice(0, 140)
      ;(acc[k] ??= []).push(Number(process.hrtime.bigint() - t))
    }
  }
}
const tasks = loadSample(2, [])
const gym = createGym({ tasks, reuseWorlds: true })
for (const t of tasks.slice(0, 20)) await validateTask(gym, t, {})
for (const k of Object.keys(acc)) acc[k] = []
for (const t of tasks) await validateTask(gym, t, {})
for (const [k, a] of Object.entries(acc).sort((x, y) => y[1].reduce((p, q) => p + q, 0) - x[1].reduce((p, q) => p + q, 0)).slice(0, 30)) {
  a.sort((x, y) => x - y); const s = a.reduce((x, y) => x + y, 0)
  console.log(`n=${a.length} p50=${a[a.length >> 1]} p90=${a[Math.floor(a.length * 0.9)]} sum_ms=${(s / 1e6).toFixed(0)}`, k)
}
