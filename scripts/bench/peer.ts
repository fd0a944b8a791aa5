// Side-by-side against `emulate@0.12.2` (npm i --no-save emulate@0.12.2), run by `npm run bench -- --peer`.
// Both servers run as child processes on loopback, ours as shipped (`wsgym serve`), the peer from
// scripts/bench/peer-emulate.mjs; one load generator sends the same requests to each, alternating ours / peer, one
// keep-alive connection per server. CPU and memory are read from /proc. Ratio = ours ÷ peer (≤ 1 met).
// The phases run twice: cold (as the servers start, the figures since the section began) and, unless
// `--peer-warm 0`, warm: per phase, `--peer-warm` untimed calls of each operation on a separate world (ours) and
// store (the peer) first, then the same timed calls on a fresh world and store, so that the timed requests meet the
// same data as cold ones and only the code is warm (V8 optimises our request path after 500–1,500 calls, 0372).
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, request } from 'node:http'
import type { BenchFigure } from './types.ts'
// @ts-expect-error: the launcher's helper is plain JavaScript without declarations
import { allocatorEnv } from '../../bin/allocator-env.mjs'

const args = process.argv.slice(2)
const N = args.includes('--peer-n') ? Number(args[args.indexOf('--peer-n') + 1]) : 500
const WARMUP = 20
// Untimed calls of each operation before a phase's warm figures (0 leaves the warm section out).
const WARM = args.includes('--peer-warm') ? Number(args[args.indexOf('--peer-warm') + 1]) : 1500
// --peer-phases Calendar,Slack: only those phases (for profiling one service; the marks then cover those alone).
const PHASES = args.includes('--peer-phases') ? args[args.indexOf('--peer-phases') + 1]!.split(',') : undefined
// --peer-cpu-prof DIR: our server runs with `node --cpu-prof` and writes its profile into DIR when it stops.
const PROFILE_DIR = args.includes('--peer-cpu-prof') ? args[args.indexOf('--peer-cpu-prof') + 1] : undefined
const root = join(import.meta.dirname, '..', '..')
// The launcher's allocator variables, given up front (to the peer too): the launcher then runs the server itself
// instead of re-executing, so the child's pid is the server's (CPU and memory are read from /proc by pid).
const ALLOCATOR_ENV = (allocatorEnv as (env: NodeJS.ProcessEnv) => Record<string, string> | undefined)(process.env)
const CLOCK_TICKS = 100 // USER_HZ on Linux
const SEED = {
  name: 'bench-peer',
  users: [{ id: 'me', email: 'testuser@gmail.com', name: 'Test User' }],
  slack: { channels: [{ name: 'general', members: 'all' }] },
}
const FORM = 'application/x-www-form-urlencoded' // Slack methods by POST: the peer routes no GET for them

type Side = {
  google: string
  slack: string
  googleToken: string
  slackToken: string
  child: ChildProcess
  /** Keep-alive agents by server origin, shared by every world or store of the side. */
  agents: Map<string, Agent>
  /** The peer's calls so far by server origin, to change token before its limit (peerToken); absent for ours. */
  calls?: Map<string, number>
  /** A fresh world (ours) or store (the peer) from the same seed, on the same server process. */
  another: () => Promise<Side>
}
type Reply = { status: number; body: string }

// The peer answers 403 "API rate limit exceeded" past 5,000 calls per token per hour (per server): its seed holds
// PEER_TOKENS tokens of the same user, and each server's calls change token every PEER_CALLS_PER_TOKEN.
export const PEER_CALLS_PER_TOKEN = 4000
export const PEER_TOKENS = 64

/** The tokens the peer is seeded with: `bench-token`, then `bench-token-1`, … */
export function peerTokens(): string[] {
  return Array.from({ length: PEER_TOKENS }, (_, k) => (k ? `bench-token-${k}` : 'bench-token'))
}

const TOKENS = peerTokens()

/** The peer's token for a server's call number `n` (from 0). */
export function peerToken(n: number): string {
  const token = TOKENS[Math.floor(n / PEER_CALLS_PER_TOKEN)]
  if (!token) throw new Error(`peer: more than ${PEER_TOKENS * PEER_CALLS_PER_TOKEN} calls to one server`)
  return token
}

