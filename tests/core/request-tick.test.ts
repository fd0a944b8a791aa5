import { describe, expect, test, vi } from 'vitest'
import { World } from '../../envs/core/world.ts'
import { statementsDuring } from '../../envs/core/db.ts'
import {
  advanceClock,
  applyRequestTick,
  nowMs,
  requestTick,
  setClock,
  setMeta,
  setTick,
  setTickLimit,
  takeRequestTick,
} from '../../envs/core/clock.ts'
import { logAction } from '../../server/middleware/action-log.ts'
import { harness } from '../../envs/core/testing/harness.ts'

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
      for (const [limit, used] of [
        [0, undefined],
        [5000, undefined],
        [5000, 4500],
        [5000, 5000],
        [1000, 999],
      ]) {
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

describe('logAction', () => {
  test('stamps each row with the clock as nowMs reads it, stored as an integer', () => {
    for (const clock of [undefined, 0, 1_767_225_600_123]) {
      const world = worldWith({ clock })
      const record = {
        userId: 'u',
        service: 's',
        operationId: 'o',
        method: 'GET',
        path: '/p',
        query: '',
        body: null,
        status: 200,
        wrote: false,
      }
      logAction(world, record)
      const row = world.sqlite.prepare('SELECT at_ms AS at, typeof(at_ms) AS type FROM world_action_log').get()
      expect(row).toEqual({ at: nowMs(world.db), type: 'integer' })
      world.close()
    }
  })
})

describe('the request tick', () => {
  test('leaves the clock where it was when due work fails (the request answers 500, nothing changes)', async () => {
    const h = harness('demo')
    const db = h.entry.world.sqlite
    const open = db.prepare('SELECT id FROM slack_channels WHERE is_archived = 0 LIMIT 1').get() as { id: string }
    // A pending message whose blocks cannot be parsed makes the Slack clock hook throw once it is due.
    const columns = '(id, channel_id, user_id, text, blocks, post_at, created)'
    db.prepare(`INSERT INTO slack_scheduled ${columns} VALUES ('Q1', ?, 'x', 't', '{bad', 0, 0)`).run(open.id)
    const meta = metaRows(h.entry.world)
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const res = await h.call('GET', '/gmail/v1/users/me/profile')
      expect(res.status).toBe(500)
    } finally {
      spy.mockRestore()
    }
    expect(metaRows(h.entry.world)).toEqual(meta)
    expect(db.prepare("SELECT status FROM slack_scheduled WHERE id = 'Q1'").get()).toEqual({ status: 'pending' })
    // Once the bad row is gone, the same request moves the clock again.
    db.prepare("DELETE FROM slack_scheduled WHERE id = 'Q1'").run()
    expect((await h.call('GET', '/gmail/v1/users/me/profile')).status).toBe(200)
    expect(metaRows(h.entry.world)).not.toEqual(meta)
    h.worlds.close()
  })
})

describe('the request tick without due work', () => {
  test('writes the clock without a transaction; due work still runs in one, with the moved clock', async () => {
    const h = harness('demo')
    const world = h.entry.world
    const db = world.sqlite
    const clock = () => db.prepare("SELECT value FROM world_meta WHERE key = 'clock_ms'").pluck().get() as string
    const tx = vi.spyOn(world, 'tx')
    try {
      const start = Number(clock())
      expect((await h.call('GET', '/gmail/v1/users/me/profile')).status).toBe(200)
      expect(Number(clock())).toBe(start + 1000)
      expect(tx).not.toHaveBeenCalled()
      const open = db.prepare('SELECT id FROM slack_channels WHERE is_archived = 0 LIMIT 1').get() as { id: string }
      const user = db.prepare('SELECT id FROM slack_users LIMIT 1').pluck().get() as string
      const columns = '(id, channel_id, user_id, text, blocks, post_at, created)'
      db.prepare(`INSERT INTO slack_scheduled ${columns} VALUES ('Q1', ?, ?, 'due now', NULL, 0, 0)`).run(open.id, user)
      expect((await h.call('GET', '/gmail/v1/users/me/profile')).status).toBe(200)
      expect(Number(clock())).toBe(start + 2000)
      expect(tx).toHaveBeenCalled() // the tick's transaction (and the hook's own, nested in it)
      expect(db.prepare("SELECT status FROM slack_scheduled WHERE id = 'Q1'").get()).toEqual({ status: 'posted' })
      expect(db.prepare("SELECT count(*) FROM slack_messages WHERE text = 'due now'").pluck().get()).toBe(1)
    } finally {
      tx.mockRestore()
      h.worlds.close()
    }
  })
})

describe("the tick's in-place write", () => {
  const UPSERT_META =
    'INSERT INTO world_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'

  test("the tick's update leaves the bytes the upsert left, and an unset clock is inserted as before", () => {
    for (const clock of [undefined, 0, 9_990, 1_767_225_599_990]) {
      const viaTick = worldWith({ tick: 1, clock })
      const viaUpsert = worldWith({ tick: 1, clock })
      let at = clock ?? 0
      // Values that grow a digit (9999 → 10000) move the row within its page: both ways must move it alike.
      for (let i = 0; i < 30; i++) {
        const tick = requestTick(viaTick.db)!
        expect(tick.from).toBe(at)
        applyRequestTick(viaTick.db, tick)
        viaUpsert.sqlite.prepare(UPSERT_META).run('clock_ms', String(++at))
        expect(nowMs(viaTick.db)).toBe(at)
      }
      expect(Buffer.compare(viaTick.snapshot().bytes, viaUpsert.snapshot().bytes)).toBe(0)
      viaTick.close()
      viaUpsert.close()
    }
  })
})
