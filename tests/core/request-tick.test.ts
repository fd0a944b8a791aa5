import { describe, expect, test } from 'vitest'
import { World } from '../../envs/core/world.ts'
import { statementsDuring } from '../../envs/core/db.ts'
import {
  advanceClock, applyRequestTick, nowMs, requestTick, setClock, setMeta, setTick, setTickLimit, takeRequestTick,
} from '../../envs/core/clock.ts'

// An agent request's tick reads the four clock keys in one statement (docs/decisions/0290); it must move the clock
// and the cap exactly as takeRequestTick + advanceClock did, and read nothing else.

type Setup = { tick?: number | string; limit?: number; used?: number; clock?: number }

function worldWith(s: Setup) {
  const world = World.create([])
  const db = world.db
  if (s.clock !== undefined) setClock(db, s.clock)
  if (typeof s.tick === 'number') setTick(db, s.tick)
  if (typeof s.tick === 'string') setMeta(db, 'tick_ms', s.tick)
  if (s.limit !== undefined) setTickLimit(db, s.limit)
  if (s.used !== undefined) setMeta(db, 'ticked_ms', String(s.used))
  return world
}

const metaRows = (world: World) => world.sqlite.prepare('SELECT key, value FROM world_meta ORDER BY key').all()

/** The old path: returns the (from, to) the services were told, or undefined when the clock stayed. */
function before(world: World) {
  const db = world.db
  const step = takeRequestTick(db)
  if (step === 0) return undefined
  const from = nowMs(db)
  return { from, to: advanceClock(db, step) }
}

function after(world: World) {
  const tick = requestTick(world.db)
  if (!tick) return undefined
  applyRequestTick(world.db, tick)
  return { from: tick.from, to: tick.to }
}

describe('requestTick', () => {
  const setups: Setup[] = []
  for (const tick of [undefined, 0, 1, 1000, 1500, '2.5']) {
    for (const clock of [undefined, 0, 1_767_225_600_000]) {
      setups.push({ tick, clock })
      for (const [limit, used] of [[0, undefined], [5000, undefined], [5000, 4500], [5000, 5000], [1000, 999]]) {
        setups.push({ tick, clock, limit, used })
      }
    }
  }

  test('moves the clock and the cap as takeRequestTick + advanceClock did, request after request', () => {
    for (const setup of setups) {
      const old = worldWith(setup)
      const now = worldWith(setup)
      for (let i = 0; i < 4; i++) {
        expect([setup, i, after(now)]).toEqual([setup, i, before(old)])
        expect(metaRows(now)).toEqual(metaRows(old))
      }
      old.close()
      now.close()
    }
  })

  test('reads the clock keys in one statement and writes nothing', () => {
    const world = worldWith({ tick: 1000, limit: 5000, clock: 10 })
    const watched = statementsDuring(world.sqlite, () => requestTick(world.db))
    expect(watched.sql).toHaveLength(1)
    expect(new Set(watched.meta)).toEqual(new Set(['tick_ms', 'tick_limit_ms', 'ticked_ms', 'clock_ms']))
    expect(metaRows(world)).toEqual(metaRows(worldWith({ tick: 1000, limit: 5000, clock: 10 })))
    world.close()
  })
})
