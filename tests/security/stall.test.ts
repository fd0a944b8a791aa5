import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startServer, type Running } from '../../server/main.ts'
import { turnsHanded } from '../../envs/core/turns.ts'
import { heavyCases, measure, type HeavyCase } from '../../scripts/bench/stall.ts'

// Issue #12: one request must not hold the event loop that every world shares. The heaviest request of each kind
// runs while a client polls /healthz back to back; structure is asserted, never time: the server hands the event
// loop over more than once while the heavy request is worked on, and /healthz is answered in that time. Times:
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
      const batch = c.name.includes('batch')
      // A batch hands turns over between its calls; any other request, as its handler computes the answer.
      const f = await measure(`${agent}/healthz`, c, () => turnsHanded(batch ? 'all' : 'work'))
      const turns = `${f.turnsBeforeHeaders} turns handed over before its headers, ${f.turnsDuring} in all`
      const seen = `/healthz answered ${f.beforeHeaders} and ${f.during} times`
      report.push(`${c.name}: ${f.requestMs.toFixed(0)} ms, ${turns}, ${seen}, worst ${f.worstHealthzMs.toFixed(0)} ms`)
      expect(f.status, c.name).toBe(200)
      // A request done within the 100 ms target cannot stall beyond it. events.instances expands its (at most 730)
      // instances in one call, which walks each occurrence once (tests/calendar/time/simple-rule.test.ts), and
      // conversations.history answers at most 999 messages in one turn: those are timed by the bench only.
      const oneCall = c.name.startsWith('calendar instances of') || c.name.startsWith('slack conversations.history')
      if (f.requestMs < 100 || oneCall) continue
      // The server's own count of turns handed over is what scheduling cannot blur: a 2-core host busy with other
      // test files may leave the poller's thread off the CPU at most of them. That the turns let I/O through is
      // what the poller shows: answered while the request was in flight (a batch answers its headers at once and
      // runs its calls as its body is read, so it counts until the body's end; any other request, before headers).
      expect(batch ? f.turnsDuring : f.turnsBeforeHeaders, c.name).toBeGreaterThanOrEqual(2)
      expect(batch ? f.during : f.beforeHeaders, c.name).toBeGreaterThanOrEqual(1)
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
