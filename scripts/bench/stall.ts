// The heaviest single requests of each kind, run while another client polls /healthz (issue #12: /healthz of
// another world answers within 100 ms while any single request runs). Shared by `npm run bench -- --only stall`
// (figures, judged against 100 ms) and tests/security/stall.test.ts (structure only: the server hands turns over and
// /healthz is answered while the heavy request is being worked on).
import { spawn } from 'node:child_process'
import { Worker } from 'node:worker_threads'
import { join } from 'node:path'
import type { BenchFigure } from './types.ts'

export type HeavyCase = { name: string; send(): Promise<Response> }
export type StallFigure = {
  name: string
  status: number
  requestMs: number
  /** /healthz answers received after the heavy request was sent and before its response headers arrived. */
  beforeHeaders: number
  /** … before its whole body was read. */
  during: number
  worstHealthzMs: number
  /** Turns the server handed over (by `turns`, when it runs in this process) before the headers, and in all. */
  turnsBeforeHeaders: number
  turnsDuring: number
}

const every = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from).join(',')
const TIMES = `BYHOUR=${every(24)};BYMINUTE=${every(60)};BYSECOND=${every(60)}`
const BOMB = `RRULE:FREQ=DAILY;${TIMES}`
const CENTURY = 'singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&timeMax=2126-03-01T00:00:00Z'
const FROM_2040 = 'timeMin=2040-01-01T00:00:00Z&timeMax=2041-01-01T00:00:00Z'

/**
 * The series an attacker writes, by summary: a time every second of every day (two of them), the same over
 * every day of the year, a COUNT of 999,999 seconds, a rule that never matches, and a week-number rule of
 * 86,400 times a day (refused at insert since 0210; rrule took ~36 s per listing of it).
 */
