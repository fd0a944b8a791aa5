import { afterAll, describe, expect, it } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { World } from '../../envs/core/world.ts'
import { nowMs, setClock, setMeta } from '../../envs/core/clock.ts'
import { worldState } from '../../server/state.ts'
import { stateBase, stateSince } from '../../server/state-since.ts'
import { WorldManager } from '../../server/worlds.ts'
import { families } from '../../tasks-lite/families/index.ts'

// Tasks that write Gmail, Drive + Gmail, and Slack: each leaves some services untouched and changes others.
const tasks = ['gmail-label-sender', 'gmail-drive-invoice', 'slack-pin-final']
  .flatMap((id) => families.filter((f) => f.id === id))
  .map((f) => TaskSpec.parse(f.generate(2)))

/** The state of a world's bytes read on a fresh connection (no statement cache, no memo of parsed mail). */
const fresh = (world: World) => {
  const copy = World.from(world.snapshot())
  try {
    return JSON.stringify(worldState(copy))
  } finally {
    copy.close()
  }
}

describe('Episode.verify (state since the template)', () => {
  // Connections of their own; reused under a guard (the default); reused trusting the programs (validation).
  for (const mode of ['fresh', 'guarded', 'trusted'] as const) {
    const name = `judges the state a full dump gives after the reference's writes (connections: ${mode})`
    const reuseWorlds = mode !== 'fresh'
    it(
      name,
      async () => {
        expect(tasks.length).toBe(3)
        const gym = createGym({ tasks: [], reuseWorlds: mode === 'trusted', freshWorlds: mode === 'fresh' })
        try {
          for (const task of tasks) {
            // Twice: on a reused connection the second episode starts from the rolled-back first.
            for (let round = 0; round < 2; round++) {
              const ep = gym.reset(task)
              // Guarded, a task's first episode opens an unheld connection; once one has ended, they are held.
              expect(ep.entry.world.held, task.id).toBe(reuseWorlds && (mode === 'trusted' || round > 0))
              await runProgram(ep, task.reference)
              expect(ep.verify().passed, task.id).toBe(true)
              const final = ep.lastVerified!.final
              expect(JSON.stringify(final), task.id).toBe(JSON.stringify(worldState(ep.entry.world)))
              if (!reuseWorlds) expect(JSON.stringify(final), task.id).toBe(fresh(ep.entry.world))
              const services = Object.keys(final.services)
              const reused = services.filter((s) => final.services[s] === ep.initial.services[s])
              // The reference writes something and leaves some service alone.
              expect(reused.length, task.id).toBeGreaterThan(0)
              expect(reused.length, task.id).toBeLessThan(services.length)
              ep.close()
            }
            // An episode that does nothing reuses every dump.
            const idle = gym.reset(task)
            const noop = idle.verify()
            expect(noop.passed).toBe(false)
            const final = idle.lastVerified!.final
            expect(Object.keys(final.services).every((s) => final.services[s] === idle.initial.services[s])).toBe(true)
            idle.close()
          }
        } finally {
          gym.worlds.close()
        }
      },
      120_000,
    )
  }
})

describe('stateSince', () => {
  const worlds = new WorldManager()
  afterAll(() => worlds.close())
  const base = stateBase(worlds.create({ seed: 'demo' }).world)

  const check = (world: World) => {
    const since = stateSince(world, base)
    expect(JSON.stringify(since)).toBe(JSON.stringify(worldState(world)))
    return Object.keys(since.services).filter((s) => since.services[s] !== base.state.services[s])
  }

  it('re-dumps a service whose table changed even when no request changed it', () => {
    const { world } = worlds.create({ seed: 'demo' })
    const first = (table: string) => `(SELECT min(rowid) FROM ${table})`
    world.sqlite.prepare(`UPDATE gmail_labels SET name = 'Renamed' WHERE rowid = ${first('gmail_labels')}`).run()
    expect(check(world)).toEqual(['gmail'])
    world.sqlite.prepare(`UPDATE slack_channels SET topic = 'moved' WHERE rowid = ${first('slack_channels')}`).run()
    expect(check(world)).toEqual(['gmail', 'slack'])
  })

  it('re-dumps every service that reads a shared table (world users)', () => {
    const { world } = worlds.create({ seed: 'demo' })
    world.sqlite.prepare("UPDATE world_users SET email = 'someone@elsewhere.test' WHERE id = 'bob'").run()
    const changed = check(world)
    for (const s of base.reads.keys()) if (base.reads.get(s)!.has('world_users')) expect(changed).toContain(s)
    expect(changed.length).toBeGreaterThan(1)
  })

  it('reuses every dump when only tables no dump reads changed (the action log)', () => {
    const { world } = worlds.create({ seed: 'demo' })
    const readers = [...base.reads.values()].filter((r) => r.has('world_action_log'))
    expect(readers).toEqual([])
    const columns = 'at_ms, user_id, service, operation_id, method, path, query, body, status'
    world.sqlite
      .prepare(`INSERT INTO world_action_log (${columns}) VALUES (0, 'bob', 'gmail', 'x', 'GET', '/', '', '', 200)`)
      .run()
    expect(check(world)).toEqual([])
  })

  it('tells world_meta keys apart: the clock moving reuses every dump, a key a dump read does not', () => {
    const { world } = worlds.create({ seed: 'demo' })
    world.tx((db) => setClock(db, nowMs(db) + 60_000))
    expect(check(world)).toEqual([])
    world.tx((db) => setMeta(db, 'slack_team_description', 'A new description'))
    expect(check(world)).toEqual(['slack'])
  })

  it('dumps everything when the schema changed', () => {
    const { world } = worlds.create({ seed: 'demo' })
    world.sqlite.exec('CREATE TABLE extra (a)')
    expect(check(world)).toEqual(Object.keys(base.state.services))
  })

  it('on a held world whose schema changed since hold(), dumps everything', () => {
    const { world } = worlds.create({ seed: 'demo', reuse: true })
    world.sqlite.exec('CREATE TABLE extra (a)')
    world.sqlite.prepare("UPDATE gmail_labels SET name = 'x' WHERE rowid = (SELECT min(rowid) FROM gmail_labels)").run()
    expect(world.changedTables()).toBeUndefined()
    expect(check(world)).toEqual(Object.keys(base.state.services))
  })

  it('on a held world, re-dumps exactly the services whose tables were written since hold()', () => {
    const { world } = worlds.create({ seed: 'demo', reuse: true })
    expect(world.held).toBe(true)
    expect(check(world)).toEqual([])
    world.sqlite.prepare("UPDATE drive_files SET name = 'x' WHERE rowid = (SELECT min(rowid) FROM drive_files)").run()
    expect([...world.changedTables()!]).toEqual(['drive_files'])
    // Drive's dump and every dump that reads drive_files (Docs reads which files are Google Docs).
    const changed = check(world)
    expect(changed).toContain('drive')
    for (const s of changed) expect(base.reads.get(s)!.has('drive_files')).toBe(true)
  })
})
