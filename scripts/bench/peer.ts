// Side-by-side against `emulate@0.12.2` (npm i --no-save emulate@0.12.2), run by `npm run bench -- --peer`.
// Both servers run in child processes (scripts/bench/peer-server.ts) on loopback; one load generator sends the same
// requests to each, alternating ours / peer, one keep-alive connection per server. Ratio = ours ÷ peer (≤ 1 met).
import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, request } from 'node:http'
import type { BenchFigure } from './types.ts'

const args = process.argv.slice(2)
const N = args.includes('--peer-n') ? Number(args[args.indexOf('--peer-n') + 1]) : 500
const WARMUP = 20
const FORM = 'application/x-www-form-urlencoded' // Slack methods by POST: the peer routes no GET for them

type Ready = { google: string; slack: string; googleToken: string; slackToken: string }
type Side = Ready & { child: ChildProcess; agents: Map<string, Agent> }
type Reply = { status: number; body: string }

/** True when the optional peer package is installed. */
export function peerInstalled(): boolean {
  return existsSync(join(import.meta.dirname, '..', '..', 'node_modules', 'emulate', 'package.json'))
}

async function start(side: 'ours' | 'peer'): Promise<Side> {
  const file = join(import.meta.dirname, 'peer-server.ts')
  const execArgv = ['--expose-gc', '--import', 'tsx']
  const child = fork(file, [side], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready))
    child.once('exit', (code) => reject(new Error(`${side} server exited ${code}`)))
  })
  return { ...ready, child, agents: new Map() }
}

const usage = (s: Side) =>
  new Promise<{ cpuMs: number; rss: number }>((resolve) => {
    s.child.once('message', (m) => resolve(m as { cpuMs: number; rss: number }))
    s.child.send('usage')
  })