/** True when the optional peer package is installed. */
export function peerInstalled(): boolean {
  return existsSync(join(root, 'node_modules', 'emulate', 'package.json'))
}

/** Spawns `args` and resolves with the first stdout text that `ready` accepts (killing the child on failure). */
function spawnUntil<T>(args: string[], ready: (out: string) => T | undefined) {
  const env = { ...process.env, ...ALLOCATOR_ENV }
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] })
  return new Promise<{ child: ChildProcess; value: T }>((resolve, reject) => {
    let out = ''
    const take = (d: Buffer) => {
      out += d.toString()
      const value = ready(out)
      if (value !== undefined) resolve({ child, value })
    }
    child.stdout.on('data', take)
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)))
  })
}

/** Ours as shipped: `wsgym serve` (dist/ when built and current), one world created from the bench seed. */
async function ours(): Promise<Side> {
  const prof = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []
  const { child, value } = await spawnUntil(
    [...prof, join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0'],
    (out) => {
      const agent = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1]
      const control = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
      return agent && control && /users:/.test(out) ? { agent, control, tsx: /through tsx/.test(out) } : undefined
    },
  )
  if (value.tsx) console.log('(ours runs its TypeScript sources through tsx: `npm run build` to bench dist/)')
  const agents = new Map<string, Agent>()
  let worlds = 0
  const world = async (id: string): Promise<Side> => {
    const res = await fetch(`${value.control}/worlds`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ id, seed: SEED }),
    })
    const body = (await res.json()) as { users: { email: string; googleToken: string; slackUserToken: string }[] }
    const me = body.users.find((u) => u.email === ME)!
    const another = () => world(`bench_peer_${++worlds}`)
    const base = { google: value.agent, slack: value.agent, child, agents, another }
    return { ...base, googleToken: me.googleToken, slackToken: me.slackUserToken }
  }
  return world('bench_peer')
}

type PeerLine = { google: string; slack: string; token: string }

async function peer(): Promise<Side> {
  const launcher = join(import.meta.dirname, 'peer-emulate.mjs')
  const { child, value } = await spawnUntil([launcher, ...peerTokens()], (out) => {
    const line = out.split('\n').find((l) => l.startsWith('{'))
    return line ? (JSON.parse(line) as PeerLine) : undefined
  })
  // Later lines (this listener comes after the first) answer `store` requests on stdin, in order.
  const waiting: ((line: PeerLine) => void)[] = []
  let pending = ''
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (pending + d.toString()).split('\n')
    pending = lines.pop()!
    for (const l of lines) if (l.startsWith('{')) waiting.shift()?.(JSON.parse(l))
  })
  const agents = new Map<string, Agent>()
  const calls = new Map<string, number>()
  const side = ({ google, slack, token }: PeerLine): Side => {
    const another = () =>
      new Promise<Side>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`peer exited ${code} before a new store`)))
        waiting.push((line) => resolve(side(line)))
        child.stdin!.write('store\n')
      })
    return { google, slack, googleToken: token, slackToken: token, child, agents, calls, another }
  }
  return side(value)
}

