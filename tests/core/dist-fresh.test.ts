import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: the launcher's helpers are plain JavaScript without declarations
import { distIsFresh } from '../../bin/dist-fresh.mjs'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

/** A checkout with a file in each folder the bundles come from, older than its build stamp (a touch is newer). */
function checkout(): { root: string; touch: (path: string) => void } {
  const root = tempDir('wsgym-dist-fresh-')
  const old = new Date(Date.now() - 60_000)
  const write = (path: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), '')
    utimesSync(join(root, path), old, old)
  }
  for (const p of [
    'server/cli.ts',
    'gym/validate.ts',
    'tasks-lite/families/a.ts',
    'scripts/validate-tasks.ts',
    'scripts/bench.ts',
    'envs/gmail/api/ops.gen.json',
    'README.md',
  ])
    write(p)
  mkdirSync(join(root, 'dist'))
  writeFileSync(join(root, 'dist', '.built'), 'stamp\n')
  const built = new Date(Date.now() - 30_000)
  utimesSync(join(root, 'dist', '.built'), built, built)
  return { root, touch: (path) => writeFileSync(join(root, path), 'changed') }
}

describe('distIsFresh (bin/dist-fresh.mjs)', () => {
  it('is false without a build, true right after one', () => {
    const { root } = checkout()
    expect(distIsFresh(root)).toBe(true)
    expect(distIsFresh(tempDir('wsgym-dist-fresh-'))).toBe(false)
  })

  it.each([
    'server/cli.ts',
    'gym/validate.ts',
    'tasks-lite/families/a.ts',
    'scripts/validate-tasks.ts',
    'envs/gmail/api/ops.gen.json',
  ])('is false once %s changed after the build', (path) => {
    const { root, touch } = checkout()
    touch(path)
    expect(distIsFresh(root)).toBe(false)
  })

  it('ignores files no bundle is built from (other scripts, documentation)', () => {
    const { root, touch } = checkout()
    touch('scripts/bench.ts')
    touch('README.md')
    expect(distIsFresh(root)).toBe(true)
  })
})
