import { describe, expect, test } from 'vitest'
import { PEER_CALLS_PER_TOKEN, PEER_TOKENS, peerToken, peerTokens } from '../scripts/bench/peer.ts'

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