/** User and system CPU (ms) from a /proc stat file: a process's (all its threads) or one thread's (Linux). */
function statCpu(file: string) {
  const stat = readFileSync(file, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { userMs: (Number(fields[11]) * 1000) / CLOCK_TICKS, sysMs: (Number(fields[12]) * 1000) / CLOCK_TICKS }
}

/**
 * CPU (ms, user + system) of a process, all threads, and of its main thread alone (the thread whose id is the pid):
 * the rest is V8's compiler and GC helper threads and libuv's pool.
 */
export function processCpu(pid: number) {
  const all = statCpu(`/proc/${pid}/stat`)
  const main = statCpu(`/proc/${pid}/task/${pid}/stat`)
  return { cpuMs: all.userMs + all.sysMs, sysMs: all.sysMs, mainMs: main.userMs + main.sysMs }
}

/** CPU time (ms, user + system; the main thread's too) and resident memory (bytes) of a child, from /proc. */
function usage(s: Side) {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.child.pid}/status`, 'utf8'))![1]) * 1024
  return { ...processCpu(s.child.pid!), rss }
}

function call(s: Side, base: string, method: string, path: string, body?: string, type = 'application/json') {
  let agent = s.agents.get(base)
  if (!agent) s.agents.set(base, (agent = new Agent({ keepAlive: true, maxSockets: 1 })))
  let token = path.startsWith('/api/') ? s.slackToken : s.googleToken
  if (s.calls) {
    const n = s.calls.get(base) ?? 0
    s.calls.set(base, n + 1)
    token = peerToken(n)
  }
  const url = new URL(path, base)
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = type
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
  return new Promise<Reply>((resolve, reject) => {
    const options = { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent }
    const req = request(options, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

type Op = (s: Side, i: number) => Promise<Reply>

/** Runs `op` `runs` times on each side, alternating; returns client-side p50 (ms) per side after the warm-up. */
async function compare(sides: [Side, Side], op: Op, runs: number) {
  const samples: [number[], number[]] = [[], []]
  for (let i = 0; i < runs + WARMUP; i++) {
    for (const k of [0, 1] as const) {
      const t = performance.now()
      const reply = await op(sides[k], i)
      const ms = performance.now() - t
      if (reply.status >= 300 || /"ok":false/.test(reply.body.slice(0, 40))) {
        throw new Error(`${k ? 'peer' : 'ours'}: ${reply.status} ${reply.body.slice(0, 300)}`)
      }
      if (i >= WARMUP) samples[k].push(ms)
    }
  }
  const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return [p50(samples[0]), p50(samples[1])] as const
}

const raw = (from: string, to: string, subject: string, i: number) =>
  Buffer.from(
    `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject} ${i}\r\nDate: Mon, 5 Jan 2026 10:00:00 +0000\r\n` +
      `Content-Type: text/plain; charset=UTF-8\r\n\r\nQuarterly figures, item ${i}.\r\n`,
  ).toString('base64url')
const ME = 'testuser@gmail.com'
const LIST_Q = 'from:alice@example.com subject:report'
const ratio = (name: string, ours: number, peer: number): BenchFigure => ({
  name: `${name} p50 ratio (${ours.toFixed(2)} vs ${peer.toFixed(2)} ms)`,
  value: ours / peer,
  unit: '×',
  target: '≤ 1.0',
})
const senders = ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dan@example.com']
const day = (i: number) => new Date(Date.UTC(2026, 0, 5) + (i % 70) * 86_400_000 + (i % 9) * 3_600_000)

const gmail = (base: (s: Side) => string): [string, Op][] => [
  [
    'Gmail messages.insert',
    (s, i) =>
      call(
        s,
        base(s),
        'POST',
        '/gmail/v1/users/me/messages',
        JSON.stringify({ raw: raw(senders[i % 4]!, ME, i % 5 ? 'status' : 'report', i), labelIds: ['INBOX'] }),
      ),
  ],
  [
    'Gmail messages.send (ours also delivers)',
    (s, i) =>
      call(
        s,
        base(s),
        'POST',
        '/gmail/v1/users/me/messages/send',
        JSON.stringify({ raw: raw(ME, senders[i % 4]!, 'reply', i) }),
      ),
  ],
  [
    'Gmail messages.list q=from:… subject:…',
    (s) => call(s, base(s), 'GET', `/gmail/v1/users/me/messages?q=${encodeURIComponent(LIST_Q)}`),
  ],
]

const drive = (base: (s: Side) => string): [string, Op][] => [
  [
    'Drive files.create',
    (s, i) =>
      call(
        s,
        base(s),
        'POST',
        '/drive/v3/files',
        JSON.stringify({ name: `${i % 3 ? 'notes' : 'report'} ${i}`, mimeType: 'text/plain' }),
      ),
  ],
  [
    "Drive files.list name contains + 'root' in parents",
    (s) =>
      call(
        s,
        base(s),
        'GET',
        `/drive/v3/files?q=${encodeURIComponent("name contains 'report' and 'root' in parents")}`,
      ),
  ],
]

const calendar = (base: (s: Side) => string): [string, Op][] => [
  [
    'Calendar events.insert',
    (s, i) => {
      const start = day(i)
      const end = new Date(start.getTime() + 3_600_000).toISOString()
      return call(
        s,
        base(s),
        'POST',
        '/calendar/v3/calendars/primary/events',
        JSON.stringify({ summary: `meeting ${i}`, start: { dateTime: start.toISOString() }, end: { dateTime: end } }),
      )
    },
  ],
  [
    'Calendar events.list 7-day window, singleEvents',
    (s) =>
      call(
        s,
        base(s),
        'GET',
        '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime' +
          '&timeMin=2026-01-19T00:00:00Z&timeMax=2026-01-26T00:00:00Z',
      ),
  ],
]

const slack = (channelOf: (s: Side) => string): [string, Op][] => [
  [
    'Slack chat.postMessage',
    (s, i) =>
      call(
        s,
        s.slack,
        'POST',
        '/api/chat.postMessage',
        `channel=${channelOf(s)}&text=${encodeURIComponent(`deploy ${i} is green`)}`,
        FORM,
      ),
  ],
  [
    'Slack conversations.history limit=100',
    (s) => call(s, s.slack, 'POST', '/api/conversations.history', `channel=${channelOf(s)}&limit=100`, FORM),
  ],
]

/** `messages.get format=full` over the 50 newest messages of each side, read once when the op is made. */
async function gmailGet(sides: Side[]): Promise<Op> {
  const ids = new Map<Side, string[]>()
  for (const s of sides) {
    const r = await call(s, s.google, 'GET', '/gmail/v1/users/me/messages?maxResults=50')
    ids.set(
      s,
      (JSON.parse(r.body) as { messages: { id: string }[] }).messages.map((m) => m.id),
    )
  }
  return (s, i) => {
    const list = ids.get(s)!
    return call(s, s.google, 'GET', `/gmail/v1/users/me/messages/${list[i % list.length]}?format=full`)
  }
}

/** The id of each side's `general` channel. */
async function generalChannels(sides: Side[]) {
  const channels = new Map<Side, string>()
  for (const s of sides) {
    const r = await call(s, s.slack, 'POST', '/api/conversations.list', 'limit=100', FORM)
    const list = (JSON.parse(r.body) as { channels: { id: string; name: string }[] }).channels
    channels.set(s, list.find((c) => c.name === 'general')!.id)
  }
  return (s: Side) => channels.get(s)!
}

/**
 * Every phase on `sides`: p50 ratios per operation and the server CPU ratio of the phase's timed calls. With
 * `warmup` (other worlds and stores of the same servers), each phase first sends WARM untimed calls of each of its
 * operations there; names then start with `prefix`.
 */
async function phases(sides: [Side, Side], warmup?: [Side, Side], prefix = ''): Promise<BenchFigure[]> {
  const out: BenchFigure[] = []
  const channelOf = await generalChannels([...sides, ...(warmup ?? [])])
  const list: [string, [string, Op][]][] = [
    ['Gmail', gmail((s) => s.google)],
    ['Drive', drive((s) => s.google)],
    ['Calendar', calendar((s) => s.google)],
    ['Slack', slack(channelOf)],
  ]
  for (const [phase, ops] of list) {
    if (PHASES && !PHASES.includes(phase)) continue
    if (warmup) {
      for (const [, op] of ops) await compare(warmup, op, WARM)
      if (phase === 'Gmail') await compare(warmup, await gmailGet(warmup), WARM)
    }
    const before = sides.map(usage)
    for (const [name, op] of ops) {
      const writes = /insert|send|create|postMessage/.test(name)
      const [a, b] = await compare(sides, op, writes ? N : 200)
      out.push(ratio(prefix + name, a, b))
    }
    if (phase === 'Gmail') {
      const [a, b] = await compare(sides, await gmailGet(sides), 200)
      out.push(ratio(`${prefix}Gmail messages.get format=full`, a, b))
    }
    const after = sides.map(usage)
    const cpu = [0, 1].map((k) => after[k]!.cpuMs - before[k]!.cpuMs)
    const sys = [0, 1].map((k) => after[k]!.sysMs - before[k]!.sysMs)
    const name =
      `${prefix}${phase}: server CPU ratio (${cpu[0]!.toFixed(0)} vs ${cpu[1]!.toFixed(0)} ms, ` +
      `of which system ${sys[0]!.toFixed(0)} vs ${sys[1]!.toFixed(0)})`
    out.push({ name, value: cpu[0]! / cpu[1]!, unit: '×', target: '≤ 1.0' })
    // Where a CPU ratio above 1.0 lies: the request path (main thread) or V8's compiles and GC helpers (0380).
    const main = [0, 1].map((k) => after[k]!.mainMs - before[k]!.mainMs)
    const mainName =
      `${prefix}${phase}: main-thread CPU ratio (${main[0]!.toFixed(0)} vs ${main[1]!.toFixed(0)} ms; other ` +
      `threads ${(cpu[0]! - main[0]!).toFixed(0)} vs ${(cpu[1]! - main[1]!).toFixed(0)})`
    out.push({ name: mainName, value: main[0]! / main[1]!, unit: '×' })
  }
  return out
}

const rssRatio = (sides: Side[], when: string): BenchFigure => {
  const [r0, r1] = sides.map((s) => usage(s).rss / 2 ** 20) as [number, number]
  return { name: `RSS ${when} ratio (${r0.toFixed(0)} vs ${r1.toFixed(0)} MiB)`, value: r0 / r1, unit: '×' }
}

/** One Gmail, Drive and Calendar call on each side, concurrently; returns our server's CPU (ms) for them. */
async function firstCalls(sides: [Side, Side]) {
  const before = usage(sides[0])
  await Promise.all(
    sides.map((s) =>
      Promise.all([
        call(s, s.google, 'GET', '/gmail/v1/users/me/labels'),
        call(s, s.google, 'GET', '/drive/v3/about?fields=user'),
        call(s, s.google, 'GET', '/calendar/v3/users/me/calendarList'),
      ]),
    ),
  )
  return usage(sides[0]).cpuMs - before.cpuMs
}

/**
 * Runs every phase cold, then warm (unless `--peer-warm 0`): p50 ratios, server CPU per phase and memory, each
 * marked against ≤ 1.0 (≤ 1.5 idle RSS).
 */
export async function run(): Promise<BenchFigure[]> {
  if (!peerInstalled()) {
    console.log('(peer section skipped: `npm i --no-save emulate@0.12.2` to run it)')
    return []
  }
  const sides: [Side, Side] = [await ours(), await peer()]
  const out: BenchFigure[] = []
  try {
    const idle = sides.map(usage)
    out.push({ name: 'idle RSS ours (MiB)', value: idle[0]!.rss / 2 ** 20, unit: 'MiB' })
    out.push({ name: 'idle RSS peer (MiB)', value: idle[1]!.rss / 2 ** 20, unit: 'MiB' })
    out.push({ name: 'idle RSS ratio', value: idle[0]!.rss / idle[1]!.rss, unit: '×', target: '≤ 1.5' })
    // Ours imports a service's routes on its first call (docs/decisions/0293): one call per service here, so that
    // one-time cost is shown as such and not counted in a phase's per-call CPU (Slack was always called here).
    const firstCpu = await firstCalls(sides)
    const firstName = 'ours: CPU of the first Gmail, Drive and Calendar calls (route import)'
    out.push({ name: firstName, value: firstCpu, unit: 'ms' })
    out.push(...(await phases(sides)))
    out.push(rssRatio(sides, 'after the workload'))
    if (WARM > 0) {
      // Warm-up on one new world / store per side, timed calls on another: the timed requests meet the data the
      // cold ones met (the warm-up's growth would make listings costlier, the peer's most: it scans every item).
      const warmup = (await Promise.all(sides.map((s) => s.another()))) as [Side, Side]
      const fresh = (await Promise.all(sides.map((s) => s.another()))) as [Side, Side]
      // The same first calls as above, untimed, on both new worlds: what a world sets up on its first call stays
      // out of the phases' CPU as it does cold.
      await firstCalls(warmup)
      const freshCpu = await firstCalls(fresh)
      const freshName = 'warm: ours: CPU of the same first calls in a fresh world'
      out.push({ name: freshName, value: freshCpu, unit: 'ms' })
      out.push({ name: 'warm: untimed calls of each operation first, on other worlds', value: WARM, unit: 'calls' })
      out.push(...(await phases(fresh, warmup, 'warm: ')))
      out.push(rssRatio(sides, 'after the warm section'))
    }
  } finally {
    for (const s of sides) {
      for (const a of s.agents.values()) a.destroy()
      s.child.kill('SIGTERM')
    }
  }
  return out
}
