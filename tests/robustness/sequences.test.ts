import { describe, expect, test } from 'vitest'
import { runSequence } from './fuzz/engine.ts'
import { opsFor } from './fuzz/ops.ts'

// The sequence fuzzer (tests/robustness/fuzz/, docs/decisions/0442) on a few fixed seeds: random runs of mostly valid
// calls through googleapis and @slack/web-api with snapshots, restores and forks between them, every invariant
// checked after each step; each seed runs twice on fresh worlds and must answer byte for byte the same.
// Longer campaigns: `node --import tsx scripts/fuzz-sequences.ts --seeds 1-200 --steps 300 --twice`.

const SEEDS = [2, 3, 5]
const STEPS = 120

describe('sequences of official-client calls', () => {
  test.each(SEEDS)('seed %i keeps every invariant and replays byte for byte', async (seed) => {
    const { ops, setup } = opsFor()
    const first = await runSequence(seed, STEPS, ops, setup)
    expect(first.failure).toBeUndefined()
    expect(first.transcript.length).toBeGreaterThan(STEPS)
    const again = await runSequence(seed, STEPS, ops, setup)
    expect(again.transcript).toEqual(first.transcript)
    expect(again.state).toBe(first.state)
  })
})
