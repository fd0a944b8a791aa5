import { spawn, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import type { BenchFigure } from './types.ts'

const root = join(import.meta.dirname, '..', '..')
const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' }
const profile = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }

type Rate = { perSecond: number; serverMsPerEpisode: number; frontUsPerRequest: number }

/**
 * Gym episodes per second over HTTP with 32 concurrent clients, `wsgym serve --workers N` for N = 1 and 2, and the
 * CPU each process spent on them (from /proc). On this 2-core machine the load generator shares the cores, so the
 * scaling ratio is bounded by 2S / (S + C + F) (S server, C client, F front CPU per episode): the CPU figures say
 * how far each part is from that bound.
 */
export async function run(): Promise<BenchFigure[]> {
  const rate: Record<number, Rate> = {}
  for (const workers of [1, 2]) rate[workers] = await episodesPerSecond(workers)
  const [one, two] = [rate[1]!, rate[2]!]
  const scaling = two.perSecond / one.perSecond
  return [
    { name: 'gym episodes/s over HTTP, 1 worker (reset, 5 steps, verify, delete)', value: one.perSecond, unit: '/s' },
    { name: 'gym episodes/s over HTTP, 2 workers', value: two.perSecond, unit: '/s' },
    { name: 'gym episodes/s scaling, 2 workers ÷ 1', value: scaling, unit: '×', target: '≥ 1.7' },
    { name: 'server CPU per episode, 1 worker', value: one.serverMsPerEpisode, unit: 'ms' },
    { name: 'server CPU per episode, 2 workers (workers + front)', value: two.serverMsPerEpisode, unit: 'ms' },
    { name: 'front CPU per request, 2 workers', value: two.frontUsPerRequest, unit: 'µs' },
  ]
}

/** CPU milliseconds a process has used (utime + stime from /proc/<pid>/stat). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** The process and its descendants, parents first. */
function tree(pid: number): number[] {
  let kids: number[] = []
  try {
    const listed = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)]).toString()
    kids = listed.trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    // no children
  }
  return [pid, ...kids.flatMap(tree)]
}

async function episodesPerSecond(workers: number): Promise<Rate> {
  const args = ['serve', '--workers', String(workers), '--port', '0', '--control-port', '0']
  const child = spawn(process.execPath, [join(root, 'bin', 'wsgym.mjs'), ...args], { cwd: root })
  const agent = new Agent({ keepAlive: true, maxSockets: 32 })
  try {
    const control = new URL(await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const url = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
        if (url && /users:/.test(out)) resolve(url)
      })
      child.on('exit', (code) => reject(new Error(`wsgym exited ${code}: ${out}`)))
    }))
    // A keep-alive node:http client: the load generator shares the cores, so it should cost as little as it can.
    type Json = Record<string, unknown>
    const call = (method: string, path: string, body?: unknown) =>
      new Promise<Json>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body)
        const headers = { ...admin, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) }
        const req = request({ host: control.hostname, port: control.port, method, path, headers, agent }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve(chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Json) : {}))
        })
        req.on('error', reject)
        req.end(payload)
      })
    const tasks = (await call('GET', '/gym/tasks')) as { tasks: { id: string }[] }
    const taskId = tasks.tasks[0]!.id
    const episode = async () => {
      const { episodeId } = (await call('POST', '/gym/reset', { taskId })) as { episodeId: string }
      for (let i = 0; i < 5; i++) await call('POST', `/gym/episodes/${episodeId}/step`, profile)
      await call('POST', `/gym/episodes/${episodeId}/verify`, {})
      await call('DELETE', `/gym/episodes/${episodeId}`)
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
      return done
    }
    await run(3000) // every worker builds the task's template once
    // `npm run bench` sets the allocator's variables, so the launcher does not re-execute itself: the child is the
    // server (one worker) or the front, whose children are the workers.
    const pids = tree(child.pid!)
    const before = pids.map(cpuMs)
    const done = await run(8000)
    const used = pids.map((p, i) => cpuMs(p) - before[i]!)
    const server = used.reduce((a, b) => a + b, 0)
    const front = workers > 1 ? used[0]! : 0
    return { perSecond: done / 8, serverMsPerEpisode: server / done, frontUsPerRequest: (front * 1000) / (done * 8) }
  } finally {
    agent.destroy()
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}
