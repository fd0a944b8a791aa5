import { describe, expect, it } from 'vitest'
import { BoundedMap } from '../../envs/core/bounded-map.ts'

describe('BoundedMap', () => {
  it('drops the entry set longest ago once full, and never holds more than its limit', () => {
    const m = new BoundedMap<string, number>(3)
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) m.set(k, i)
    expect([...m.keys()]).toEqual(['b', 'c', 'd'])
    for (let i = 0; i < 10_000; i++) m.set(`k${i}`, i)
    expect(m.size).toBe(3)
    expect([...m.entries()]).toEqual([
      ['k9997', 9997],
      ['k9998', 9998],
      ['k9999', 9999],
    ])
  })

  it('overwrites a present key in place without dropping another', () => {
    const m = new BoundedMap<string, number>(2)
    m.set('a', 1).set('b', 2).set('a', 3)
    expect([...m.entries()]).toEqual([
      ['a', 3],
      ['b', 2],
    ])
  })

  it('recent() makes a hit the newest entry, so the least recently used goes first', () => {
    const m = new BoundedMap<string, number>(2)
    m.set('a', 1).set('b', 2)
    expect(m.recent('a')).toBe(1)
    m.set('c', 3)
    expect([...m.keys()]).toEqual(['a', 'c'])
    expect(m.recent('zz')).toBeUndefined()
    expect(m.size).toBe(2)
  })
})
