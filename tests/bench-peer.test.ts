import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { PEER_CALLS_PER_TOKEN, PEER_TOKENS, peerToken, peerTokens, processCpu } from '../scripts/bench/peer.ts'

// The peer (`emulate@0.12.2`) answers 403 past 5,000 calls per token per hour, per server.
const PEER_LIMIT = 5000

describe('peer bench tokens', () => {
  test('every call uses a seeded token, none more than the peer allows', () => {
    const seeded = new Set(peerTokens())
    expect(seeded.size).toBe(PEER_TOKENS)
    expect(peerToken(0)).toBe('bench-token') // the cold section's calls keep the token they always had
    const uses = new Map<string, number>()
    for (let n = 0; n < PEER_TOKENS * PEER_CALLS_PER_TOKEN; n++) {
      const token = peerToken(n)
      uses.set(token, (uses.get(token) ?? 0) + 1)
    }
    expect([...uses.keys()].filter((t) => !seeded.has(t))).toEqual([])
    expect(uses.size).toBe(PEER_TOKENS)
    expect(Math.max(...uses.values())).toBeLessThan(PEER_LIMIT)
  })

  test('past the seeded tokens it refuses instead of reusing one', () => {
    expect(() => peerToken(PEER_TOKENS * PEER_CALLS_PER_TOKEN)).toThrow(/more than/)
  })
})

describe('peer bench CPU by thread', () => {
  test.skipIf(!existsSync('/proc/self/task'))('reads the main thread apart from the process, within it', () => {
    const before = processCpu(process.pid)
    // Work on this thread until its CPU reading moves (the clock ticks in 10 ms steps; the tick may fall between the
    // first two readings, so the loop may not turn at all).
    let after = processCpu(process.pid)
    while (after.mainMs === before.mainMs) after = processCpu(process.pid)
    expect(after.mainMs).toBeGreaterThan(before.mainMs)
    expect(after.mainMs).toBeLessThanOrEqual(after.cpuMs)
    expect(after.cpuMs - before.cpuMs).toBeGreaterThanOrEqual(0)
    expect(after.sysMs).toBeLessThanOrEqual(after.cpuMs)
  })
})
