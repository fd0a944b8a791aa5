// npm run bench — prints performance figures (never asserted in tests). Compare ratios within one run.
// Usage: npm run bench [-- --only core,gmail] [-- --worlds 1000]
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { request as httpRequest, Agent } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { World } from '../envs/core/world.ts'
import { WorldManager } from '../server/worlds.ts'
import { createAgentApp } from '../server/app.ts'
import { timeIt, type BenchFigure } from './bench/types.ts'

const args = process.argv.slice(2)
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : undefined
const worldCount = args.includes('--worlds') ? Number(args[args.indexOf('--worlds') + 1]) : 1000
const want = (name: string) => !only || only.includes(name)

const mb = (n: number) => n / (1024 * 1024)
const print = (section: string, figures: BenchFigure[]) => {
  console.log(`\n## ${section}`)
  for (const f of figures) {
    const value = f.value >= 100 ? f.value.toFixed(0) : f.value.toFixed(2)
    console.log(`  ${f.name.padEnd(58)} ${value.padStart(10)} ${f.unit.padEnd(8)} ${f.target ? `target ${f.target}` : ''}`)
  }
}

async function core(): Promise<BenchFigure[]> {
  const out: BenchFigure[] = []
  // Memory: many idle demo worlds in one process.
  global.gc?.()
  const many = new WorldManager()
  many.template('demo', 1)
  const afterTemplate = process.memoryUsage().rss
  for (let i = 0; i < worldCount; i++) many.create({ seed: 'demo', seedValue: 1 })
  global.gc?.()
  const rss = process.memoryUsage().rss
  out.push({ name: `RSS per idle demo world (${worldCount} worlds)`, value: mb(rss - afterTemplate) / worldCount, unit: 'MiB' })
  out.push({ name: `RSS with ${worldCount} demo worlds (process total)`, value: mb(rss), unit: 'MiB', target: worldCount === 1000 ? '≤ 3072 MiB' : undefined })
  many.close()

  const worlds = new WorldManager()
  for (const seed of ['demo', 'large']) {
    const t = performance.now()
    const template = worlds.template(seed, 1)
    out.push({ name: `${seed}: build template (seed once)`, value: performance.now() - t, unit: 'ms' })
    out.push({ name: `${seed}: world size`, value: mb(template.bytes.length), unit: 'MiB' })
    const world = World.from(template)
    const restore = await timeIt(() => world.restore(template), seed === 'large' ? 100 : 300)
    const target = seed === 'large' ? { p50: '≤ 5 ms', p99: '≤ 20 ms' } : { p50: undefined, p99: undefined }
    out.push({ name: `${seed}: restore from template p50`, value: restore.p50, unit: 'ms', target: target.p50 })
    out.push({ name: `${seed}: restore from template p99`, value: restore.p99, unit: 'ms', target: target.p99 })
    const snap = await timeIt(() => world.snapshot(), 100)
    out.push({ name: `${seed}: snapshot p50`, value: snap.p50, unit: 'ms' })
    const fork = await timeIt(() => world.fork().close(), 100)
    out.push({ name: `${seed}: fork p50`, value: fork.p50, unit: 'ms' })
    world.close()
  }

  // Throughput: a simple authenticated GET, in process and over loopback HTTP.
  const serverWorlds = new WorldManager()
  const entry = serverWorlds.create({ id: 'bench', seed: 'demo' })
  const app = createAgentApp(serverWorlds)
  const token = serverWorlds.credentials(entry.id)[0]!.googleToken!
  const headers = { authorization: `Bearer ${token}` }
  const n = 5000
  let t = performance.now()
  for (let i = 0; i < n; i++) await (await app.request('/gmail/v1/users/me/profile?prettyPrint=false', { headers })).text()
  out.push({ name: 'authenticated GET getProfile, in process', value: n / ((performance.now() - t) / 1000), unit: 'req/s', target: '≥ 5000' })

  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  const port = (server.address() as AddressInfo).port
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/gmail/v1/users/me/profile?prettyPrint=false', headers, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve())
      })
      req.on('error', reject)
      req.end()
    })
  t = performance.now()
  let sent = 0
  await Promise.all(Array.from({ length: 16 }, async () => { while (sent++ < n) await get() }))
  out.push({ name: 'authenticated GET getProfile, loopback HTTP (16 conns)', value: n / ((performance.now() - t) / 1000), unit: 'req/s', target: '≥ 5000' })
  agent.destroy()
  server.close()
  serverWorlds.close()
  return out
}

if (want('core')) print('core: worlds, snapshots, memory, throughput', await core())

// Each service (and the gym) may add scripts/bench/<name>.ts exporting run(): Promise<BenchFigure[]>.
for (const name of ['gmail', 'gmail-scale', 'calendar', 'calendar-scale', 'drive', 'drive-scale', 'docs', 'slack', 'gym']) {
  const file = join(import.meta.dirname, 'bench', `${name}.ts`)
  if (!want(name) || !existsSync(file)) continue
  const mod = (await import(pathToFileURL(file).href)) as { run?: () => Promise<BenchFigure[]> }
  if (mod.run) print(name, await mod.run())
}
