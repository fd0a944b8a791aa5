import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'

// docs/decisions/0446: in Node 20's V8, an object literal that starts with a spread and adds a key (`{ ...base, x }`)
// gets a hidden class of its own every time once its builder is optimised, so every function that reads such objects
// misses its inline caches; objects filled key by key past ~16 keys fall into dictionary mode. The request path's
// hottest builders avoid both. The probe runs them warm in a child process (the intrinsics need
// --allow-natives-syntax) and reports, of 200 consecutive objects, how many changed hidden class and how many are
// dictionaries.
describe('hidden classes of the objects the request path builds', () => {
  test('each builder gives one hidden class, in fast mode', () => {
    const probe = join(import.meta.dirname, '..', 'support', 'hidden-class-probe.ts')
    const text = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', probe], {
      encoding: 'utf8',
      timeout: 120_000,
    })
    const report = JSON.parse(text.trim().split('\n').at(-1)!) as Record<
      string,
      { changes: number; dictionary: number }
    >
    expect(Object.keys(report).length).toBeGreaterThanOrEqual(7)
    for (const [name, r] of Object.entries(report)) expect({ name, ...r }).toEqual({ name, changes: 0, dictionary: 0 })
  }, 150_000)
})
