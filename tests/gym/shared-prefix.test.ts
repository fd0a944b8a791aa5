import { describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { loadSample } from '../../gym/corpus.ts'
import { validateTask } from '../../gym/validate.ts'
import { SharedPrefix } from '../../gym/shared-prefix.ts'
import type { Episode } from '../../gym/episode.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'

/**
 * Validation runs the episodes of a task in one world with one identity, rolled back between them (docs/decisions/
 * 0322); with `sharedPrefix` it also answers the requests an episode repeats from the episode before it and rolls the
 * world back where they part (gym/shared-prefix.ts, docs/decisions/0316, 0339). Verdicts must be exactly those of
 * separate worlds.
 */

const list = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/messages' } }
const labels = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/labels' } }
const label = (name: string) => ({
  tool: 'http_request',
  arguments: { method: 'POST', path: '/gmail/v1/users/me/labels', body: { name } },
})

const task = (): TaskSpec => TaskSpec.parse(gmailReplyPo.generate(4))

const labelNames = (ep: Episode) =>
  ep.entry.world.sqlite
    .prepare("SELECT name FROM gmail_labels WHERE name IN ('Alpha', 'Beta', 'Gamma') ORDER BY name")
    .pluck()
    .all()

/** A chain of `depth` over a fresh gym and task: `reset()` starts its next episode; everything is closed after. */
async function inChain(
  depth: number | undefined,
  body: (reset: () => Episode, shared: SharedPrefix) => Promise<void>,
  restartAfter?: number,
) {
  const gym = createGym({ tasks: [], reuseWorlds: true })
  const spec = task()
  const shared = new SharedPrefix(depth, restartAfter)
  try {
    await body(() => gym.reset(spec, { shared }), shared)
  } finally {
    shared.dispose(gym.worlds)
    gym.worlds.close()
  }
}

describe('SharedPrefix', () => {
  it("closes its world's connection when disposed; the task's next chain starts from the same state", async () => {
    const gym = createGym({ tasks: [], reuseWorlds: true })
    const spec = gym.prepare(task())
    const first = new SharedPrefix()
    const second = new SharedPrefix()
    try {
      const a = gym.reset(spec, { shared: first })
      const connection = a.entry.world.raw
      const before = [await a.call(labels), await a.call(list)]
      a.close()
      first.dispose(gym.worlds)
      expect(connection.open).toBe(false)
      // The template's bytes are read now (built again: the connection that built them is gone), the same start.
      const b = gym.reset(spec, { shared: second })
      expect(b.entry.world.raw).not.toBe(connection)
      expect([await b.call(labels), await b.call(list)]).toEqual(before)
      b.close()
    } finally {
      second.dispose(gym.worlds)
      gym.worlds.close()
    }
  })

  it('answers a repeated prefix from the path, and runs the rest in the state the episode built', () =>
    inChain(undefined, async (reset, shared) => {
      const a = reset()
      const first = [await a.call(list), await a.call(label('Alpha')), await a.call(labels)]
      expect(labelNames(a)).toEqual(['Alpha'])
      a.close()
      expect([shared.replayed, shared.ran]).toEqual([0, 3])

      const b = reset()
      const again = [await b.call(list), await b.call(label('Alpha'))]
      expect(shared.replayed).toBe(2)
      expect(again).toEqual(first.slice(0, 2))
      // A different request: the world goes back to where the episodes parted (Alpha made), then on for real.
      await b.call(label('Beta'))
      expect(shared.ran).toBe(4)
      expect(labelNames(b)).toEqual(['Alpha', 'Beta'])
      b.close()

      // The next episode parts at once: nothing of the others stays in its world.
      const c = reset()
      await c.call(label('Gamma'))
      expect(labelNames(c)).toEqual(['Gamma'])
      c.close()

      // An episode that only reads what the last one started with is answered without touching the world, and
      // its answers are its own copies.
      const d = reset()
      const r = await d.call(label('Gamma'))
      expect(shared.replayed).toBe(3)
      ;(r.body as { name: string }).name = 'changed'
      d.close()
      const e = reset()
      expect(((await e.call(label('Gamma'))).body as { name: string }).name).toBe('Gamma')
      e.close()
    }))

  it('answers again what a request gave, whatever its callers did to their copies (JSON, text, bytes)', () =>
    inChain(Infinity, async (reset, shared) => {
      const results = () => [
        { result: { status: 200, body: { items: [{ id: 'a' }] }, text: '{"items":[{"id":"a"}]}' }, json: true },
        { result: { status: 200, body: 'plain text', text: 'plain text' }, json: false },
        {
          result: { status: 200, body: { contentType: 'application/pdf', size: 3, base64: 'AAEC' }, text: 'AAEC' },
          json: false,
        },
        { result: { status: 400, body: { error: { code: 400, message: 'request refused' } }, text: '' }, json: false },
      ]
      const a = reset()
      const sent = results()
      const got = []
      for (const [i, s] of sent.entries()) got.push(await shared.request(`key ${i}`, async () => s))
      expect(got).toEqual(results().map((s) => s.result))
      // Callers may change what they were given: the bodies of a run request and of a replayed one.
      ;(got[0]!.body as { items: unknown[] }).items.push('changed')
      ;(got[2]!.body as { size: number }).size = 99
      ;(got[3]!.body as { error: object }).error = {}
      a.close()
      for (let round = 0; round < 2; round++) {
        const b = reset()
        const again = []
        const unexpected = () => Promise.reject(new Error('ran'))
        for (const i of sent.keys()) again.push(await shared.request(`key ${i}`, unexpected))
        expect(again).toEqual(results().map((s) => s.result))
        for (const r of again) if (typeof r.body === 'object') (r.body as { changed?: boolean }).changed = true
        b.close()
      }
      expect([shared.replayed, shared.ran]).toEqual([8, 4])
    }))

  it('shares prefixes up to its depth only', () =>
    inChain(1, async (reset, shared) => {
      for (let i = 0; i < 2; i++) {
        const ep = reset()
        await ep.call(list)
        await ep.call(labels)
        ep.close()
      }
      expect([shared.replayed, shared.ran]).toEqual([1, 3])
    }))

  it('starts an episode afresh once `restartAfter` requests ran since one last did', () =>
    inChain(
      Infinity,
      async (reset, shared) => {
        const episode = async (...calls: (typeof list)[]) => {
          const ep = reset()
          for (const c of calls) await ep.call(c)
          ep.close()
          return [shared.replayed, shared.ran]
        }
        expect(await episode(list, label('Alpha'))).toEqual([0, 2])
        expect(await episode(list, label('Alpha'), labels)).toEqual([2, 3])
        // Three ran since the world was last at the start: this episode runs from there, sharing nothing.
        expect(await episode(list, label('Alpha'), labels)).toEqual([2, 6])
        expect(await episode(list, label('Alpha'))).toEqual([2, 8])
        // Two since: shared again.
        expect(await episode(list, label('Alpha'), labels)).toEqual([4, 9])
      },
      3,
    ))

  it('at depth 0 keeps one identity and replays nothing, each episode from the start', () =>
    inChain(0, async (reset, shared) => {
      const a = reset()
      const first = [await a.call(list), await a.call(label('Alpha'))]
      const identity = [a.worldId, a.credentials().googleToken]
      a.close()
      const b = reset()
      expect([b.worldId, b.credentials().googleToken]).toEqual(identity)
      // The same requests run again for real, in the start state: the label is made again, not found.
      const again = [await b.call(list), await b.call(label('Alpha'))]
      expect(again).toEqual(first)
      expect(labelNames(b)).toEqual(['Alpha'])
      b.close()
      expect([shared.replayed, shared.ran]).toEqual([0, 4])
    }))

  it('does not share past a write it did not make', () =>
    inChain(undefined, async (reset, shared) => {
      const a = reset()
      await a.call(list)
      // A write outside the chain's requests (as an attack acting as another user would make).
      const me = a.credentials().id
      a.entry.world.tx((db) =>
        db.$client
          .prepare(
            'INSERT INTO gmail_labels (user_id, id, name, name_key, type) ' +
              "VALUES (?, 'Label_outside', 'Outside', 'outside', 'user')",
          )
          .run(me),
      )
      expect(JSON.stringify((await a.call(labels)).body)).toContain('Outside')
      a.close()
      const b = reset()
      await b.call(list)
      const after = await b.call(labels)
      // The listing ran again, in a world without the outside write.
      expect(shared.replayed).toBe(1)
      expect(shared.ran).toBe(3)
      expect(after.status).toBe(200)
      expect(JSON.stringify(after.body)).not.toContain('Outside')
      b.close()
    }))

  it('gives the verdicts of separate worlds for every episode of validation', async () => {
    // Families of every service and volume (sample slots: light, medium, none, heavy), service-account keys too.
    const picks: [string, number][] = [
      ['gmail-label-sender', 3],
      ['slack-pin-final', 1],
      ['drive-organize', 0],
      ['calendar-rsvp', 1],
      ['identity-offboard-leaver', 0],
      ['customer-escalation', 2],
      ['docs-apply-suggestions', 0],
    ]
    const tasks = picks.map(([family, slot]) => loadSample(slot + 1, [family])[slot]!)
    const gym = createGym({ tasks: [], reuseWorlds: true })
    try {
      for (const t of tasks) {
        const alone = await validateTask(gym, t, { isolated: true })
        const oneIdentity = await validateTask(gym, t, { sharedPrefix: false })
        const chained = await validateTask(gym, t)
        expect(oneIdentity, t.id).toEqual(alone)
        expect(chained, t.id).toEqual(alone)
        expect(chained.ok, t.id).toBe(true)
      }
    } finally {
      gym.worlds.close()
    }
  }, 300_000)
})
