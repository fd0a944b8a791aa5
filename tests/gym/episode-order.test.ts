import { describe, expect, it } from 'vitest'
import { requestKeys, sharingOrder } from '../../gym/episode-order.ts'
import { createGym, type Gym } from '../../gym/index.ts'
import { loadSample } from '../../gym/corpus.ts'
import { runProgram, httpStep as http } from '../../gym/program.ts'
import { planAttacks } from '../../gym/attacks/index.ts'
import { SharedPrefix, type Sent } from '../../gym/shared-prefix.ts'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import type { CallResult } from '../../gym/episode.ts'

/**
 * Validation runs a task's episodes in the order that shares the most requests (gym/episode-order.ts,
 * docs/decisions/0339): sorted by the steps they start with, as written.
 */

const get = (path: string) => http('GET', path)
const done: ProgramStep = { tool: 'done', args: {} }
const [a, b, c, d] = ['/a', '/b', '/c', '/d'].map(get) as [ProgramStep, ProgramStep, ProgramStep, ProgramStep]

const lcp = (x: readonly string[], y: readonly string[]) => {
  let i = 0
  while (i < x.length && i < y.length && x[i] === y[i]) i++
  return i
}
/** Steps each episode of `order` has in common with the one before it. */
const shared = (keys: string[][], order: number[]) =>
  order.slice(1).reduce((sum, at, i) => sum + lcp(keys[order[i]!]!, keys[at]!), 0)

function permutations(n: number): number[][] {
  if (n === 0) return [[]]
  const insert = (p: number[], i: number) => [...p.slice(0, i), n - 1, ...p.slice(i)]
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => insert(p, i)))
}

describe('sharingOrder', () => {
  it('puts episodes with the same first steps next to each other, a prefix before what it begins', () => {
    const programs = [[], [a, b, c, done], [a, d], [b, a], [a, b], [a, b, c, d], [a, d, done]]
    expect(sharingOrder(programs)).toEqual([0, 4, 1, 5, 2, 6, 3])
  })

  it('reads steps up to the first done only, and keeps the given order among equal ones', () => {
    expect(requestKeys([a, done, b])).toEqual(requestKeys([a]))
    expect(sharingOrder([[b], [a, done, c], [a], [b, done], []])).toEqual([4, 1, 2, 0, 3])
  })

  it('shares as many steps between neighbours as the best of all orders (every order of up to 6 programs)', () => {
    // A fixed pseudo-random sequence (no Math.random: the test must fail the same way every run).
    let seed = 7
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const steps = [a, b, c]
    for (let round = 0; round < 60; round++) {
      const programs = Array.from({ length: 2 + next(5) }, () => Array.from({ length: next(4) }, () => steps[next(3)]!))
      const keys = programs.map(requestKeys)
      const best = Math.max(...permutations(programs.length).map((p) => shared(keys, p)))
      expect(shared(keys, sharingOrder(programs)), JSON.stringify(keys)).toBe(best)
    }
  })
})

/** A chain that notes the key of every request its episodes make. */
class Noting extends SharedPrefix {
  keys: string[] = []
  override request(key: string, run: () => Promise<Sent>): Promise<CallResult> {
    this.keys.push(key)
    return super.request(key, run)
  }
}

/** Runs an episode (`episode`: one reset, run and closed) in the chain and returns the request keys it made. */
async function keysOf(chain: Noting, episode: () => Promise<unknown>) {
  const from = chain.keys.length
  await episode()
  return chain.keys.slice(from)
}

/** One episode of a program in the chain: reset, run, verified, closed. */
async function programEpisode(gym: Gym, task: TaskSpec, chain: SharedPrefix, program: readonly ProgramStep[]) {
  const ep = gym.reset(task, { shared: chain })
  try {
    await runProgram(ep, program)
    ep.verify()
  } finally {
    ep.close()
  }
}

// A task of every service (sample slots: light, medium, none, heavy), with attacks whose requests depend on answers.
const picks: [string, number][] = [
  ['gmail-label-sender', 3],
  ['slack-pin-final', 1],
  ['drive-organize', 0],
  ['calendar-rsvp', 1],
  ['docs-apply-suggestions', 0],
]

describe('the steps attack variants start with', () => {
  it('are the requests they make first as the actor, and the sharing order then replays more', async () => {
    const gym = createGym({ tasks: [], reuseWorlds: true })
    let replayedListed = 0
    let replayedSorted = 0
    try {
      for (const [family, slot] of picks) {
        const task = gym.prepare(loadSample(slot + 1, [family])[slot]!)
        const chain = new Noting(0)
        try {
          for (const p of planAttacks(gym, task, undefined, chain)) {
            const starts = p.variant.starts ?? []
            const expected = await keysOf(chain, () => programEpisode(gym, task, chain, starts))
            const made = await keysOf(chain, () => p.run())
            expect(made.slice(0, expected.length), `${task.id} ${p.attack.id}: ${p.variant.name}`).toEqual(expected)
            expect(expected.length).toBe(requestKeys(starts).length)
          }
        } finally {
          chain.dispose(gym.worlds)
        }
        // Every episode of validation, as listed and in the sharing order, in a chain that replays.
        const listed = (chain: SharedPrefix) => [
          ...[[], task.reference, ...task.nearMisses.map((n) => n.program)].map((program) => ({
            starts: program,
            run: () => programEpisode(gym, task, chain, program),
          })),
          ...planAttacks(gym, task, undefined, chain).map((p) => ({ starts: p.variant.starts ?? [], run: p.run })),
        ]
        for (const sorted of [false, true]) {
          const chain = new SharedPrefix()
          try {
            const episodes = listed(chain)
            const order = sorted ? sharingOrder(episodes.map((e) => e.starts)) : episodes.map((_, i) => i)
            if (sorted) expect(order, task.id).not.toEqual(episodes.map((_, i) => i))
            for (const i of order) await episodes[i]!.run()
            if (sorted) replayedSorted += chain.replayed
            else replayedListed += chain.replayed
          } finally {
            chain.dispose(gym.worlds)
          }
        }
      }
    } finally {
      gym.worlds.close()
    }
    expect(replayedSorted).toBeGreaterThan(replayedListed)
  }, 300_000)
})
