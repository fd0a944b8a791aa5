// The heaviest single requests of each kind, run while another client polls /healthz (issue #12: /healthz of
// another world answers within 100 ms while any single request runs). Shared by `npm run bench -- --only stall`
// (figures, judged against 100 ms) and tests/security/stall.test.ts (structure only: /healthz is answered while the
// heavy request is being worked on).
import { spawn } from 'node:child_process'
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
}

const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
const BOMB = `RRULE:FREQ=DAILY;BYHOUR=${every(24)};BYMINUTE=${every(60)};BYSECOND=${every(60)}`
const CENTURY = 'singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&timeMax=2126-03-01T00:00:00Z'

function batchBody(parts: string[]) {
  const part = (p: string, i: number) => `--b\r\nContent-Type: application/http\r\nContent-ID: ${i}\r\n\r\n${p}\r\n`
  return `${parts.map(part).join('')}--b--\r\n`
}

/**
 * Prepares a demo world for the heavy cases (two BYSECOND series, `files` Drive files, `mails` Gmail threads) and
 * returns them: the biggest Calendar, Drive and Gmail listings, a recurrence expansion, and a batch of 100 parts.
 */
export async function heavyCases(agent: string, token: string, sizes = { files: 400, mails: 300 }): Promise<HeavyCase[]> {
  const auth = { authorization: `Bearer ${token}` }
  const json = { ...auth, 'content-type': 'application/json' }
  const batch = (api: string, parts: string[]) =>
    fetch(`${agent}/batch/${api}`, { method: 'POST', headers: { ...auth, 'content-type': 'multipart/mixed; boundary=b' }, body: batchBody(parts) })
  for (const summary of ['a', 'b']) {
    const event = { summary, start: { dateTime: '2026-03-02T00:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2026-03-02T00:00:01Z', timeZone: 'UTC' }, recurrence: [BOMB] }
    await fetch(`${agent}/calendar/v3/calendars/primary/events`, { method: 'POST', headers: json, body: JSON.stringify(event) })
  }
  const chunks = (n: number, make: (i: number) => string) => Array.from({ length: Math.ceil(n / 100) }, (_, k) =>
    Array.from({ length: Math.min(100, n - k * 100) }, (_, i) => make(k * 100 + i)))
  for (const parts of chunks(sizes.files, (i) => `POST /drive/v3/files\r\nContent-Type: application/json\r\n\r\n{"name":"report ${i}.txt"}`)) {
    await (await batch('drive/v3', parts)).text()
  }
  const raw = (i: number) => Buffer.from(`From: a${i}@x.test\r\nTo: me@x.test\r\nSubject: note ${i}\r\n\r\nbody ${i}`).toString('base64url')
  for (const parts of chunks(sizes.mails, (i) => `POST /gmail/v1/users/me/messages\r\nContent-Type: application/json\r\n\r\n{"raw":"${raw(i)}","labelIds":["INBOX"]}`)) {
    await (await batch('gmail/v1', parts)).text()
  }
  const get = (path: string) => () => fetch(`${agent}${path}`, { headers: auth })
  const events = await (await get('/calendar/v3/calendars/primary/events?maxResults=2500')()).json() as { items: { id: string; summary: string }[] }
  const bombId = events.items.find((e) => e.summary === 'a')!.id
  const mailIds = ((await (await get('/gmail/v1/users/me/messages?maxResults=100')()).json()) as { messages: { id: string }[] }).messages
  return [
    { name: 'calendar singleEvents page of 2,500 over two BYSECOND series', send: get(`/calendar/v3/calendars/primary/events?${CENTURY}&maxResults=2500`) },
    { name: 'calendar instances of a BYSECOND series (730)', send: get(`/calendar/v3/calendars/primary/events/${bombId}/instances?maxResults=2500&timeMax=2126-03-01T00:00:00Z`) },
    { name: `drive files.list of ${sizes.files}+ files, fields=*`, send: get('/drive/v3/files?pageSize=1000&fields=*') },
    { name: 'gmail threads.list of 500', send: get('/gmail/v1/users/me/threads?maxResults=500') },
    { name: 'gmail batch get of 100 messages (full)', send: () => batch('gmail/v1', mailIds.map((m) => `GET /gmail/v1/users/me/messages/${m.id}?format=full`)) },
    { name: 'batch of 100 calendar pages of 250 instances', send: () => batch('calendar/v3', Array.from({ length: 100 }, () => `GET /calendar/v3/calendars/primary/events?${CENTURY}&maxResults=250`)) },
  ]
}

/** Runs one heavy request while polling `healthUrl` back to back; what the poller saw. */
export async function measure(healthUrl: string, c: HeavyCase): Promise<StallFigure> {
  // An object, so the poller reads the current phase (set by the awaits below), not a narrowed copy.
  const at: { phase: 'sent' | 'headers' | 'done' } = { phase: 'sent' }
  const seen = { beforeHeaders: 0, during: 0, worst: 0 }
  const poll = (async () => {
    while (at.phase !== 'done') {
      const t0 = performance.now()
      await (await fetch(healthUrl)).text()
      seen.worst = Math.max(seen.worst, performance.now() - t0)
      const phase = at.phase as string
      if (phase === 'sent') seen.beforeHeaders++
      if (phase !== 'done') seen.during++
    }
  })()
  const t0 = performance.now()
  const res = await c.send()
  at.phase = 'headers'
  await res.arrayBuffer()
  const requestMs = performance.now() - t0
  at.phase = 'done'
  await poll
  return { name: c.name, status: res.status, requestMs, beforeHeaders: seen.beforeHeaders, during: seen.during, worstHealthzMs: seen.worst }
}

/** Bench: a `wsgym serve` child process, the heavy cases run twice each (cold, warm); the warm worst /healthz. */
export async function run(): Promise<BenchFigure[]> {
  const root = join(import.meta.dirname, '..', '..')
  const port = 18_480
  const child = spawn(process.execPath, [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', String(port), '--control-port', String(port + 1), '--admin-token', 'stall-bench-admin'], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('users:') && resolve()))
  const control = `http://127.0.0.1:${port + 1}`
  const admin = { authorization: 'Bearer stall-bench-admin', 'content-type': 'application/json' }
  const world = (await (await fetch(`${control}/worlds`, { method: 'POST', headers: admin, body: JSON.stringify({ id: 'heavy', seed: 'demo' }) })).json()) as { users: { googleToken: string }[] }
  const agent = `http://127.0.0.1:${port}`
  const out: BenchFigure[] = []
  try {
    for (const c of await heavyCases(agent, world.users[0]!.googleToken)) {
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
