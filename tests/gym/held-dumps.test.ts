import { describe, expect, it, vi } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { Episode } from '../../gym/episode.ts'
import { loadSample } from '../../gym/corpus.ts'
import { validateTask } from '../../gym/validate.ts'
import { World } from '../../envs/core/world.ts'
import { diffStates, notedIds, type WorldState } from '../../envs/core/diff.ts'
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
      .pluck()
      .all() as string[]
    copy.tx(() => {
      for (const t of tables) {
        const columns = (
          world.sqlite.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[]
        ).map((c) => `"${c}"`)
        copy.sqlite.prepare(`DELETE FROM "${t}"`).run()
        const insert = copy.sqlite.prepare(
          `INSERT INTO "${t}" (rowid, ${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}, ?)`,
        )
        for (const row of world.sqlite
          .prepare(`SELECT rowid, ${columns.join(', ')} FROM "${t}"`)
          .raw()
          .all()) {
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
  ['gmail-label-sender', 3],
  ['slack-pin-final', 1],
  ['drive-organize', 3],
  ['docs-apply-suggestions', 1],
  ['calendar-rsvp', 1],
  ['identity-offboard-leaver', 0],
  ['customer-escalation', 0],
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

/**
 * Written rows put in order in JS among the kept ones, groups (labels, reactions, members) redone only for written
 * keys, collections rebuilt from the entries kept rows gave (envs/core/dump-rows.ts): after raw SQL writes on a held
 * world, each dump equals a full dump of its contents, episode after episode on the same connection.
 */
describe('dumps of written tables on a held world', () => {
  /** An INSERT copying one row of `table` with some columns set to SQL expressions of the original's. */
  const copyRow = (table: string, set: Record<string, string>, pick: string) => (world: World) => {
    const columns = world.sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]
    world.sqlite.exec(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.map((c) => set[c] ?? c).join(', ')}
      FROM ${table} ${pick}`)
  }
  const rounds: [string, number, (string | ((world: World) => void))[]][] = [
    [
      'slack-pin-final',
      3,
      [
        // Before, among and after the kept messages (ts order), one moved, one deleted, one with a non-ASCII ts.
        `INSERT INTO slack_messages (channel_id, ts, user_id, text)
         SELECT channel_id, '0000000001.000001', user_id, 'first' FROM slack_messages ORDER BY rowid LIMIT 1`,
        `INSERT INTO slack_messages (channel_id, ts, user_id, text) SELECT channel_id, ts || '5', user_id, 'among'
         FROM slack_messages ORDER BY ts LIMIT 1 OFFSET 40`,
        `INSERT INTO slack_messages (channel_id, ts, user_id, text)
         SELECT channel_id, '9999999999.000001', user_id, 'last' FROM slack_messages ORDER BY rowid LIMIT 1`,
        `UPDATE slack_messages SET ts = '0000000002.000001' WHERE rowid = (SELECT rowid FROM slack_messages
         ORDER BY ts DESC LIMIT 1 OFFSET 20)`,
        'DELETE FROM slack_messages WHERE rowid = (SELECT rowid FROM slack_messages ORDER BY ts LIMIT 1 OFFSET 60)',
        // Reactions and members of a few keys; a pin.
        `INSERT INTO slack_reactions (channel_id, ts, name, user_id, seq) SELECT channel_id, ts, 'tada', user_id, 0
         FROM slack_messages ORDER BY ts LIMIT 3 OFFSET 10`,
        'DELETE FROM slack_reactions WHERE rowid IN (SELECT rowid FROM slack_reactions ORDER BY rowid LIMIT 2)',
        'DELETE FROM slack_members WHERE rowid = (SELECT min(rowid) FROM slack_members)',
        `INSERT INTO slack_pins (channel_id, ts, created_by, created)
         SELECT channel_id, ts, user_id, 0 FROM slack_messages ORDER BY ts LIMIT 1 OFFSET 5`,
        // A renamed channel: the name is an input of each of its messages, none of whose rows was written.
        `UPDATE slack_channels SET name = name || '-renamed'
         WHERE id = (SELECT channel_id FROM slack_messages ORDER BY ts LIMIT 1 OFFSET 15)`,
      ],
    ],
    [
      'slack-pin-final',
      3,
      [
        // JS orders these two (U+FF01, U+1F600) unlike SQLite's bytes: such rows are put in order by SQLite.
        "UPDATE slack_messages SET ts = '\uFF01' || ts WHERE rowid = (SELECT max(rowid) FROM slack_messages)",
        "UPDATE slack_messages SET ts = '\u{1F600}' || ts WHERE rowid = (SELECT min(rowid) FROM slack_messages)",
        "UPDATE slack_reactions SET name = 'eyes' WHERE rowid = (SELECT max(rowid) FROM slack_reactions)",
      ],
    ],
    [
      'slack-pin-final',
      3,
      [
        // REPLACE deletes the kept row it conflicts with, unnoted: the rows are one too many until read again.
        `INSERT OR REPLACE INTO slack_messages (channel_id, ts, user_id, text) SELECT channel_id, ts, user_id, 'replaced'
         FROM slack_messages ORDER BY ts LIMIT 1 OFFSET 30`,
      ],
    ],
    [
      'gmail-label-sender',
      3,
      [
        // A copy of a message under an id that sorts right after the original's (among the kept rows).
        copyRow('gmail_messages', { id: "id || '0'" }, 'ORDER BY user_id, id LIMIT 1 OFFSET 7'),
        'DELETE FROM gmail_message_labels WHERE rowid IN (SELECT rowid FROM gmail_message_labels LIMIT 3 OFFSET 20)',
        `INSERT OR IGNORE INTO gmail_message_labels SELECT user_id, id, 'STARRED' FROM gmail_messages
         ORDER BY id LIMIT 4`,
      ],
    ],
    [
      'drive-organize',
      3,
      [
        "UPDATE drive_permissions SET role = 'commenter' WHERE rowid = (SELECT min(rowid) FROM drive_permissions)",
        "UPDATE drive_files SET name = name || ' (2)' WHERE rowid = (SELECT max(rowid) FROM drive_files)",
        "UPDATE world_users SET email = 'renamed@' || email WHERE rowid = (SELECT max(rowid) FROM world_users)",
      ],
    ],
    ['drive-organize', 3, ['DELETE FROM drive_permissions WHERE rowid = (SELECT max(rowid) FROM drive_permissions)']],
    [
      'gmail-label-sender',
      3,
      [
        // Rows written with the values the dump reads unchanged (a column it leaves out; the very values).
        'UPDATE gmail_messages SET history_id = history_id + 1 WHERE rowid IN (SELECT rowid FROM gmail_messages LIMIT 5)',
        `UPDATE gmail_message_labels SET label_id = label_id
         WHERE rowid IN (SELECT rowid FROM gmail_message_labels LIMIT 9)`,
        // The same contents at the same rowid through REPLACE (the old row deleted without a note).
        `INSERT OR REPLACE INTO gmail_labels (rowid, user_id, id, name, type, message_list_visibility,
         label_list_visibility, text_color, background_color, name_key) SELECT rowid, user_id, id, name, type,
         message_list_visibility, label_list_visibility, text_color, background_color, name_key FROM gmail_labels
         ORDER BY rowid LIMIT 1 OFFSET 2`,
      ],
    ],
    [
      'drive-organize',
      3,
      [
        // Renamed: a file row whose id and type (all Docs' dump reads of it) are as kept.
        "UPDATE drive_files SET name = name || ' (3)' WHERE rowid = (SELECT max(rowid) FROM drive_files)",
      ],
    ],
  ]

  /**
   * Per round, collections whose diff reads only the noted ids after its writes (true) or reads every id (false:
   * a renamed user is an input of every Drive entity).
   */
  const noted: Record<number, [string, string, boolean][]> = {
    // Slack's messages: through noted ids but where a kept row was deleted without a note (REPLACE).
    0: [['slack', 'messages', true]],
    1: [['slack', 'messages', true]],
    2: [['slack', 'messages', false]],
    3: [['gmail', 'messages', true]],
    4: [
      ['drive', 'permissions', false],
      ['drive', 'files', false],
    ],
    5: [['drive', 'permissions', true]],
    7: [['drive', 'files', true]],
  }

  /**
   * Per round, collections that are the initial state's very object after its writes: every row written has the
   * values the dump reads as kept (envs/core/dump-rows.ts mergeWritten; docs/decisions/0347).
   */
  const same: Record<number, [string, string][]> = {
    6: [
      ['gmail', 'messages'],
      ['gmail', 'labels'],
    ],
    7: [['docs', 'documents']],
  }

  it("equal a full dump of the contents after each episode's raw SQL writes", () => {
    const gym = createGym({ tasks: [], reuseWorlds: true })
    try {
      for (const [i, [family, slot, writes]] of rounds.entries()) {
        const task = loadSample(slot + 1, [family])[slot]!
        for (const round of [0, 1]) {
          // Round 0 writes on a clean held world; round 1 again on the same connection (entries kept from round 0).
          const ep = gym.reset(task)
          const world = ep.entry.world
          expect(world.held).toBe(true)
          worldState(world)
          // A write that does not fit the schema throws: every write of the test runs.
          for (const write of writes) {
            if (typeof write === 'string') world.sqlite.exec(write)
            else write(world)
          }
          const where = `${family} round ${round}`
          const judged = worldState(world)
          const after = truth(contents(world, ep.entry.baseline.bytes))
          expect(difference(judged, after), where).toBeUndefined()
          // The diff from the task's initial state, where collections note the ids their written rows touch
          // (envs/core/diff.ts notedIds), equals the diff of full dumps (docs/decisions/0342).
          const before = truth(ep.entry.baseline.bytes)
          expect(difference(diffStates(ep.initial, judged), diffStates(before, after)), where).toBeUndefined()
          for (const [service, name, only] of round === 0 ? (noted[i] ?? []) : []) {
            const now = judged.services[service]!.entities[name]!
            expect(notedIds(now, ep.initial.services[service]!.entities[name]!) !== undefined, `${where} ${name}`).toBe(
              only,
            )
          }
          for (const [service, name] of same[i] ?? []) {
            expect(
              judged.services[service]!.entities[name] === ep.initial.services[service]!.entities[name],
              `${where} ${service}.${name}`,
            ).toBe(true)
          }
          ep.close()
        }
      }
    } finally {
      gym.worlds.close()
    }
  }, 120_000)

  it('read a table again when REPLACE deleted a kept row without a note (rows in JS order)', () => {
    const template = World.from({ bytes: loadSampleBytes() })
    const drive = (id: string, request: string) => `INSERT INTO drive_shared_drives (id, name, creator_id, request_id,
      created_ms, color_rgb) SELECT '${id}', 'Drive ${id}', id, '${request}', 0, '#000000' FROM world_users LIMIT 1`
    template.sqlite.exec([drive('0b', 'r1'), drive('0d', 'r2'), drive('0f', 'r3')].join(';'))
    const bytes = template.snapshot().bytes
    template.close()
    const world = World.from({ bytes })
    try {
      world.hold()
      worldState(world)
      // Conflicts on (creator_id, request_id) with drive 0d, which goes without a note; the new row sorts first.
      world.sqlite.exec(drive('0a', 'r2').replace('INSERT', 'INSERT OR REPLACE'))
      const drives = (worldState(world).services.drive!.entities as Record<string, Record<string, unknown>>).drives!
      expect(Object.keys(drives)).toEqual(['0a', '0b', '0f'])
      expect(difference(worldState(world), truth(contents(world, bytes)))).toBeUndefined()
    } finally {
      world.close()
    }
  })
})

/** The template bytes of a medium Drive task's world. */
function loadSampleBytes(): Buffer {
  const gym = createGym({ tasks: [], reuseWorlds: false })
  try {
    const ep = gym.reset(loadSample(2, ['drive-organize'])[1]!)
    const bytes = Buffer.from(ep.entry.baseline.bytes)
    ep.close()
    return bytes
  } finally {
    gym.worlds.close()
  }
}
