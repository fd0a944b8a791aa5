import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startServer, type Running } from '../../server/main.ts'
import { heavyCases, measure, type HeavyCase } from '../../scripts/bench/stall.ts'

// Issue #12: one request must not hold the event loop that every world shares. The heaviest request of each kind
// runs while a client polls /healthz back to back; structure is asserted, never time: /healthz is answered, more
// than once, while the heavy request is being worked on (before its response headers). Times: `npm run bench -- --only stall`.
let server: Running
let cases: HeavyCase[]
let agent = ''
let token = ''
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: 'stall-test', worlds: [{ id: 'heavy', seed: 'demo', seedValue: 1 }] })
  agent = server.agentUrl
  token = server.worlds.credentials('heavy')[0]!.googleToken!
  cases = await heavyCases(agent, token, { files: 250, mails: 200 })
}, 120_000)
afterAll(() => server?.close())

describe('a heavy request shares the event loop', () => {
  // Turn-taking depends on the scheduler of a shared machine: a miss is retried before it counts.
  test('/healthz is answered while each of the heaviest requests is in flight', { timeout: 120_000, retry: 2 }, async () => {
    const report: string[] = []
    for (const c of cases) {
      const f = await measure(`${agent}/healthz`, c)
      report.push(`${c.name}: ${f.requestMs.toFixed(0)} ms, /healthz answered ${f.beforeHeaders} times before its headers, ${f.during} in all, worst ${f.worstHealthzMs.toFixed(0)} ms`)
      expect(f.status, c.name).toBe(200)
      // One answer may come before the server picks the heavy request up; more mean it handed over turns.
      // A request done within the 100 ms target cannot stall beyond it, so one answer is enough there. A
      // per-second series expands one day per library call (an 86,400-entry table), so on a fast machine its whole
      // page may fit in one turn: there it must only not starve /healthz (known gap, docs/security.md).
      if (f.requestMs >= 100) expect(f.beforeHeaders, c.name).toBeGreaterThanOrEqual(c.name.startsWith('calendar instances of a BYSECOND') ? 1 : 2)
      else expect(f.beforeHeaders, c.name).toBeGreaterThanOrEqual(1)
    }
    console.log(report.join('\n'))
  })

  test('a streamed listing is byte for byte what JSON.stringify gives, pretty or not', async () => {
    const auth = { authorization: `Bearer ${token}` }
    const path = '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&maxResults=600'
    for (const [suffix, indent] of [['', 2], ['&prettyPrint=false', undefined]] as const) {
      const text = await (await fetch(`${agent}${path}${suffix}`, { headers: auth })).text()
      const parsed = JSON.parse(text) as { items: unknown[] }
      expect(parsed.items.length).toBe(600)
      expect(text).toBe(JSON.stringify(parsed, null, indent))
    }
    const files = await (await fetch(`${agent}/drive/v3/files?pageSize=1000&fields=files(id,name,owners)`, { headers: auth })).text()
    expect(files).toBe(JSON.stringify(JSON.parse(files), null, 2))
  })
})
