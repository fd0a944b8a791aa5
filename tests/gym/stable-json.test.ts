import { describe, expect, it } from 'vitest'
import { StableJson } from '../../gym/attacks/stable-json.ts'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { families } from '../../tasks-lite/families/index.ts'

/** The copy attack fingerprints stringified before docs/decisions/0342 (the reference StableJson must equal). */
function reference(leaveOut: RegExp, v: unknown): string | undefined {
  const stable = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(stable)
    if (x && typeof x === 'object')
      return Object.fromEntries(
        Object.entries(x)
          .filter(([k]) => !leaveOut.test(k))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, y]) => [k, stable(y)]),
      )
    return x
  }
  return JSON.stringify(stable(v))
}

const LEAVE_OUT = /^(id|ts|size)$/

/** A deterministic stream of awkward values: index-like keys, left-out keys, holes, undefined, case, non-ASCII. */
function values(n: number): unknown[] {
  let seed = 7
  const next = (k: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % k
  }
  const keys = [
    'id',
    'ts',
    'size',
    'a',
    'B',
    'b',
    '_x',
    'Ä',
    'z1',
    'z10',
    '0',
    '2',
    '10',
    '01',
    '-1',
    '4294967294',
    '4294967295',
    '__proto__',
    'toJSON',
    'labelIds',
    'émile',
    'Zeta',
    '\u{1F600}',
    '',
  ]
  const value = (depth: number): unknown => {
    const kind = next(depth > 3 ? 6 : 9)
    if (kind === 0) return null
    if (kind === 1) return next(2) === 0
    if (kind === 2) return [0, -0, 1.5, NaN, Infinity, 1e21][next(6)]
    if (kind === 3) return ['', 'x', 'ÿ', '"q"\n', '\ud800', 'SENT'][next(6)]
    if (kind === 4) return undefined
    if (kind === 5) return () => 1
    if (kind === 6 || kind === 7) {
      const o: Record<string, unknown> = {}
      for (let i = next(6); i > 0; i--)
        Object.defineProperty(o, keys[next(keys.length)]!, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        })
      return o
    }
    const a: unknown[] = []
    for (let i = next(5); i > 0; i--) a.push(value(depth + 1))
    if (next(4) === 0) a[a.length + 1] = 'after a hole'
    return a
  }
  return Array.from({ length: n }, () => value(0))
}

describe('StableJson.stringify', () => {
  it('equals JSON.stringify of the filtered, sorted copy on awkward values', () => {
    const stable = new StableJson(LEAVE_OUT)
    const all = values(3000)
    expect(all.filter((v) => v && typeof v === 'object' && !Array.isArray(v)).length).toBeGreaterThan(300)
    for (const v of all) expect(stable.stringify(v)).toBe(reference(LEAVE_OUT, v))
    // The same key lists again, now from the kept orders.
    for (const v of all) expect(stable.stringify(v)).toBe(reference(LEAVE_OUT, v))
  })

  it('lists array-index keys first, ascending, as the copy does', () => {
    const stable = new StableJson(LEAVE_OUT)
    const v = { b: 1, 10: 2, 2: 3, '01': 4, 4294967295: 5, 4294967294: 6, a: [{ 3: 'x', 1: 'y', id: 'z' }] }
    expect(stable.stringify(v)).toBe(reference(LEAVE_OUT, v))
    expect(stable.stringify(v)).toBe(
      '{"2":3,"10":2,"4294967294":6,"01":4,"4294967295":5,"a":[{"1":"y","3":"x"}],"b":1}',
    )
  })

  it('keeps the order of each key list apart from lists that join to the same text', () => {
    const stable = new StableJson(LEAVE_OUT)
    const one = { 'b\0a': 1, c: 2 }
    const two = { b: 1, 'a\0c': 2 }
    for (const v of [one, two, one, two]) expect(stable.stringify(v)).toBe(reference(LEAVE_OUT, v))
  })

  it('equals the reference on every entity of dumped worlds', () => {
    const gym = createGym({ tasks: [] })
    const volatile = /^(id|threadId|internalDate|ts|modifiedTime|size)$/
    const stable = new StableJson(volatile)
    try {
      let n = 0
      for (const id of ['gmail-label-sender', 'slack-pin-final', 'drive-organize', 'docs-handbook-update']) {
        const t = TaskSpec.parse(families.find((f) => f.id === id)!.generate(1))
        const ep = gym.reset(t)
        try {
          for (const service of Object.values(ep.initial.services)) {
            for (const collection of Object.values(service.entities)) {
              for (const entity of Object.values(collection)) {
                expect(stable.stringify(entity)).toBe(reference(volatile, entity))
                n++
              }
            }
          }
        } finally {
          ep.close()
        }
      }
      expect(n).toBeGreaterThan(500)
    } finally {
      gym.worlds.close()
    }
  }, 60_000)
})
