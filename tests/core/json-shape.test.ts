import { describe, expect, it } from 'vitest'
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
})
