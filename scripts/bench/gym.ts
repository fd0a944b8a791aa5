import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { startServer } from '../../server/main.ts'
import { loadRouters } from '../../server/routers.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'
import { timeIt, type BenchFigure } from './types.ts'

const task = TaskSpec.parse(gmailReplyPo.generate(1))
const list = {
  tool: 'http_request',
  arguments: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { maxResults: 5 } },
}
const profile = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }

/** Gym: in-process episode cost, memory per live episode, and the HTTP gym under 64 concurrent episodes. */
export async function run(): Promise<BenchFigure[]> {
  await loadRouters() // typed tools read the routes, which are imported on first use
  const gym = createGym({ tasks: [task] })
  const episodeOn = (g: typeof gym) =>
    timeIt(
      async () => {
        const ep = g.reset(task)
        for (let i = 0; i < 10; i++) await ep.step(i % 2 ? profile : list)
        ep.verify()
        ep.close()
      },
      100,
      10,
    )
  const episode = await episodeOn(gym)
  // The same on a connection of its own per episode (opened from the template's bytes; docs/decisions/0450).
  const own = createGym({ tasks: [task], freshWorlds: true })
  const ownEpisode = await episodeOn(own)
  own.worlds.close()
  gym.worlds.close()
  // Memory per live episode, each mode in a process of its own: in this one, what the timing loops freed (or the
  // pool keeps) would be reused and hide the growth (docs/decisions/0450).
  const [guardedKiB, freshKiB] = [await memoryChild('guarded'), await memoryChild('fresh')]

  // HTTP: 64 scripted agents at once, each reset + 10 steps + verify + close.
  const server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: 'bench', worlds: [] })
  const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' }
  const post = async (path: string, body?: unknown) =>
    (
      await fetch(`${server.controlUrl}${path}`, {
        method: 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json() as Promise<Record<string, unknown>>
  const stepTimes: number[] = []
  const agent = async () => {
    const ep = await post('/gym/reset', { task })
    for (let i = 0; i < 10; i++) {
      const t = performance.now()
      await post(`/gym/episodes/${ep.episodeId}/step`, i % 2 ? profile : list)
      stepTimes.push(performance.now() - t)
    }
    await post(`/gym/episodes/${ep.episodeId}/verify`)
    await fetch(`${server.controlUrl}/gym/episodes/${ep.episodeId}`, { method: 'DELETE', headers })
  }
  const episodes = 128
  const t0 = performance.now()
  for (let done = 0; done < episodes; done += 64) await Promise.all(Array.from({ length: 64 }, agent))
  const seconds = (performance.now() - t0) / 1000
  await server.close()
  stepTimes.sort((a, b) => a - b)
  const p99 = stepTimes[Math.floor(stepTimes.length * 0.99)] ?? 0

  return [
    { name: 'gym in-process reset + 10 steps + verify p50', value: episode.p50, unit: 'ms', target: '≤ 10 ms' },
    { name: 'gym in-process reset + 10 steps + verify p99', value: episode.p99, unit: 'ms' },
    { name: 'gym in-process episode p50, a connection of its own each', value: ownEpisode.p50, unit: 'ms' },
    { name: 'gym memory per live episode (RSS, fresh process)', value: guardedKiB, unit: 'KiB' },
    { name: 'gym memory per live episode, a connection of its own each', value: freshKiB, unit: 'KiB' },
    { name: 'gym HTTP 64 concurrent episodes: episodes/s', value: episodes / seconds, unit: 'ep/s' },
    { name: 'gym HTTP 64 concurrent episodes: step p99', value: p99, unit: 'ms' },
  ]
}

const LIVE = 250 // under the live-episode limit (256)

/** This file run in a new process (`--memory-child MODE`): the RSS growth (KiB) per live episode in that mode. */
function memoryChild(mode: 'guarded' | 'fresh'): Promise<number> {
  const args = ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--memory-child', mode]
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: process.env }, (err, stdout) =>
      err ? reject(err) : resolve(Number(/^kib (\S+)$/m.exec(stdout)?.[1])),
    )
  })
}

/** One episode first (code loaded, statements compiled), then LIVE live episodes at once: RSS growth per episode. */
async function measureMemory(mode: string) {
  await loadRouters()
  const gym = createGym({ tasks: [task], freshWorlds: mode === 'fresh' })
  const first = gym.reset(task)
  await first.step(list)
  first.verify()
  first.close()
  globalThis.gc?.()
  const before = process.memoryUsage().rss
  const live = Array.from({ length: LIVE }, () => gym.reset(task))
  globalThis.gc?.()
  console.log(`kib ${(process.memoryUsage().rss - before) / live.length / 1024}`)
  for (const ep of live) ep.close()
  gym.worlds.close()
}

const child = process.argv.indexOf('--memory-child')
if (child > 0) await measureMemory(process.argv[child + 1]!)
else if (process.argv[1]?.endsWith('gym.ts')) console.table(await run())
