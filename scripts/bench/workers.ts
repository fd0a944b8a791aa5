import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { BenchFigure } from './types.ts'

const root = join(import.meta.dirname, '..', '..')
const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' }
const profile = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }

/** Gym episodes per second over HTTP with 32 concurrent clients, `wsgym serve --workers N` for N = 1 and 2. */
export async function run(): Promise<BenchFigure[]> {
  const rate: Record<number, number> = {}
  for (const workers of [1, 2]) rate[workers] = await episodesPerSecond(workers)
  return [
    { name: 'gym episodes/s over HTTP, 1 worker (reset, 5 steps, verify, delete)', value: rate[1]!, unit: '/s' },
    { name: 'gym episodes/s over HTTP, 2 workers', value: rate[2]!, unit: '/s' },
    { name: 'gym episodes/s scaling, 2 workers ÷ 1', value: rate[2]! / rate[1]!, unit: '×', target: '≥ 1.7' },
  ]
}

async function episodesPerSecond(workers: number): Promise<number> {
  const args = ['serve', '--workers', String(workers), '--port', '0', '--control-port', '0']
  const child = spawn(process.execPath, [join(root, 'bin', 'wsgym.mjs'), ...args], { cwd: root })
  try {
    const control = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const url = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
        if (url && /users:/.test(out)) resolve(url)
      })
      child.on('exit', (code) => reject(new Error(`wsgym exited ${code}: ${out}`)))
    })
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${control}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) })
      return res.json() as Promise<Record<string, unknown>>
    }
    const tasks = (await (await fetch(`${control}/gym/tasks`, { headers: admin })).json()) as { tasks: { id: string }[] }
    const taskId = tasks.tasks[0]!.id
    const episode = async () => {
      const { episodeId } = (await post('/gym/reset', { taskId })) as { episodeId: string }
      for (let i = 0; i < 5; i++) await post(`/gym/episodes/${episodeId}/step`, profile)
      await post(`/gym/episodes/${episodeId}/verify`, {})
      await fetch(`${control}/gym/episodes/${episodeId}`, { method: 'DELETE', headers: admin })
    }
    const run = async (ms: number) => {
      let done = 0
      const until = performance.now() + ms
      await Promise.all(Array.from({ length: 32 }, async () => {
        while (performance.now() < until) {
          await episode()
          done++
        }
      }))
      return done / (ms / 1000)
    }
    await run(2000)
    return await run(8000)
  } finally {
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}
