// node --import tsx scripts/stall.ts — how long expensive requests hold the event loop (issue #12).
// Starts `wsgym serve` as a child process, sends each attack request once, and polls another world's /healthz
// every 5 ms meanwhile; prints the attack's own duration and the slowest /healthz answer seen. Each attack runs
// twice: the first run also pays for compiling the code it reaches. Figures only, never asserted.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const PORT = 18_380
const agent = `http://127.0.0.1:${PORT}`
const control = `http://127.0.0.1:${PORT + 1}`
const admin = { authorization: 'Bearer stall-admin', 'content-type': 'application/json' }

const child = spawn(
  process.execPath,
  [
    join(root, 'bin', 'wsgym.mjs'),
    'serve',
    '--port',
    String(PORT),
    '--control-port',
    String(PORT + 1),
    '--admin-token',
    'stall-admin',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
await new Promise<void>((resolve) =>
  child.stdout!.on('data', (d: Buffer) => d.toString().includes('users:') && resolve()),
)

const world = (await (
  await fetch(`${control}/worlds`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ id: 'attacker', seed: 'demo' }),
  })
).json()) as { users: { googleToken: string }[] }
const token = world.users[0]!.googleToken
// Each attack is prepared (payload built) before the clock starts, so the client's own work is not measured.
const g = (method: string, path: string, body?: unknown) => {
  const init = {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }
  return () => fetch(`${agent}${path}`, init)
}
const b64 = (s: string) => Buffer.from(s).toString('base64url')
const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
const bomb = `RRULE:FREQ=DAILY;BYHOUR=${every(24)};BYMINUTE=${every(60)};BYSECOND=${every(60)}`
for (const summary of ['a', 'b']) {
  await g('POST', '/calendar/v3/calendars/primary/events', {
    summary,
    start: { dateTime: '2026-03-02T00:00:00Z', timeZone: 'UTC' },
    end: { dateTime: '2026-03-02T00:00:01Z', timeZone: 'UTC' },
    recurrence: [bomb],
  })()
}

const attacks: [string, () => () => Promise<Response>][] = [
  [
    'gmail send, References of 100,000 ids',
    () =>
      g('POST', '/gmail/v1/users/me/messages/send', {
        raw: b64(
          `To: bob@northwind.test\r\nSubject: x\r\nReferences: ${Array.from({ length: 100_000 }, (_, i) => `<m${i}@x.test>`).join(' ')}\r\n\r\nx`,
        ),
      }),
  ],
  [
    'gmail send, 500 recipients',
    () =>
      g('POST', '/gmail/v1/users/me/messages/send', {
        raw: b64(`To: ${Array.from({ length: 500 }, (_, i) => `u${i}@x.test`).join(', ')}\r\nSubject: x\r\n\r\nx`),
      }),
  ],
  [
    'gmail list, q of 10,000 characters',
    () => g('GET', `/gmail/v1/users/me/messages?q=${encodeURIComponent('a '.repeat(5000))}`),
  ],
  [
    'gmail list, q of 400 terms',
    () => g('GET', `/gmail/v1/users/me/messages?q=${encodeURIComponent(Array(200).fill('a b').join(' '))}`),
  ],
  [
    'drive list, q of 8,000 characters',
    () => g('GET', `/drive/v3/files?q=${encodeURIComponent(Array(420).fill("name contains 'x'").join(' or '))}`),
  ],
  [
    'calendar 100-year singleEvents, 2 bomb series, 2500',
    () =>
      g(
        'GET',
        '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&timeMax=2126-03-01T00:00:00Z&maxResults=2500',
      ),
  ],
  [
    'calendar 100-year singleEvents, 2 bomb series, 250',
    () =>
      g(
        'GET',
        '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&timeMax=2126-03-01T00:00:00Z&maxResults=250',
      ),
  ],
  [
    'batch of 100 singleEvents pages of 250 over the bombs',
    () => {
      const part = (i: number) =>
        `--b\r\nContent-Type: application/http\r\nContent-ID: ${i}\r\n\r\nGET /calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&maxResults=250\r\n\r\n`
      const body = `${Array.from({ length: 100 }, (_, i) => part(i)).join('')}--b--\r\n`
      const init = {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/mixed; boundary=b' },
        body,
      }
      return () => fetch(`${agent}/batch/calendar/v3`, init)
    },
  ],
  [
    'JSON body nested 1,000,000 deep',
    () => {
      const init = {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"a":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`,
      }
      return () => fetch(`${agent}/gmail/v1/users/me/labels`, init)
    },
  ],
]

console.log(`${'attack (run 1 cold, run 2 warm)'.padEnd(56)} status  request ms  worst /healthz ms`)
for (const [name, prepare] of attacks.flatMap((a) => [a, a])) {
  const run = prepare()
  let worst = 0
  let done = false
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now()
      await fetch(`${agent}/healthz`)
      worst = Math.max(worst, performance.now() - t0)
      await new Promise((r) => setTimeout(r, 5))
    }
  })()
  const t0 = performance.now()
  const res = await run()
  await res.arrayBuffer()
  const took = performance.now() - t0
  done = true
  await poll
  console.log(
    `${name.padEnd(56)} ${String(res.status).padEnd(7)} ${took.toFixed(0).padStart(10)}  ${worst.toFixed(0).padStart(17)}`,
  )
}
child.kill()
