// Batched commits A/B (docs/decisions/0419): two `wsgym serve` processes from the same build, one with
// WSGYM_BATCH_WRITES=0 (every write committed as made) and one batched (the default), sent the same requests one
// after the other, alternating server per request, so that a shared host's noise falls on both alike. Reports each
// server's CPU (user + system, from /proc) per call for each operation.
// Run (after `npm run build`): node --import tsx scripts/bench/batch-ab.ts [timed calls] [untimed calls]
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { spawnServe, type Served } from './serve.ts'

const N = Number(process.argv[2] ?? 3000)
const WARM = Number(process.argv[3] ?? 1500)
const SEED = {
  name: 'bench-batch',
  users: [{ id: 'me', email: 'testuser@gmail.com', name: 'Test User' }],
  slack: { channels: [{ name: 'general', members: 'all' }] },
}

type Side = { served: Served; agent: string; token: string; slackToken: string; channel: string; http: Agent }

/** CPU (ms, user + system) of a process and its descendants (the launcher may run the server as its child). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  let ms = ((Number(f[11]) + Number(f[12])) * 1000) / 100
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
  for (const child of children ? children.split(' ') : []) ms += cpuMs(Number(child))
  return ms
}

function call(s: Side, method: string, path: string, body?: string, type = 'application/json') {
  const url = new URL(path, s.agent)
  const headers: Record<string, string> = {
    authorization: `Bearer ${path.startsWith('/api/') ? s.slackToken : s.token}`,
  }
  if (body !== undefined) {
    headers['content-type'] = type
    headers['content-length'] = String(Buffer.byteLength(body))
  }
  return new Promise<number>((resolve, reject) => {
    const opts = { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: s.http }
    const req = request(opts, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function side(batch: string | undefined): Promise<Side> {
  if (batch === undefined) delete process.env.WSGYM_BATCH_WRITES
  else process.env.WSGYM_BATCH_WRITES = batch
  const served = spawnServe()
  const agent = await served.ready()
  const control = /control plane\s+(http:\/\/\S+)/.exec(served.output())![1]!
  const res = await fetch(`${control}/worlds`, {
    method: 'POST',
    headers: { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'ab', seed: SEED }),
  })
  const users = ((await res.json()) as { users: { googleToken: string; slackUserToken: string }[] }).users
  const s: Side = {
    served,
    agent,
    token: users[0]!.googleToken,
    slackToken: users[0]!.slackUserToken,
    channel: '',
    http: new Agent({ keepAlive: true, maxSockets: 1 }),
  }
  return s
}

const raw = (to: string, i: number) =>
  Buffer.from(
    `From: testuser@gmail.com\r\nTo: ${to}\r\nSubject: status ${i}\r\nDate: Mon, 5 Jan 2026 10:00:00 +0000\r\n` +
      `Content-Type: text/plain; charset=UTF-8\r\n\r\nQuarterly figures, item ${i}.\r\n`,
  ).toString('base64url')
const day = (i: number) => new Date(Date.UTC(2026, 0, 5) + (i % 70) * 86_400_000 + (i % 9) * 3_600_000)
type Op = (s: Side, i: number) => Promise<number>
const OPS: [string, Op][] = [
  [
    'Gmail messages.insert',
    (s, i) =>
      call(
        s,
        'POST',
        '/gmail/v1/users/me/messages',
        JSON.stringify({ raw: raw('testuser@gmail.com', i), labelIds: ['INBOX'] }),
      ),
  ],
  [
    'Gmail messages.send',
    (s, i) => call(s, 'POST', '/gmail/v1/users/me/messages/send', JSON.stringify({ raw: raw('alice@example.com', i) })),
  ],
  [
    'Drive files.create',
    (s, i) => call(s, 'POST', '/drive/v3/files', JSON.stringify({ name: `notes ${i}`, mimeType: 'text/plain' })),
  ],
  [
    'Calendar events.insert',
    (s, i) => {
      const start = day(i)
      const end = new Date(start.getTime() + 3_600_000).toISOString()
      const body = { summary: `meeting ${i}`, start: { dateTime: start.toISOString() }, end: { dateTime: end } }
      return call(s, 'POST', '/calendar/v3/calendars/primary/events', JSON.stringify(body))
    },
  ],
  [
    'Slack chat.postMessage',
    (s, i) =>
      call(
        s,
        'POST',
        '/api/chat.postMessage',
        `channel=${s.channel}&text=deploy+${i}`,
        'application/x-www-form-urlencoded',
      ),
  ],
  ['Drive files.list (a read)', (s) => call(s, 'GET', '/drive/v3/files?pageSize=10')],
]

async function main() {
  const sides = [await side('0'), await side(undefined)] as const
  for (const s of sides) {
    const r = await fetch(`${s.agent}/api/conversations.list`, { headers: { authorization: `Bearer ${s.slackToken}` } })
    s.channel = ((await r.json()) as { channels: { id: string }[] }).channels[0]!.id
  }
  console.log(`per call server CPU (µs), unbatched vs batched, ${N} timed calls after ${WARM} untimed, alternating`)
  for (const [name, op] of OPS) {
    for (let i = 0; i < WARM; i++) for (const s of sides) await op(s, i + 1_000_000)
    const before = sides.map((s) => cpuMs(s.served.child.pid!))
    for (let i = 0; i < N; i++) {
      for (const s of i % 2 ? sides : [sides[1], sides[0]]) {
        const status = await op(s, i)
        if (status >= 300) throw new Error(`${name}: ${status}`)
      }
    }
    const used = sides.map((s, k) => ((cpuMs(s.served.child.pid!) - before[k]!) * 1000) / N)
    const gain = (1 - used[1]! / used[0]!) * 100
    console.log(
      `${name.padEnd(28)} ${used[0]!.toFixed(0).padStart(5)} ${used[1]!.toFixed(0).padStart(5)}  ${gain.toFixed(1)} %`,
    )
  }
  for (const s of sides) await s.served.stop()
}
void main()
