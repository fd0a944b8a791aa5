import { describe, expect, test, vi } from 'vitest'
import Database from 'better-sqlite3'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveSeedTime } from '../../envs/core/seed-types.ts'
import { type SeedError, validateSeed } from '../../server/seeding.ts'
import { namedSeeds } from '../../seeds/index.ts'
import { WorldManager } from '../../server/worlds.ts'
import { getMeta, nowMs } from '../../envs/core/clock.ts'
import { wsgym } from '../support/cli.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

describe('seed documents', () => {
  test('relative times resolve against the world clock', () => {
    const now = Date.parse('2026-03-02T09:00:00Z')
    expect(resolveSeedTime('now', now)).toBe(now)
    expect(resolveSeedTime('-2d', now)).toBe(now - 2 * 86_400_000)
    expect(resolveSeedTime('+1h30m', now)).toBe(now + 90 * 60_000)
    expect(resolveSeedTime('2026-01-01T00:00:00Z', now)).toBe(Date.parse('2026-01-01T00:00:00Z'))
    expect(() => resolveSeedTime('yesterday-ish', now)).toThrow(/not a time/)
  })

  test('errors name the offending field path', () => {
    const attempt = (doc: unknown) => {
      try {
        validateSeed(doc)
        return []
      } catch (e) {
        return (e as SeedError).issues.map((i) => i.path)
      }
    }
    expect(attempt({ users: [{ id: 'A B', email: 'a@x.com', name: 'A' }] })).toContain('users[0].id')
    expect(attempt({ users: [] })).toContain('users')
    expect(attempt({ users: [{ id: 'a', email: 'a@x.com', name: 'A' }], bogus: 1 })).toContain('bogus')
    expect(
      attempt({
        users: [
          { id: 'a', email: 'a@x.com', name: 'A' },
          { id: 'a', email: 'b@x.com', name: 'B' },
        ],
      }),
    ).toContain('users[1].id')
    expect(attempt({ now: 'tuesday', users: [{ id: 'a', email: 'a@x.com', name: 'A' }] })).toContain('now')
  })

  test('every named seed validates and builds', () => {
    for (const name of ['demo', 'empty']) {
      expect(() => validateSeed(namedSeeds[name]!(1))).not.toThrow()
      const entry = new WorldManager().create({ seed: name })
      expect(getMeta(entry.world.db, 'seed_name')).toBe(name)
    }
  })

  test('a world starts at the seed clock', () => {
    const entry = new WorldManager().create({
      seed: { now: '2030-01-01T00:00:00Z', users: [{ id: 'a', email: 'a@x.com', name: 'A' }] },
    })
    expect(nowMs(entry.world.db)).toBe(Date.parse('2030-01-01T00:00:00Z'))
  })

  test('templates are built once and cloned per world', () => {
    const worlds = new WorldManager()
    const a = worlds.template('demo', 3)
    expect(worlds.template('demo', 3)).toBe(a)
    expect(worlds.template('demo', 4)).not.toBe(a)
  })
})

describe('wsgym seed validate', () => {
  const dir = tempDir('wsgym-seed-')
  const cli = wsgym

  test('accepts a valid YAML seed', async () => {
    const file = join(dir, 'ok.yaml')
    writeFileSync(file, 'name: tiny\nusers:\n  - id: ann\n    email: ann@example.com\n    name: Ann Lee\n')
    const run = await cli('seed', 'validate', file)
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('valid')
  })

  test('rejects an invalid JSON seed and prints the field path', async () => {
    const file = join(dir, 'bad.json')
    writeFileSync(file, JSON.stringify({ users: [{ id: 'ann', email: 'nope', name: 'Ann' }] }))
    const run = await cli('seed', 'validate', file)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('users[0].email')
  })

  test('lists the named seeds', async () => {
    expect((await cli('seed', 'list')).stdout.split('\n')).toEqual(expect.arrayContaining(['demo', 'empty', 'large']))
  })
})

describe('persistence (--data-dir)', () => {
  test('worlds, snapshots and acknowledged writes survive a restart', async () => {
    const dir = tempDir('wsgym-data-')
    const first = new WorldManager({ dataDir: dir })
    const entry = first.create({ id: 'keep', seed: 'empty' })
    first.snapshot('keep', 'early')
    entry.world.tx((db) => db.$client.prepare("INSERT INTO world_meta (key, value) VALUES ('marker', 'written')").run())
    // No close(): a crash after an acknowledged write must not lose it (WAL + synchronous=FULL).
    const second = new WorldManager({ dataDir: dir })
    const again = second.get('keep')
    expect(getMeta(again.world.db, 'marker')).toBe('written')
    expect([...again.snapshots.keys()]).toEqual(['early'])
    second.restore('keep', 'early')
    expect(getMeta(again.world.db, 'marker')).toBeUndefined()
    second.delete('keep')
    expect(new WorldManager({ dataDir: dir }).list()).toEqual([])
    first.close()
  })

  test('a world file an older build wrote, lacking a column, is left on disk and not served', () => {
    const dir = tempDir('wsgym-data-')
    const first = new WorldManager({ dataDir: dir })
    first.create({ id: 'old', seed: 'demo' })
    first.create({ id: 'current', seed: 'empty' })
    first.close()
    // What a build before gmail_labels.name_key (docs/decisions/0399) left behind.
    const file = join(dir, 'old.sqlite')
    const raw = new Database(file)
    raw.exec('DROP INDEX IF EXISTS gmail_labels_name_key_idx')
    for (const idx of raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%name_key%'")
      .pluck()
      .all())
      raw.exec(`DROP INDEX "${String(idx)}"`)
    raw.exec('ALTER TABLE gmail_labels DROP COLUMN name_key')
    raw.close()
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const second = new WorldManager({ dataDir: dir })
    expect(second.list().map((w) => w.id)).toEqual(['current'])
    expect(errors.mock.calls.flat().join(' ')).toMatch(/world old .*older build \(no gmail_labels\.name_key\)/)
    errors.mockRestore()
    expect(existsSync(file)).toBe(true)
    second.close()
  })
})
