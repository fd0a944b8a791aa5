import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
// @ts-expect-error: the launcher's helper is plain JavaScript without declarations
import { allocatorEnv, NON_TEMPORAL_TUNABLE } from '../../bin/allocator-env.mjs'

type Env = Record<string, string | undefined>
const add = allocatorEnv as (env: Env, platform?: string) => Record<string, string> | undefined

describe('launcher allocator environment', () => {
  test('adds the malloc thresholds and the non-temporal copy threshold on Linux', () => {
    expect(add({}, 'linux')).toEqual({
      MALLOC_MMAP_THRESHOLD_: '1073741824',
      MALLOC_TRIM_THRESHOLD_: '2147483648',
      GLIBC_TUNABLES: 'glibc.cpu.x86_non_temporal_threshold=0x400000',
    })
  })

  test("keeps the caller's own values and other tunables, and adds nothing once everything is set", () => {
    const env = { MALLOC_MMAP_THRESHOLD_: '5', GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }
    expect(add(env, 'linux')).toEqual({
      MALLOC_TRIM_THRESHOLD_: '2147483648',
      GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0:glibc.cpu.x86_non_temporal_threshold=0x400000',
    })
    const own = 'glibc.cpu.x86_non_temporal_threshold=0x10000:glibc.malloc.tcache_count=0'
    const all = { MALLOC_MMAP_THRESHOLD_: '1', MALLOC_TRIM_THRESHOLD_: '2', GLIBC_TUNABLES: own }
    expect(add(all, 'linux')).toBe(undefined)
  })

  test('adds nothing off Linux or when WSGYM_NO_MALLOC_ENV=1', () => {
    expect(add({}, 'darwin')).toBe(undefined)
    expect(add({ WSGYM_NO_MALLOC_ENV: '1' }, 'linux')).toBe(undefined)
  })

  // glibc ignores a tunable it does not know without a word, so the spelling is checked against the real loader.
  const loader = '/lib64/ld-linux-x86-64.so.2'
  test.skipIf(process.arch !== 'x64' || !existsSync(loader))('is a tunable this glibc reads', () => {
    const list = (env: NodeJS.ProcessEnv) => execFileSync(loader, ['--list-tunables'], { env, encoding: 'utf8' })
    const line = (out: string) => out.split('\n').find((l) => l.startsWith('glibc.cpu.x86_non_temporal_threshold:'))
    const set = line(list({ GLIBC_TUNABLES: NON_TEMPORAL_TUNABLE }))
    expect(set).toMatch(/^glibc\.cpu\.x86_non_temporal_threshold: 0x400000 /)
    expect(line(list({}))).not.toMatch(/ 0x400000 /)
  })
})
