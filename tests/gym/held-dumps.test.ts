import { describe, expect, it, vi } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { Episode } from '../../gym/episode.ts'
import { loadSample } from '../../gym/corpus.ts'
import { validateTask } from '../../gym/validate.ts'
import { World } from '../../envs/core/world.ts'
import { diffStates, type WorldState } from '../../envs/core/diff.ts'
import { worldState } from '../../server/state.ts'

/**
 * Validation judges held worlds (World.hold) whose dumps keep the rows of tables no episode wrote and read again only
 * the rows one did (envs/core/dump-rows.ts, docs/decisions/0309). Whatever an episode did, the state and diff it is
 * judged on must be those of a full dump of its bytes on a fresh connection (no kept rows, no memo).
 */
const truth = (bytes: Buffer): WorldState => {
  const copy = World.from({ bytes })
  try {
    return worldState(copy)
  } finally {
    copy.close()
  }
}

/**
 * The bytes of a held world's contents as its connection sees them, rows and rowids copied into its template (its
 * own serialize() gives the committed pages, not the open transaction's).
 */
function contents(world: World, template: Buffer): Buffer {
  const copy = World.from({ bytes: template })
  try {
    const tables = world.sqlite
      .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck().all() as string[]
    copy.tx(() => {
      for (const t of tables) {
        const columns = (world.sqlite.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[])
          .map((c) => `"${c}"`)
        copy.sqlite.prepare(`DELETE FROM "${t}"`).run()
        const insert = copy.sqlite.prepare(
          `INSERT INTO "${t}" (rowid, ${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}, ?)`)
        for (const row of world.sqlite.prepare(`SELECT rowid, ${columns.join(', ')} FROM "${t}"`).raw().all()) {
          insert.run(...(row as unknown[]))
        }
      }
    })
    return copy.snapshot().bytes
  } finally {
    copy.close()
  }
}

/** Where two JSON values first differ (a path), or undefined: failures name the entity, not the whole world. */
function difference(a: unknown, b: unknown, path = ''): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(b)?.slice(0, 200)}`
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.join() !== kb.join()) return `${path}: keys ${ka.join().slice(0, 300)} != ${kb.join().slice(0, 300)}`
  for (const k of ka) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`)
    if (d) return d
  }
  return undefined
}

// Several families and volumes (sample slots: light, medium, none, heavy): mass changes, deletes and re-creations,
// shares, reactions, pins, label changes, documents, events, accounts.
const picks: [string, number][] = [
  ['gmail-label-sender', 3], ['slack-pin-final', 1], ['drive-organize', 3], ['docs-apply-suggestions', 1],
  ['calendar-rsvp', 1], ['identity-offboard-leaver', 0], ['customer-escalation', 0],
]

describe('Episode.verify on held worlds (kept dump rows)', () => {
  it('judges every validation episode on the state and diff a full dump of its bytes gives', async () => {
    const tasks = picks.map(([family, slot]) => loadSample(slot + 1, [family])[slot]!)
    const gym = createGym({ tasks: [], reuseWorlds: true })
    const verify = Episode.prototype.verify
    let episodes = 0
    const initial = new Map<object, WorldState>()
    const spy = vi.spyOn(Episode.prototype, 'verify').mockImplementation(function (this: Episode) {
      const result = verify.call(this)
      const world = this.entry.world
      expect(world.held).toBe(true)
      let before = initial.get(this.entry.baseline)
      if (!before) initial.set(this.entry.baseline, (before = truth(this.entry.baseline.bytes)))
      const after = truth(contents(world, this.entry.baseline.bytes))
      const judged = this.lastVerified!
      const where = `${this.task.id} episode ${episodes}`
      expect(difference(this.initial, before), where).toBeUndefined()
      expect(difference(judged.final, after), where).toBeUndefined()
      expect(difference(judged.diff, diffStates(before, after)), where).toBeUndefined()
      episodes++
      return result
    })
    try {
      for (const task of tasks) expect((await validateTask(gym, task)).problems, task.id).toEqual([])
    } finally {
      spy.mockRestore()
      gym.worlds.close()
    }
    // Reference, no-op, near misses and every attack variant of each task.
    expect(episodes).toBeGreaterThan(tasks.length * 10)
  }, 300_000)
})

describe('Gmail dump on a held world', () => {
  it('gives each message its own source after labels change on kept rows (parses found by Buffer)', () => {
    const task = loadSample(4, ['gmail-label-sender'])[3]!
    const gym = createGym({ tasks: [], reuseWorlds: true })
    try {
      const ep = gym.reset(task)
      const world = ep.entry.world
      const template = ep.entry.baseline.bytes
      const first = worldState(world).services.gmail!.entities as Record<string, Record<string, { labelIds: string[] }>>
      expect(Object.keys(first.messages!).length).toBeGreaterThan(50)
      // Kept message rows (the same raw Buffers) come back with new label lists: every entity is built again.
      world.sqlite.exec("INSERT OR IGNORE INTO gmail_message_labels SELECT user_id, id, 'STARRED' FROM gmail_messages")
      world.sqlite.exec("DELETE FROM gmail_message_labels WHERE label_id = 'UNREAD'")
      const judged = worldState(world)
      const messages = (judged.services.gmail!.entities as typeof first).messages!
      expect(Object.values(messages).every((m) => m.labelIds.includes('STARRED'))).toBe(true)
      expect(difference(judged, truth(contents(world, template)))).toBeUndefined()
      ep.close()
    } finally {
      gym.worlds.close()
    }
  }, 120_000)
})
