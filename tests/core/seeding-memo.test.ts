import { createHash, hash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { World } from '../../envs/core/world.ts'
import { setMeta } from '../../envs/core/clock.ts'
import { gmailIdOf, hexId, nextCounter, urlSafeId } from '../../envs/core/ids.ts'
import { withSeedingMemo } from '../../envs/core/seeding-memo.ts'
import { buildWorld } from '../../server/seeding.ts'
import { TaskSpec } from '../../gym/task.ts'
import { worldTemplate } from '../../gym/world.ts'
import { instance } from '../../tasks-lite/corpus.ts'
import { families } from '../../tasks-lite/families/index.ts'
import { rewriteHeaders, withDeliveredTo } from '../../envs/gmail/deliver.ts'

const sha = (world: World) => createHash('sha256').update(world.snapshot().bytes).digest('hex')

function worldBytes(doc: Record<string, unknown>, seedValue: number, memo: boolean): string {
  const world = buildWorld(doc, seedValue, undefined, { memo })
  try {
    return sha(world)
  } finally {
    world.close()
  }
}

describe('buildWorld with the seeding memo', () => {
  // Heavy worlds (seed 4) of families spanning every service: counters pass 127, Slack moves the clock per message.
  const ids = [
    'gmail-reply-po',
    'calendar-reschedule-instance',
    'slack-thread-answer',
    'drive-organize',
    'docs-slack-action-items',
  ]
  const tasks = families.filter((f) => ids.includes(f.id)).map((f) => TaskSpec.parse(instance(f, 4)))

  test('covers a heavy world of each service', () => {
    expect(tasks.map((t) => t.family).sort()).toEqual([...ids].sort())
    expect(tasks.every((t) => t.world?.volume === 'heavy')).toBe(true)
  })

  test.each(tasks.map((t) => [t.id, t] as const))('builds %s byte for byte as seeding without it', (_id, task) => {
    const doc = worldTemplate(task)?.build() ?? (task.seed as Record<string, unknown>)
    expect(worldBytes(doc, task.seedValue, true)).toBe(worldBytes(doc, task.seedValue, false))
  })

  test('counts counters that existed before it on and inserts new ones as without it, byte for byte', () => {
    // Counters made before seeding go on from their values; new names (one per Drive file's revisions) are inserted.
    const run = (memo: boolean) => {
      const world = World.create([])
      world.tx((db) => {
        for (let i = 0; i < 130; i++) nextCounter(db, 'before')
        const seeded = () => {
          const out: number[] = []
          for (let i = 0; i < 400; i++) {
            out.push(nextCounter(db, 'file'), nextCounter(db, `revision.${i}`), nextCounter(db, 'before'))
            if (i % 7 === 3) out.push(nextCounter(db, `revision.${i}`))
          }
          return out
        }
        const values = memo ? withSeedingMemo(db, seeded) : seeded()
        expect(values.slice(0, 3)).toEqual([1, 1, 131])
        expect(values.slice(-3)).toEqual([400, 1, 530])
      })
      const rows = world.sqlite.prepare('SELECT name, value FROM world_counters ORDER BY rowid').raw().all()
      const bytes = sha(world)
      world.close()
      return { rows, bytes }
    }
    const withMemo = run(true)
    expect(withMemo.rows).toHaveLength(402)
    expect(withMemo).toEqual(run(false))
  })

  test('writes deferred counters and meta values before the transaction ends', () => {
    const world = World.create([])
    world.tx((db) => {
      setMeta(db, 'clock_ms', '1000')
      withSeedingMemo(db, () => {
        for (let i = 0; i < 300; i++) nextCounter(db, 'a')
        setMeta(db, 'clock_ms', '2000')
      })
    })
    const counter = world.sqlite.prepare("SELECT value FROM world_counters WHERE name = 'a'").pluck().get()
    const clock = world.sqlite.prepare("SELECT value FROM world_meta WHERE key = 'clock_ms'").pluck().get()
    world.close()
    expect([counter, clock]).toEqual([300, '2000'])
  })
})

describe('ids', () => {
  test('gmailIdOf is (ms << 20 | n & 0xfffff) in 16 hex digits', () => {
    const big = (ms: number, n: number) =>
      ((BigInt(ms) << 20n) | BigInt(n & 0xfffff)).toString(16).padStart(16, '0').slice(-16)
    for (const ms of [0, 1, 15, 16, 123456789, 1772442000000, 2 ** 44 - 1, 2 ** 44, 2 ** 52]) {
      for (const n of [0, 1, 77, 0xfffff, 0x100000, 0x100001, 2 ** 30 + 5]) expect(gmailIdOf(ms, n)).toBe(big(ms, n))
    }
  })

  test('opaque ids of any length are the salted digest chain', () => {
    // sha256(salt, family, n), then sha256(previous digest + round number) while more characters are needed.
    const reference = (salt: string, family: string, n: number, length: number, alphabet: string) => {
      let bytes = hash('sha256', `${salt}\u0000${family}\u0000${n}`, 'buffer')
      let out = ''
      let round = 0
      while (out.length < length) {
        for (const b of bytes) if (out.length < length) out += alphabet[b % alphabet.length]
        bytes = hash('sha256', Buffer.concat([bytes, Buffer.from(String(++round))]), 'buffer')
      }
      return out
    }
    const world = World.create([])
    const ids = world.tx((db) => {
      setMeta(db, 'id_salt', 'abc123')
      return [hexId(db, 'x', 24), hexId(db, 'x', 32), hexId(db, 'x', 100), urlSafeId(db, 'y', 70)]
    })
    world.close()
    const URLSAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    expect(ids).toEqual([
      reference('abc123', 'x', 1, 24, '0123456789abcdef'),
      reference('abc123', 'x', 2, 32, '0123456789abcdef'),
      reference('abc123', 'x', 3, 100, '0123456789abcdef'),
      reference('abc123', 'y', 1, 70, URLSAFE),
    ])
  })
})

describe('withDeliveredTo', () => {
  const raws = [
    'From: a@x.test\r\nTo: b@x.test\r\nSubject: hi\r\n\r\nbody\r\n',
    'From: a@x.test\r\nSubject: folded\r\n  more\r\n\tand more\r\n\r\nbody',
    'From: a@x.test\nSubject: bare LF\r\n\r\nbody',
    'From: a@x.test\r\nSubject: bare blank\n\nbody',
    'From: a@x.test\r\nSubject: no body',
    'From: a@x.test\r\nX-Note: café \u00e9\r\n\r\n\u00ff',
  ]
  const cases = raws.map((r) => [JSON.stringify(r.slice(0, 40)), r] as const)
  test.each(cases)('prepends as rewriteHeaders does: %s', (_n, r) => {
    const raw = Buffer.from(r, 'latin1')
    for (const email of ['bob@x.test', 'zoë@x.test']) {
      expect(withDeliveredTo(raw, email).equals(rewriteHeaders(raw, {}, { 'Delivered-To': email }))).toBe(true)
    }
  })

  test('leaves a header named like an Object.prototype property to rewriteHeaders', () => {
    const raw = Buffer.from('From: a@x.test\r\nconstructor: x\r\n\r\nbody', 'latin1')
    const slow = (() => {
      try {
        return rewriteHeaders(raw, {}, { 'Delivered-To': 'b@x.test' })
      } catch (e) {
        return e
      }
    })()
    const fast = (() => {
      try {
        return withDeliveredTo(raw, 'b@x.test')
      } catch (e) {
        return e
      }
    })()
    expect(String(fast)).toBe(String(slow))
  })
})
