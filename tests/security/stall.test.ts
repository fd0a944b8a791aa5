import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startServer, type Running } from '../../server/main.ts'
import { heavyCases, measure, type HeavyCase } from '../../scripts/bench/stall.ts'

// Issue #12: one request must not hold the event loop that every world shares. The heaviest request of each kind
// runs while a client polls /healthz back to back; structure is asserted, never time: /healthz is answered, more
// than once, while the heavy request is being worked on (before its response headers). Times:
// `npm run bench -- --only stall`.
let server: Running
let cases: HeavyCase[]
let refused: string[]
let agent = ''
let token = ''
beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    adminToken: 'stall-test',
    worlds: [{ id: 'heavy', seed: 'demo', seedValue: 1 }],
  })
  agent = server.agentUrl
  const user = server.worlds.credentials('heavy')[0]!
  token = user.googleToken!
  ;({ cases, refused } = await heavyCases(agent, token, user.slackUserToken!, { files: 250, mails: 200, slack: 300 }))
}, 180_000)
afterAll(() => server?.close())

describe('a heavy request shares the event loop', () => {
  // Turn-taking depends on the scheduler of a shared machine: a miss is retried before it counts.
  const slow = { timeout: 240_000, retry: 2 }
  test('/healthz is answered while each of the heaviest requests is in flight', slow, async () => {
    const report: string[] = []
    for (const c of cases) {
      const f = await measure(`${agent}/healthz`, c)
      const seen = `/healthz answered ${f.beforeHeaders} times before its headers, ${f.during} in all`
      report.push(`${c.name}: ${f.requestMs.toFixed(0)} ms, ${seen}, worst ${f.worstHealthzMs.toFixed(0)} ms`)
      expect(f.status, c.name).toBe(200)
      // One answer may come before the server picks the heavy request up; more mean it handed over turns. A
      // request done within the 100 ms target cannot stall beyond it. events.instances expands its (at most 730)
      // instances in one call, which walks each occurrence once (tests/calendar/time/simple-rule.test.ts), and
      // conversations.history answers at most 999 messages in one turn: those are timed by the bench only.
      // A batch answers its headers at once and runs its calls as its body is read: it counts answers until the
      // body's end; any other request, answers before its headers (its work is done before them).
      const oneCall = c.name.startsWith('calendar instances of') || c.name.startsWith('slack conversations.history')
      const batch = c.name.includes('batch')
      if (f.requestMs >= 100 && !oneCall) expect(batch ? f.during : f.beforeHeaders, c.name).toBeGreaterThanOrEqual(2)
    }
    console.log(report.join('\n'))
  })

  test("stores the attacker's series but a BYWEEKNO rule of 86,400 times a day", () => {
    expect(refused).toEqual(['weekno (400)'])
    const names = cases.map((c) => c.name)
    const kinds = ['BYYEARDAY×BYSECOND', 'COUNT=999,999', 'never matches', 'drive batch of 100', 'slack search']
    for (const kind of kinds) {
      expect(
        names.some((n) => n.includes(kind)),
        kind,
      ).toBe(true)
    }
  })

  test('a streamed listing is byte for byte what JSON.stringify gives, pretty or not', async () => {
    const auth = { authorization: `Bearer ${token}` }
    const path =
      '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&maxResults=600'
    for (const [suffix, indent] of [
      ['', 2],
      ['&prettyPrint=false', undefined],
    ] as const) {
      const text = await (await fetch(`${agent}${path}${suffix}`, { headers: auth })).text()
      const parsed = JSON.parse(text) as { items: unknown[] }
      expect(parsed.items.length).toBe(600)
      expect(text).toBe(JSON.stringify(parsed, null, indent))
    }
    const files = await (
      await fetch(`${agent}/drive/v3/files?pageSize=1000&fields=files(id,name,owners)`, { headers: auth })
    ).text()
    expect(files).toBe(JSON.stringify(JSON.parse(files), null, 2))
  })
})
