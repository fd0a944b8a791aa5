import { describe, expect, it } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { AttackContext, attacks, outcomeOf } from '../../gym/attacks/index.ts'
import { World } from '../../envs/core/world.ts'
import { worldState } from '../../server/state.ts'
import { families } from '../../tasks-lite/families/index.ts'

// Verify on memoised dumps (docs/decisions/0297) judges exactly as on fresh worlds: validation's reused
// connections (memo hits, identical entities skipped by the diff) against one fresh world per episode (every
// entity rebuilt and compared field by field).
const task = (id: string, n: number) => TaskSpec.parse(families.find((f) => f.id === id)!.generate(n))
const tasks = [
  task('gmail-label-sender', 1),
  task('slack-pin-final', 1),
  task('drive-organize', 1),
  task('calendar-reschedule-instance', 1),
  task('docs-handbook-update', 1),
]
const BULK = ['delete-and-recreate', 'mass-change', 'over-share']

type Gym = ReturnType<typeof createGym>
type Ep = ReturnType<Gym['reset']>

/** Every judged episode of a task (reference, no-op, near misses, bulk attacks) as JSON: verdict, diff, outcome. */
async function verdicts(gym: Gym, t: TaskSpec, check?: (ep: Ep) => void): Promise<string[]> {
  const out: string[] = []
  const episode = async (body: (ep: Ep) => Promise<unknown>) => {
    const ep = gym.reset(t)
    try {
      await body(ep)
      const result = ep.verify()
      check?.(ep)
      out.push(JSON.stringify({ result, diff: ep.lastVerified!.diff, outcome: outcomeOf(ep, ep.lastVerified!.diff) }))
    } finally {
      ep.close()
    }
  }
  await episode((ep) => runProgram(ep, t.reference))
  await episode(async () => {})
  for (const nm of t.nearMisses) await episode((ep) => runProgram(ep, nm.program))
  for (const a of attacks.filter((x) => BULK.includes(x.id))) {
    for (const v of a.variants(t)) await episode((ep) => v.run(new AttackContext(gym, t, ep)))
  }
  return out
}

/** The final state on a new connection (nothing memoised) equals the one verify judged. */
function judgedFreshState(ep: Ep) {
  const copy = World.from(ep.entry.world.snapshot())
  try {
    expect(JSON.stringify(ep.lastVerified!.final), ep.task.id).toBe(JSON.stringify(worldState(copy)))
  } finally {
    copy.close()
  }
}

describe('Episode.verify with memoised dumps', () => {
  it('gives the same verdicts, diffs and attack outcomes on reused connections as on fresh worlds', async () => {
    const reused = createGym({ tasks: [], reuseWorlds: true })
    const fresh = createGym({ tasks: [], freshWorlds: true })
    try {
      for (const t of tasks) {
        const a = await verdicts(fresh, t, judgedFreshState)
        const b = await verdicts(reused, t)
        expect(a.length, t.id).toBeGreaterThan(4)
        expect(b, t.id).toEqual(a)
        // Twice on the same connections: the second round is served from the memo.
        expect(await verdicts(reused, t), t.id).toEqual(a)
      }
    } finally {
      reused.worlds.close()
      fresh.worlds.close()
    }
  }, 240_000)
})

describe('delete-and-recreate: re-insert mail, delete originals', () => {
  it('re-inserts the stored bytes through the API without reading them over HTTP, and is refused', async () => {
    const gym = createGym({ tasks: [] })
    const t = task('gmail-label-sender', 2)
    const v = attacks
      .find((a) => a.id === 'delete-and-recreate')!
      .variants(t)
      .find((x) => x.name === 're-insert mail, delete originals')!
    const ep = gym.reset(t)
    try {
      await v.run(new AttackContext(gym, t, ep))
      const rows = ep.actions()
      const one = /^\/gmail\/v1\/users\/me\/messages\/[^/]+$/
      // The reference reads one message's headers; nothing reads a message's bytes (format=raw) any more.
      const gets = rows.filter((r) => r.method === 'GET' && one.test(r.path))
      expect(gets.length).toBeGreaterThan(0)
      expect(gets.filter((r) => /\braw\b/.test(String(r.query)))).toEqual([])
      const inserts = rows.filter((r) => r.method === 'POST' && r.path === '/gmail/v1/users/me/messages')
      const deletes = rows.filter((r) => r.method === 'DELETE' && one.test(r.path))
      expect(inserts.length).toBeGreaterThan(0)
      expect(deletes.length).toBe(inserts.length)
      expect(ep.verify().reward).toBeLessThanOrEqual(0)
      // Every deleted message came back with the same bytes (what a reader sees, sender and recipients).
      const diff = ep.lastVerified!.diff.filter((c) => c.service === 'gmail' && c.collection === 'messages')
      const seen = (m: unknown) => {
        const { from, to, cc, subject, visibleText, attachments } = m as Record<string, unknown>
        return JSON.stringify({ from, to, cc, subject, visibleText, attachments })
      }
      const deleted = diff.filter((c) => c.op === 'deleted').map((c) => seen(c.op === 'deleted' && c.before))
      const inserted = diff.filter((c) => c.op === 'inserted').map((c) => seen(c.op === 'inserted' && c.after))
      expect(deleted.length).toBe(deletes.length)
      expect([...inserted].sort()).toEqual([...deleted].sort())
    } finally {
      ep.close()
      gym.worlds.close()
    }
  }, 60_000)
})
