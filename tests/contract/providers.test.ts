import { describe, expect, test } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { getTableConfig } from 'drizzle-orm/sqlite-core'
import { services } from '../../server/registry.ts'
import { coverageReport } from '../../server/coverage.ts'
import { WorldManager } from '../../server/worlds.ts'
import { World, type Snapshot } from '../../envs/core/world.ts'
import { buildWorld } from '../../server/seeding.ts'
import { namedSeeds } from '../../seeds/index.ts'

const root = join(import.meta.dirname, '..', '..')

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (name === 'node_modules') continue
    if (statSync(p).isDirectory()) filesUnder(p, out)
    else if (/\.test\.ts$/.test(name)) out.push(p)
  }
  return out
}

const testText = [...filesUnder(join(root, 'tests')), ...filesUnder(join(root, 'envs'))]
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n')

// Two independent builds of the demo world, shared by every provider's determinism check.
let twice: [World, World] | undefined
const demoTwice = () => (twice ??= [buildWorld(namedSeeds.demo!(5), 5), buildWorld(namedSeeds.demo!(5), 5)])
// Demo templates (seed values 2 and 3) built once for every provider's restore check; each check gets fresh worlds.
const demoTemplates = new Map<string, Snapshot>()

describe.each(services.map((s) => [s.name, s] as const))('%s provider contract', (name, service) => {
  test('every table carries the service prefix', () => {
    for (const table of service.tables) expect(getTableConfig(table).name.startsWith(`${name}_`)).toBe(true)
  })

  test('seeding the demo twice gives identical bytes and dumps', () => {
    const [a, b] = demoTwice()
    expect(a.snapshot().bytes.equals(b.snapshot().bytes)).toBe(true)
    expect(service.dump(a)).toEqual(service.dump(b))
  })

  test('restore() brings dump() back unchanged', () => {
    const worlds = new WorldManager({ templates: demoTemplates })
    const entry = worlds.create({ seed: 'demo', seedValue: 2 })
    const dumped = service.dump(entry.world)
    const snap = entry.world.snapshot()
    const other = worlds.create({ seed: 'demo', seedValue: 3 })
    entry.world.restore(other.world.snapshot())
    entry.world.restore(snap)
    expect(service.dump(entry.world)).toEqual(dumped)
    expect(service.dump(World.from(snap))).toEqual(dumped)
  })

  test('registers only methods the spec has', () => {
    const report = coverageReport().find((r) => r.service === name)!
    expect(report.unknown).toEqual([])
  })

  test('every implemented method is named in some test', () => {
    const report = coverageReport().find((r) => r.service === name)!
    // A method counts as tested when a test file names its id as a whole token (describe blocks use ids).
    const named = (id: string) => new RegExp(`(^|[^\\w.])${id.replace(/[.]/g, '\\.')}([^\\w.]|$)`, 'm').test(testText)
    const untested = report.implementedIds.filter((id) => !named(id))
    expect(untested).toEqual([])
  })
})
