import { describe, expect, it, vi } from 'vitest'
import { jsonShapeFault, objectWiderThan } from '../../envs/core/json-width.ts'
import { nestedDeeperThan } from '../../server/app.ts'
import { Rng } from '../../envs/core/rng.ts'

/** What the two separate scans say (the agent app's order: depth first). */
const twoScans = (text: string, depth: number, members: number) =>
  nestedDeeperThan(text, depth) ? 'deep' : objectWiderThan(text, members) ? 'wide' : undefined

describe('jsonShapeFault', () => {
  it('answers what nestedDeeperThan then objectWiderThan answer, for well-formed and malformed text', () => {
    const rng = new Rng(7)
    const alphabet = ['{', '}', '[', ']', '"', '\\', ',', 'a', ':', ' ']
    const seen = { deep: 0, wide: 0, none: 0 }
    for (let n = 0; n < 20_000; n++) {
      const length = rng.int(0, 60)
      let text = ''
      for (let i = 0; i < length; i++) text += rng.pick(alphabet)
      const [depth, members] = [rng.int(0, 4), rng.int(1, 4)]
      const want = twoScans(text, depth, members)
      seen[want ?? 'none']++
      expect(jsonShapeFault(text, depth, members), text).toBe(want)
    }
    // The sample holds every answer, so a scan that mixed them up would be caught.
    expect(Math.min(seen.deep, seen.wide, seen.none)).toBeGreaterThan(500)
  })

  it('finds a deep object after a wide one, and a wide one at the limits the app uses', () => {
    const wide = `{${Array.from({ length: 1001 }, (_, i) => `"k${i}":1`).join(',')}}`
    expect(jsonShapeFault(wide, 64, 1000)).toBe('wide')
    expect(jsonShapeFault(`{${wide.slice(1, -1).split(',').slice(0, 1000).join(',')}}`, 64, 1000)).toBeUndefined()
    expect(jsonShapeFault(`[${wide},${'['.repeat(65)}${']'.repeat(65)}]`, 64, 1000)).toBe('deep')
    expect(jsonShapeFault(`{"a":"${'{'.repeat(100)}"}`, 64, 1000)).toBeUndefined()
  })

  it('crosses a string of many escapes in linear work (the next quote is not searched again at every escape)', () => {
    // 20,000 escaped characters, the closing quote far away: every escape once searched the rest for a quote.
    const text = `{"a":"${'\\n'.repeat(20_000)}","b":[1,2]}`
    const indexOf = String.prototype.indexOf
    let scanned = 0
    const spy = vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (this: string, s: string, from = 0) {
      const at = indexOf.call(this, s, from)
      scanned += (at === -1 ? this.length : at) - from
      return at
    })
    try {
      expect(jsonShapeFault(text, 64, 1000)).toBeUndefined()
    } finally {
      spy.mockRestore()
    }
    expect(scanned).toBeLessThan(4 * text.length)
  })
})