const SERIES: [string, string][] = [
  ['a', BOMB],
  ['b', BOMB],
  ['yeardays', `RRULE:FREQ=YEARLY;BYYEARDAY=${every(366, 1)};${TIMES}`],
  ['count', `${BOMB};COUNT=999999`],
  ['never', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'],
  ['weekno', `RRULE:FREQ=YEARLY;BYWEEKNO=${every(53, 1)};BYDAY=MO,TU,WE,TH,FR,SA,SU;${TIMES}`],
]

function batchBody(parts: string[]) {
  const part = (p: string, i: number) => `--b\r\nContent-Type: application/http\r\nContent-ID: ${i}\r\n\r\n${p}\r\n`
  return `${parts.map(part).join('')}--b--\r\n`
}

export type HeavySizes = { files: number; mails: number; slack: number }

/**
 * Prepares a demo world for the heavy cases (the attack series above, `files` Drive files, `mails` Gmail
 * threads, `slack` Slack messages in one channel) and returns them: the biggest Calendar, Drive, Gmail and Slack
 * listings, recurrence expansions, and batches of 100 heavy parts. `skip` leaves out series and cases whose
 * name it matches (for runs against older code, where some of them hold the loop for minutes). `refused` lists
 * the series the server refused to store.
 */
export async function heavyCases(
  agent: string,
  token: string,
  slackToken: string,
  sizes: HeavySizes = { files: 400, mails: 300, slack: 1000 },
  skip?: RegExp,
) {
  const auth = { authorization: `Bearer ${token}` }
  const json = { ...auth, 'content-type': 'application/json' }
  const batch = (api: string, parts: string[]) =>
    fetch(`${agent}/batch/${api}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/mixed; boundary=b' },
      body: batchBody(parts),
    })
  const ids: Record<string, string> = {}
  const refused: string[] = []
  for (const [summary, rule] of SERIES) {
    if (skip?.test(summary)) continue
    const at = (s: string) => ({ dateTime: `2026-03-02T00:00:0${s}Z`, timeZone: 'UTC' })
    const event = { summary, start: at('0'), end: at('1'), recurrence: [rule] }
    const init = { method: 'POST', headers: json, body: JSON.stringify(event) }
    const res = await fetch(`${agent}/calendar/v3/calendars/primary/events`, init)
    const body = (await res.json()) as { id?: string }
    if (res.status === 200 && body.id) ids[summary] = body.id
    else refused.push(`${summary} (${res.status})`)
  }
  const chunks = (n: number, make: (i: number) => string) =>
    Array.from({ length: Math.ceil(n / 100) }, (_, k) =>
      Array.from({ length: Math.min(100, n - k * 100) }, (_, i) => make(k * 100 + i)),
    )
  for (const parts of chunks(
    sizes.files,
    (i) => `POST /drive/v3/files\r\nContent-Type: application/json\r\n\r\n{"name":"report ${i}.txt"}`,
  )) {
    await (await batch('drive/v3', parts)).text()
  }
  const raw = (i: number) =>
    Buffer.from(`From: a${i}@x.test\r\nTo: me@x.test\r\nSubject: note ${i}\r\n\r\nbody ${i}`).toString('base64url')
  for (const parts of chunks(
    sizes.mails,
    (i) =>
      `POST /gmail/v1/users/me/messages\r\nContent-Type: application/json\r\n\r\n{"raw":"${raw(i)}","labelIds":["INBOX"]}`,
  )) {
    await (await batch('gmail/v1', parts)).text()
  }
  const slack = (method: string, args: Record<string, string>) =>
    fetch(`${agent}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slackToken}` },
      body: new URLSearchParams(args),
    })
  const created = (await (await slack('conversations.create', { name: 'flood' })).json()) as { channel: { id: string } }
  const channel = created.channel.id
  for (let i = 0; i < sizes.slack; i++) {
    await (await slack('chat.postMessage', { channel, text: `flood report ${i} with a few words to match` })).text()
  }
  const get = (path: string) => () => fetch(`${agent}${path}`, { headers: auth })
  const mailIds = (
    (await (await get('/gmail/v1/users/me/messages?maxResults=100')()).json()) as { messages: { id: string }[] }
  ).messages
  const instances = (id: string, query: string) =>
    `/calendar/v3/calendars/primary/events/${id}/instances?maxResults=2500&${query}`
  const hundred = (part: string) => Array.from({ length: 100 }, () => part)
  const { a, yeardays, count, never, weekno } = ids
  const cases: HeavyCase[] = [
    {
      name: 'calendar singleEvents page of 2,500 over two BYSECOND series',
      send: get(`/calendar/v3/calendars/primary/events?${CENTURY}&maxResults=2500`),
    },
    {
      name: 'calendar singleEvents page of 2,500 from 2040 over every series',
      send: get(
        `/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&${FROM_2040}&maxResults=2500`,
      ),
    },
    ...(a
      ? [
          {
            name: 'calendar instances of a BYSECOND series (730)',
            send: get(instances(a, 'timeMax=2126-03-01T00:00:00Z')),
          },
          { name: 'calendar instances of a BYSECOND series from 2040 (730)', send: get(instances(a, FROM_2040)) },
          {
            name: 'batch of 100 instances pages of a BYSECOND series from 2040',
            send: () => batch('calendar/v3', hundred(`GET ${instances(a, FROM_2040)}`)),
          },
        ]
      : []),
    ...(yeardays
      ? [
          {
            name: 'calendar instances of a BYYEARDAY×BYSECOND series from 2040',
            send: get(instances(yeardays, FROM_2040)),
          },
        ]
      : []),
    ...(count
      ? [
          {
            name: 'calendar instances of a COUNT=999,999 BYSECOND series from 2040 (none)',
            send: get(instances(count, FROM_2040)),
          },
        ]
      : []),
    ...(never
      ? [
          {
            name: 'calendar instances of a rule that never matches (to year 9999)',
            send: get(instances(never, 'showDeleted=false')),
          },
        ]
      : []),
    ...(weekno
      ? [
          {
            name: 'calendar instances of a BYWEEKNO×BYSECOND series from 2040',
            send: get(instances(weekno, FROM_2040)),
          },
        ]
      : []),
    {
      name: `drive files.list of ${sizes.files}+ files, fields=*`,
      send: get('/drive/v3/files?pageSize=1000&fields=*'),
    },
    { name: 'gmail threads.list of 500', send: get('/gmail/v1/users/me/threads?maxResults=500') },
    {
      name: 'gmail batch get of 100 messages (full)',
      send: () =>
        batch(
          'gmail/v1',
          mailIds.map((m) => `GET /gmail/v1/users/me/messages/${m.id}?format=full`),
        ),
    },
    {
      name: 'gmail batch of 100 threads.list of 500',
      send: () => batch('gmail/v1', hundred('GET /gmail/v1/users/me/threads?maxResults=500')),
    },
    {
      name: `drive batch of 100 files.list of ${sizes.files}+ files, fields=*`,
      send: () => batch('drive/v3', hundred('GET /drive/v3/files?pageSize=1000&fields=*')),
    },
    {
      name: 'batch of 100 calendar pages of 250 instances',
      send: () => batch('calendar/v3', hundred(`GET /calendar/v3/calendars/primary/events?${CENTURY}&maxResults=250`)),
    },
    {
      name: `slack conversations.history of 999 (of ${sizes.slack})`,
      send: () => slack('conversations.history', { channel, limit: '999' }),
    },
    {
      name: `slack search.messages over ${sizes.slack} matches, 100 a page`,
      send: () => slack('search.messages', { query: 'flood report', count: '100', sort: 'timestamp' }),
    },
  ]
  return { cases: cases.filter((c) => !skip?.test(c.name)), refused }
}

/**
 * The /healthz poller, on its own thread: the heavy answer (tens of megabytes for a batch) is read on the main
 * thread, and a poller sharing that thread would time the client's own parsing, not the server. `shared` holds
 * the phase (-1 warming up, 0 sent, 1 headers received, 2 done), then the answers counted in phase 0 and in 0–1.
 */
const POLLER = `
const { workerData, parentPort } = require('node:worker_threads')
const shared = new Int32Array(workerData.shared)
let worst = 0
;(async () => {
  while (Atomics.load(shared, 0) !== 2) {
    const t0 = performance.now()
    await (await fetch(workerData.url)).text()
    const took = performance.now() - t0
    const phase = Atomics.load(shared, 0)
    if (phase < 0) { parentPort.postMessage({ ready: true }); continue }
    worst = Math.max(worst, took)
    if (phase === 0) Atomics.add(shared, 1, 1)
    if (phase !== 2) Atomics.add(shared, 2, 1)
  }
  parentPort.postMessage({ worst })
})()
`

/**
 * Runs one heavy request while another thread polls `healthUrl` back to back; what the poller saw, and with
 * `turns` (the in-process server's count of turns handed over) what the server did.
 */
export async function measure(healthUrl: string, c: HeavyCase, turns = () => 0): Promise<StallFigure> {
  const shared = new Int32Array(new SharedArrayBuffer(12))
  shared[0] = -1
  const worker = new Worker(POLLER, { eval: true, workerData: { url: healthUrl, shared: shared.buffer } })
  const messages: { ready?: boolean; worst?: number }[] = []
  let wake = () => {}
  worker.on('message', (m: { ready?: boolean; worst?: number }) => {
    messages.push(m)
    wake()
  })
  const next = async () => {
    while (!messages.length) await new Promise<void>((resolve) => (wake = resolve))
    return messages.shift()!
  }
  await next()
  Atomics.store(shared, 0, 0)
  const t0 = performance.now()
  const turns0 = turns()
  const res = await c.send()
  Atomics.store(shared, 0, 1)
  const turnsBeforeHeaders = turns() - turns0
  // Read and dropped chunk by chunk: gathering a 60 MB answer into one buffer is the client's work, not the server's.
  const reader = res.body!.getReader()
  while (!(await reader.read()).done);
  const requestMs = performance.now() - t0
  const turnsDuring = turns() - turns0
  Atomics.store(shared, 0, 2)
  let done = await next()
  while (done.worst === undefined) done = await next()
  await worker.terminate()
  const [, beforeHeaders, during] = shared
  const worstHealthzMs = done.worst
  const counted = { beforeHeaders: beforeHeaders!, during: during!, turnsBeforeHeaders, turnsDuring }
  return { name: c.name, status: res.status, requestMs, ...counted, worstHealthzMs }
}

/**
 * Bench: a `wsgym serve` child process, the heavy cases run twice each (cold, warm); the warm worst /healthz.
 * `WSGYM_STALL_SKIP` (a regular expression) leaves out series and cases by name.
 */
export async function run(): Promise<BenchFigure[]> {
  const root = join(import.meta.dirname, '..', '..')
  const port = 18_480
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin', 'wsgym.mjs'),
      'serve',
      '--port',
      String(port),
      '--control-port',
      String(port + 1),
      '--admin-token',
      'stall-bench-admin',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('users:') && resolve()),
  )
  const control = `http://127.0.0.1:${port + 1}`
  const admin = { authorization: 'Bearer stall-bench-admin', 'content-type': 'application/json' }
  const body = JSON.stringify({ id: 'heavy', seed: 'demo' })
  const created = await fetch(`${control}/worlds`, { method: 'POST', headers: admin, body })
  const world = (await created.json()) as { users: { googleToken: string; slackUserToken: string }[] }
  const agent = `http://127.0.0.1:${port}`
  const skip = process.env.WSGYM_STALL_SKIP ? new RegExp(process.env.WSGYM_STALL_SKIP) : undefined
  const out: BenchFigure[] = []
  try {
    const user = world.users[0]!
    const { cases, refused } = await heavyCases(agent, user.googleToken, user.slackUserToken, undefined, skip)
    if (refused.length) console.log(`  series refused at insert: ${refused.join(', ')}`)
    for (const c of cases) {
      await measure(`${agent}/healthz`, c)
      const f = await measure(`${agent}/healthz`, c)
      out.push({ name: `${c.name}: request`, value: f.requestMs, unit: 'ms' })
      out.push({ name: `${c.name}: worst /healthz meanwhile`, value: f.worstHealthzMs, unit: 'ms', target: '≤ 100' })
    }
  } finally {
    child.kill()
  }
  return out
}
