import { describe, expect, test } from 'vitest'
import { runSequence } from './fuzz/engine.ts'
import { opsFor } from './fuzz/ops.ts'

// The sequence fuzzer (tests/robustness/fuzz/, docs/decisions/0442 and 0445) on a few fixed seeds: random runs of
// mostly valid calls through googleapis and @slack/web-api with snapshots, restores and forks between them, every
// invariant checked after each step; each seed runs twice on fresh worlds and must answer byte for byte the same.
// Longer campaigns: `node --import tsx scripts/fuzz-sequences.ts --seeds 1-200 --steps 300 --twice`.

const STEPS = 120
/** One user per service (0442); each seed failed on the old code on a different bug. */
const SINGLE = { services: ['gmail', 'calendar', 'docs', 'drive', 'slack'], seeds: [2, 3, 5] }
/** Two users: mail between mailboxes, sharing, invitations, channel membership (0445); same. */
const CROSS = { services: ['drive', 'share', 'channels', 'mail', 'invites', 'calendar'], seeds: [6, 17] }

describe('sequences of official-client calls', () => {
  for (const { services, seeds } of [SINGLE, CROSS])
    test.each(seeds)(`${services.join(',')} seed %i keeps every invariant and replays byte for byte`, async (seed) => {
      const { ops, setup } = opsFor(services)
      const first = await runSequence(seed, STEPS, ops, setup)
      expect(first.failure).toBeUndefined()
      expect(first.transcript.length).toBeGreaterThan(STEPS)
      const again = await runSequence(seed, STEPS, ops, setup)
      expect(again.transcript).toEqual(first.transcript)
      expect(again.state).toBe(first.state)
    })
})