function call(s: Side, base: string, method: string, path: string, body?: string, type = 'application/json') {
  let agent = s.agents.get(base)
  if (!agent) s.agents.set(base, (agent = new Agent({ keepAlive: true, maxSockets: 1 })))
  const token = path.startsWith('/api/') ? s.slackToken : s.googleToken
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
const ratio = (name: string, ours: number, peer: number): BenchFigure =>
  ({ name: `${name} p50 ratio (${ours.toFixed(2)} vs ${peer.toFixed(2)} ms)`, value: ours / peer, unit: '×',
    target: '≤ 1.0' })
const senders = ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dan@example.com']
const day = (i: number) => new Date(Date.UTC(2026, 0, 5) + (i % 70) * 86_400_000 + (i % 9) * 3_600_000)

const gmail = (base: (s: Side) => string): [string, Op][] => [
  ['Gmail messages.insert', (s, i) =>
    call(s, base(s), 'POST', '/gmail/v1/users/me/messages',
      JSON.stringify({ raw: raw(senders[i % 4]!, ME, i % 5 ? 'status' : 'report', i), labelIds: ['INBOX'] }))],
  ['Gmail messages.send (ours also delivers)', (s, i) =>
    call(s, base(s), 'POST', '/gmail/v1/users/me/messages/send',
      JSON.stringify({ raw: raw(ME, senders[i % 4]!, 'reply', i) }))],
  ['Gmail messages.list q=from:… subject:…', (s) =>
    call(s, base(s), 'GET', `/gmail/v1/users/me/messages?q=${encodeURIComponent(LIST_Q)}`)],
]

const drive = (base: (s: Side) => string): [string, Op][] => [
  ['Drive files.create', (s, i) =>
    call(s, base(s), 'POST', '/drive/v3/files',
      JSON.stringify({ name: `${i % 3 ? 'notes' : 'report'} ${i}`, mimeType: 'text/plain' }))],
  ["Drive files.list name contains + 'root' in parents", (s) =>
    call(s, base(s), 'GET', `/drive/v3/files?q=${encodeURIComponent("name contains 'report' and 'root' in parents")}`)],
]

const calendar = (base: (s: Side) => string): [string, Op][] => [
  ['Calendar events.insert', (s, i) => {
    const start = day(i)
    const end = new Date(start.getTime() + 3_600_000).toISOString()
    return call(s, base(s), 'POST', '/calendar/v3/calendars/primary/events',
      JSON.stringify({ summary: `meeting ${i}`, start: { dateTime: start.toISOString() }, end: { dateTime: end } }))
  }],
  ['Calendar events.list 7-day window, singleEvents', (s) =>
    call(s, base(s), 'GET', '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime' +
      '&timeMin=2026-01-19T00:00:00Z&timeMax=2026-01-26T00:00:00Z')],
]

/** Runs every phase: p50 ratios, server CPU per phase and memory, each marked against ≤ 1.0 (≤ 1.5 idle RSS). */
export async function run(): Promise<BenchFigure[]> {
  if (!peerInstalled()) {
    console.log('(peer section skipped: `npm i --no-save emulate@0.12.2` to run it)')
    return []
  }
  const sides: [Side, Side] = [await start('ours'), await start('peer')]
  const out: BenchFigure[] = []
  try {
    const idle = await Promise.all(sides.map(usage))
    out.push({ name: 'idle RSS ours (MiB)', value: idle[0]!.rss / 2 ** 20, unit: 'MiB' })
    out.push({ name: 'idle RSS peer (MiB)', value: idle[1]!.rss / 2 ** 20, unit: 'MiB' })
    out.push({ name: 'idle RSS ratio', value: idle[0]!.rss / idle[1]!.rss, unit: '×', target: '≤ 1.5' })
    const channels = await Promise.all(sides.map(async (s) => {
      const r = await call(s, s.slack, 'POST', '/api/conversations.list', 'limit=100', FORM)
      const list = (JSON.parse(r.body) as { channels: { id: string; name: string }[] }).channels
      return list.find((c) => c.name === 'general')!.id
    }))
    const channelOf = (s: Side) => channels[sides.indexOf(s)]!
    const slack: [string, Op][] = [
      ['Slack chat.postMessage', (s, i) =>
        call(s, s.slack, 'POST', '/api/chat.postMessage',
          `channel=${channelOf(s)}&text=${encodeURIComponent(`deploy ${i} is green`)}`, FORM)],
      ['Slack conversations.history limit=100', (s) =>
        call(s, s.slack, 'POST', '/api/conversations.history', `channel=${channelOf(s)}&limit=100`, FORM)],
    ]
    const phases: [string, [string, Op][]][] = [
      ['Gmail', gmail((s) => s.google)], ['Drive', drive((s) => s.google)],
      ['Calendar', calendar((s) => s.google)], ['Slack', slack],
    ]
    for (const [phase, ops] of phases) {
      const before = await Promise.all(sides.map(usage))
      for (const [name, op] of ops) {
        const writes = /insert|send|create|postMessage/.test(name)
        const [a, b] = await compare(sides, op, writes ? N : 200)
        out.push(ratio(name, a, b))
      }
      if (phase === 'Gmail') {
        const ids = await Promise.all(sides.map(async (s) => {
          const r = await call(s, s.google, 'GET', '/gmail/v1/users/me/messages?maxResults=50')
          return (JSON.parse(r.body) as { messages: { id: string }[] }).messages.map((m) => m.id)
        }))
        const get: Op = (s, i) => {
          const list = ids[sides.indexOf(s)]!
          return call(s, s.google, 'GET', `/gmail/v1/users/me/messages/${list[i % list.length]}?format=full`)
        }
        const [a, b] = await compare(sides, get, 200)
        out.push(ratio('Gmail messages.get format=full', a, b))
      }
      const after = await Promise.all(sides.map(usage))
      const cpu = [0, 1].map((k) => after[k]!.cpuMs - before[k]!.cpuMs)
      const name = `${phase}: server CPU ratio (${cpu[0]!.toFixed(0)} vs ${cpu[1]!.toFixed(0)} ms)`
      out.push({ name, value: cpu[0]! / cpu[1]!, unit: '×', target: '≤ 1.0' })
    }
    const end = await Promise.all(sides.map(usage))
    const [r0, r1] = [end[0]!.rss / 2 ** 20, end[1]!.rss / 2 ** 20]
    const name = `RSS after the workload ratio (${r0.toFixed(0)} vs ${r1.toFixed(0)} MiB)`
    out.push({ name, value: r0 / r1, unit: '×' })
  } finally {
    for (const s of sides) {
      for (const a of s.agents.values()) a.destroy()
      s.child.send('exit')
    }
  }
  return out
}
