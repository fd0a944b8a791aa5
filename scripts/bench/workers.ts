import { spawn, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BenchFigure } from './types.ts'
import { RawHttp } from './raw-http.ts'

const root = join(import.meta.dirname, '..', '..')
const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' }
const profile = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }

type Rate = { perSecond: number; serverMsPerEpisode: number; frontUsPerRequest: number; clientMsPerEpisode: number }
/** How the 32 clients use connections: one each (a rollout worker's own client), or any free one of a pool. */
type Mode = 'own' | 'pooled'

/**
 * Gym episodes per second over HTTP with 32 concurrent clients, `wsgym serve --workers N` for N = 1 and 2, and the
 * CPU each process spent on them (from /proc). On this 2-core machine the load generator shares the cores, so the
 * scaling ratio is bounded by 2S / (S + C + F) (S server, C client, F front CPU per episode): the CPU figures say
 * how far each part is from that bound. The clients write raw HTTP/1.1 (scripts/bench/raw-http.ts) to keep C
 * small. With one connection per client, the front hands each connection to a worker once and every request of
 * the episodes reset on it is served there (docs/decisions/0332); with a shared pool, requests land on connections
 * held by the other worker and are relayed.
 */
export async function run(): Promise<BenchFigure[]> {
  const out: BenchFigure[] = []
  for (const mode of ['own', 'pooled'] as const) {
    const rate: Record<number, Rate> = {}
    for (const workers of [1, 2]) rate[workers] = await episodesPerSecond(workers, mode)
    const [one, two] = [rate[1]!, rate[2]!]
    const how = mode === 'own' ? 'a connection per client' : 'a shared pool of connections'
    out.push(
      {
        name: `gym episodes/s over HTTP, 1 worker (reset, 5 steps, verify, delete; ${how})`,
        value: one.perSecond,
        unit: '/s',
      },
      { name: `gym episodes/s over HTTP, 2 workers (${how})`, value: two.perSecond, unit: '/s' },
      {
        name: `gym episodes/s scaling, 2 workers ÷ 1 (${how})`,
        value: two.perSecond / one.perSecond,
        unit: '×',
        target: mode === 'own' ? '≥ 1.7' : undefined,
      },
      { name: `server CPU per episode, 1 worker (${how})`, value: one.serverMsPerEpisode, unit: 'ms' },
      {
        name: `server CPU per episode, 2 workers (workers + front; ${how})`,
        value: two.serverMsPerEpisode,
        unit: 'ms',
      },
      { name: `front CPU per request, 2 workers (${how})`, value: two.frontUsPerRequest, unit: 'µs' },
      { name: `load generator CPU per episode, 2 workers (${how})`, value: two.clientMsPerEpisode, unit: 'ms' },
    )
  }
  return out
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

async function episodesPerSecond(workers: number, mode: Mode): Promise<Rate> {
  const args = ['serve', '--workers', String(workers), '--port', '0', '--control-port', '0']
  const child = spawn(process.execPath, [join(root, 'bin', 'wsgym.mjs'), ...args], { cwd: root })
  try {
    const control = new URL(
      await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          const url = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
          if (url && /users:/.test(out)) resolve(url)
        })
        child.on('exit', (code) => reject(new Error(`wsgym exited ${code}: ${out}`)))
      }),
    )
    type Json = Record<string, unknown>
    const connection = () => new RawHttp(control.hostname, Number(control.port), admin)
    const pool = Array.from({ length: 32 }, connection)
    const free = [...pool]
    const waiters: ((c: RawHttp) => void)[] = []
    // One request on a connection: a client's own, or (pooled) the most recently freed one of the pool.
    const over = async (own: RawHttp | undefined, method: string, path: string, body?: unknown) => {
      const c = own ?? free.pop() ?? (await new Promise<RawHttp>((r) => waiters.push(r)))
      try {
        const reply = await c.call(method, path, body === undefined ? undefined : JSON.stringify(body))
        return (reply.body.length ? JSON.parse(reply.body.toString()) : {}) as Json
      } finally {
        if (!own) {
          const next = waiters.shift()
          if (next) next(c)
          else free.push(c)
        }
      }
    }
    const call = (method: string, path: string, body?: unknown) => over(pool[0], method, path, body)
    const tasks = (await call('GET', '/gym/tasks')) as { tasks: { id: string }[] }
    const taskId = tasks.tasks[0]!.id
    const episode = async (own: RawHttp | undefined) => {
      const call = (method: string, path: string, body?: unknown) => over(own, method, path, body)
      const { episodeId } = (await call('POST', '/gym/reset', { taskId })) as { episodeId: string }
      for (let i = 0; i < 5; i++) await call('POST', `/gym/episodes/${episodeId}/step`, profile)
      await call('POST', `/gym/episodes/${episodeId}/verify`, {})
      await call('DELETE', `/gym/episodes/${episodeId}`)
    }
    const run = async (ms: number) => {
      let done = 0
      const until = performance.now() + ms
      await Promise.all(
        Array.from({ length: 32 }, async (_, i) => {
          while (performance.now() < until) {
            await episode(mode === 'own' ? pool[i] : undefined)
            done++
          }
        }),
      )
      return done
    }
    // Warm-up: every worker builds the task's template once, and V8 optimises the request path. 3 s did the first
    // only: the 1-worker rate still rose by half over the next 4 s (2 s windows: 61, 80, 109, 108 episodes/s), so
    // the measured window mixed warm-up into steady state, more or less of it from run to run (docs/decisions/0464).
    await run(10_000)
    // `npm run bench` sets the allocator's variables, so the launcher does not re-execute itself: the child is the
    // server (one worker) or the front, whose children are the workers.
    const pids = tree(child.pid!)
    const before = pids.map(cpuMs)
    const client = process.cpuUsage()
    const done = await run(8000)
    const clientUsed = process.cpuUsage(client)
    const used = pids.map((p, i) => cpuMs(p) - before[i]!)
    const server = used.reduce((a, b) => a + b, 0)
    const front = workers > 1 ? used[0]! : 0
    const clientMsPerEpisode = (clientUsed.user + clientUsed.system) / 1000 / done
    for (const c of pool) c.close()
    return {
      perSecond: done / 8,
      serverMsPerEpisode: server / done,
      frontUsPerRequest: (front * 1000) / (done * 8),
      clientMsPerEpisode,
    }
  } finally {
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}
