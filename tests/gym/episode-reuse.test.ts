import { afterEach, describe, expect, it } from 'vitest'
import { createGym, runProgram, type Gym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { WorldLostWrites } from '../../envs/core/world.ts'
import { worldState } from '../../server/state.ts'
import { families } from '../../tasks-lite/families/index.ts'

// docs/decisions/0450: a training loop's episodes reuse idle connections of their task's template under a guarded
// hold; what an agent sees and what verify judges must be what a connection of its own gives.
const task = TaskSpec.parse(families.find((f) => f.id === 'gmail-drive-invoice')!.generate(3))
const labels = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/labels' } }
const upload = {
  tool: 'http_request',
  arguments: { method: 'POST', path: '/upload/drive/v3/files', query: { uploadType: 'media' }, body: 'note' },
}
const gyms: Gym[] = []
const gymOf = (opts: Parameters<typeof createGym>[0] = {}) => {
  const gym = createGym({ tasks: [], ...opts })
  gyms.push(gym)
  return gym
}
/** An episode of `task` on a held connection: one has ended, so the task recurs and the next is held. */
const heldEpisode = (gym: Gym) => {
  gym.reset(task).close()
  const ep = gym.reset(task)
  expect(ep.entry.world.held).toBe(true)
  return ep
}
afterEach(() => {
  for (const gym of gyms.splice(0)) gym.worlds.close()
})

/** The reference solution's answers and final state, and the verdict, on one episode of `gym`. */
async function solve(gym: Gym) {
  const ep = gym.reset(task)
  const answers: string[] = []
  const call = ep.call.bind(ep)
  ep.call = async (a) => {
    const r = await call(a)
    answers.push(r.text)
    return r
  }
  await runProgram(ep, task.reference)
  const verdict = ep.verify()
  const state = JSON.stringify(worldState(ep.entry.world))
  const held = ep.entry.world.held
  ep.close()
  return { answers, verdict, state, held }
}

describe('episodes on reused connections (guarded holds)', () => {
  it('answer, judge and end in the state a connection of its own gives, episode after episode', async () => {
    const own = await solve(gymOf({ freshWorlds: true }))
    expect(own.held).toBe(false)
    expect(own.verdict.passed).toBe(true)
    const gym = gymOf()
    for (let round = 0; round < 4; round++) {
      const reused = await solve(gym)
      // The first episode of a task opens a connection of its own (nothing says the task will recur); once one has
      // ended, the next is held and given back, and later ones reuse it.
      expect(reused.held, `round ${round}`).toBe(round > 0)
      expect(reused.answers, `round ${round}`).toEqual(own.answers)
      expect(reused.verdict, `round ${round}`).toEqual(own.verdict)
      expect(reused.state, `round ${round}`).toBe(own.state)
    }
    // The next episode starts from the template, not from the last one's writes: doing nothing fails.
    const idle = gym.reset(task)
    expect(idle.verify().passed).toBe(false)
    expect(JSON.stringify(idle.lastVerified!.final)).toBe(JSON.stringify(idle.initial))
    idle.close()
  })

  it('runs several episodes of one task at once, each in its own world', async () => {
    const gym = gymOf()
    const first = gym.reset(task)
    expect(first.entry.world.held).toBe(false)
    first.close()
    const [a, b] = [gym.reset(task), gym.reset(task)]
    expect([a.entry.world.held, b.entry.world.held]).toEqual([true, true])
    expect(a.entry.world).not.toBe(b.entry.world)
    await runProgram(a, task.reference)
    expect(a.verify().passed).toBe(true)
    expect(b.verify().passed).toBe(false)
    const worlds = [a.entry.world, b.entry.world]
    a.close()
    b.close()
    // Both connections went back to the pool and serve the next two episodes from the template.
    const [c, d] = [gym.reset(task), gym.reset(task)]
    expect(worlds).toContain(c.entry.world)
    expect(worlds).toContain(d.entry.world)
    expect(c.verify().passed).toBe(false)
    expect(d.verify().passed).toBe(false)
    c.close()
    d.close()
  })

  it('holds no more of one task at once than the pool keeps of it', async () => {
    const gym = gymOf()
    gym.reset(task).close()
    const live = Array.from({ length: 12 }, () => gym.reset(task))
    expect(live.map((ep) => ep.entry.world.held)).toEqual([...Array(8).fill(true), ...Array(4).fill(false)])
    for (const ep of live) ep.close()
    // The 8 held ones were given back; the next 8 episodes reuse them.
    const again = Array.from({ length: 8 }, () => gym.reset(task))
    const worlds = new Set(live.slice(0, 8).map((ep) => ep.entry.world))
    expect(again.every((ep) => worlds.has(ep.entry.world))).toBe(true)
    for (const ep of again) ep.close()
  })

  it('ends the hold and keeps the writes before an upload, and never reuses that connection', async () => {
    const run = async (gym: Gym) => {
      const ep = gym.reset(task)
      const first = await ep.call(labels)
      const heldBefore = ep.entry.world.held
      const sent = await ep.call(upload)
      const heldAfter = ep.entry.world.held
      await runProgram(ep, task.reference)
      const out = {
        texts: [first.text, sent.text],
        verdict: ep.verify(),
        state: JSON.stringify(worldState(ep.entry.world)),
        bytes: gym.worlds.snapshot(ep.entry.id, 'end').bytes,
      }
      const world = ep.entry.world
      ep.close()
      return { out, heldBefore, heldAfter, world }
    }
    const own = await run(gymOf({ freshWorlds: true }))
    const gym = gymOf()
    gym.reset(task).close()
    const reused = await run(gym)
    expect([reused.heldBefore, reused.heldAfter]).toEqual([true, false])
    expect(reused.out.texts).toEqual(own.out.texts)
    expect(reused.out.verdict).toEqual(own.out.verdict)
    expect(reused.out.state).toBe(own.out.state)
    expect(reused.out.bytes.equals(own.out.bytes)).toBe(true)
    const next = gym.reset(task)
    expect(next.entry.world).not.toBe(reused.world)
    expect(next.verify().passed).toBe(false)
    next.close()
  })

  it('snapshots, restores and forks an episode world (the hold ends; nothing is lost)', async () => {
    const gym = gymOf()
    const ep = heldEpisode(gym)
    await runProgram(ep, task.reference)
    const id = ep.entry.id
    const before = JSON.stringify(worldState(ep.entry.world))
    const solved = gym.worlds.snapshot(id, 'solved')
    expect(ep.entry.world.held).toBe(false)
    expect(JSON.stringify(worldState(ep.entry.world))).toBe(before)
    const fork = gym.worlds.fork(id)
    expect(JSON.stringify(worldState(fork.world))).toBe(before)
    gym.worlds.restore(id, 'baseline')
    expect(ep.verify().passed).toBe(false)
    gym.worlds.restore(id, 'solved')
    expect(ep.verify().passed).toBe(true)
    gym.worlds.delete(fork.id)
    ep.close()
    // The same bytes as the same episode on a connection of its own.
    const ownGym = gymOf({ freshWorlds: true })
    const own = ownGym.reset(task)
    await runProgram(own, task.reference)
    const ownBytes = ownGym.worlds.snapshot(own.entry.id, 'solved').bytes
    expect(solved.bytes.equals(ownBytes)).toBe(true)
    own.close()
  })

  it('refuses a world whose held transaction SQLite rolled back, and never reuses it', async () => {
    const gym = gymOf()
    const ep = heldEpisode(gym)
    await runProgram(ep, task.reference)
    const world = ep.entry.world
    // What SQLite does to a transaction on some failures (SQLITE_FULL, SQLITE_NOMEM): the episode's writes are gone.
    world.raw.exec('ROLLBACK')
    // Every later request is refused (Deviation: no real API loses answered writes; 503 backendError).
    const after = await ep.call(labels)
    expect(after.status).toBe(503)
    expect(after.text).toContain('lost every write since it was held')
    expect(() => ep.verify()).toThrow(WorldLostWrites)
    ep.close()
    const next = gym.reset(task)
    expect(next.entry.world).not.toBe(world)
    next.close()
  })
})
