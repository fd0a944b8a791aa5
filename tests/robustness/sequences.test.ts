import { describe, expect, test } from 'vitest'
import { runSequence } from './fuzz/engine.ts'
import { opsFor } from './fuzz/ops.ts'

// The sequence fuzzer (tests/robustness/fuzz/, docs/decisions/0442, 0445 and 0448) on a few fixed seeds: random runs of
// mostly valid calls through googleapis and @slack/web-api with snapshots, restores and forks between them, every
// invariant checked after each step; each seed runs twice on fresh worlds and must answer byte for byte the same.
// Longer campaigns: `node --import tsx scripts/fuzz-sequences.ts --seeds 1-200 --steps 300 --twice`.

const STEPS = 120
/** One user per service (0442); each seed failed on the old code on a different bug. */
const SINGLE = { services: ['gmail', 'calendar', 'docs', 'drive', 'slack'], seeds: [2, 3, 5], steps: STEPS }
/** Two users: mail between mailboxes, sharing, invitations, channel membership (0445); same. */
const CROSS = { services: ['drive', 'share', 'channels', 'mail', 'invites', 'calendar'], seeds: [6, 17], steps: STEPS }
/**
 * Label history, Cc/Bcc, filters, Ben's drafts, Slack DMs with the clock moved, user groups, shared drives; series
 * invitations (0448): on the old code seed 5 fails at step 19 (a group handle equal to a channel's name), seed 6 at
 * step 25 (a reminder fired at the jump's end, not its time), series seed 32 at step 15 (a guest added to a series
 * saw an instance cancelled before).
 */
const MORE = { services: ['mail', 'mailMore', 'dms', 'groups', 'drives'], seeds: [5, 6], steps: 40 }
const SERIES = { services: ['series'], seeds: [32], steps: 40 }
/**
 * Docs structure and Drive ownership transfer (0452): on the old code owners seed 1 fails at step 5 and seed 8 at step
 * 2 (a transfer to an outsider answered 400 `invalidSharingRequest`, not 403 across domains).
 */
const DOCS = { services: ['docStruct'], seeds: [3], steps: 40 }
const OWNERS = { services: ['owners'], seeds: [1, 8], steps: 40 }
/**
 * Docs headers, footers and footnotes; consumer ownership transfer (0456): on the old code docSegs seed 21 fails at
 * step 27 (a named range kept in a deleted footnote) and ownersConsumer seed 1 at step 3 (a grant to the owner's
 * own address answered 200, the owner's permission overwritten), seed 2 at step 19 (pendingOwner ignored).
 */
const SEGMENTS = { services: ['docSegs'], seeds: [21], steps: 40 }
const CONSUMERS = { services: ['ownersConsumer'], seeds: [1, 2], steps: 40 }
/** Docs tabs (0456): no bug found; kept as a regression seed. */
const TABS = { services: ['docTabs'], seeds: [2], steps: 40 }
/**
 * Docs batches of several requests and sections (0461): on the old code seed 2 fails at step 2 and seed 11 at step 21
 * (a header made at the first section break was not the document's); with only that fixed, seed 2 at step 30 and
 * seed 11 at step 35 (text written into a footnote whose reference an earlier request of the batch deleted: 200).
 */
const BATCHES = { services: ['docBatch'], seeds: [2, 11], steps: 40 }

describe('sequences of official-client calls', () => {
  for (const { services, seeds, steps } of [
    SINGLE,
    CROSS,
    MORE,
    SERIES,
    DOCS,
    OWNERS,
    SEGMENTS,
    CONSUMERS,
    TABS,
    BATCHES,
  ])
    test.each(seeds)(`${services.join(',')} seed %i keeps every invariant and replays byte for byte`, async (seed) => {
      const { ops, setup, world } = opsFor(services)
      const first = await runSequence(seed, steps, ops, setup, world)
      expect(first.failure).toBeUndefined()
      expect(first.transcript.length).toBeGreaterThan(steps)
      const again = await runSequence(seed, steps, ops, setup, world)
      expect(again.transcript).toEqual(first.transcript)
      expect(again.state).toBe(first.state)
    })
})
