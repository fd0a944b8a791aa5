import { afterAll, describe, expect, it } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { World } from '../../envs/core/world.ts'
import type { Json } from '../../envs/core/service.ts'
import { worldState } from '../../server/state.ts'
import { WorldManager } from '../../server/worlds.ts'

// Dump entities are memoised per connection by all their inputs (docs/decisions/0297): a dump on a warm connection
// must equal a dump of the same bytes on a fresh connection after any kind of write, and unchanged entities come
// back as the same objects.

type Entities = Record<string, Record<string, Json>>
const entities = (w: World, service: string): Entities => worldState(w).services[service]!.entities as Entities

/** The state of the world's bytes read on a new connection (an empty memo). */
function fresh(world: World): string {
  const copy = World.from(world.snapshot())
  try {
    return JSON.stringify(worldState(copy))
  } finally {
    copy.close()
  }
}

const MEMOISED = [
  ['gmail', 'messages'],
  ['gmail', 'labels'],
  ['slack', 'users'],
  ['slack', 'channels'],
  ['slack', 'messages'],
  ['drive', 'files'],
  ['calendar', 'events'],
  ['docs', 'documents'],
] as const

const first = <T>(rows: Record<string, T>): [string, T] => Object.entries(rows)[0]!

describe('dump memo', () => {
  it('reflects writes made through the API and keeps untouched entities as the same objects', async () => {
    const h = harness('demo')
    const world = h.entry.world
    const before = worldState(world)
    const gmail = before.services.gmail!.entities as Entities
    const [key, message] = first(gmail.messages!) as [string, { id: string; labelIds: string[]; userId: string }]
    const token = h.google(message.userId)
    const starred = await h.call('POST', `/gmail/v1/users/me/messages/${message.id}/modify`, {
      token,
      json: { addLabelIds: ['STARRED'] },
    })
    expect(starred.status).toBe(200)
    const files = await h.call('GET', '/drive/v3/files', { token })
    const file = (files.body.files as { id: string }[])[0]!
    expect(
      (await h.call('PATCH', `/drive/v3/files/${file.id}`, { token, json: { name: 'Renamed by PATCH' } })).status,
    ).toBe(200)
    const slackBefore = before.services.slack!.entities as Entities
    const [, posted] = Object.entries(slackBefore.messages!).find(
      ([, m]) => (slackBefore.channels![(m as { channel: string }).channel] as { type: string }).type === 'public',
    )! as [string, { channel: string; ts: string }]
    const { channel, ts } = posted
    const reacted = await h.call('POST', '/api/reactions.add', {
      token: h.slack(),
      form: { channel, timestamp: ts, name: 'tada' },
    })
    expect(reacted.body.ok).toBe(true)

    const after = worldState(world)
    expect(JSON.stringify(after)).toBe(fresh(world))
    const mail = (after.services.gmail!.entities as Entities).messages!
    expect(mail[key]).not.toBe(gmail.messages![key])
    expect((mail[key] as { labelIds: string[] }).labelIds).toContain('STARRED')
    const others = Object.keys(mail).filter((k) => k !== key)
    expect(others.length).toBeGreaterThan(0)
    for (const k of others) expect(mail[k], k).toBe(gmail.messages![k])
    expect((after.services.drive!.entities as Entities).files![file.id]).toMatchObject({ name: 'Renamed by PATCH' })
    // A reaction changes no message row, only what the message's entity shows.
    const slackMessage = (after.services.slack!.entities as Entities).messages![`${channel}/${ts}`] as {
      reactions: Record<string, string[]>
    }
    expect(Object.keys(slackMessage.reactions)).toContain('tada')
    h.worlds.close()
  })

  it('reflects raw SQL rewrites of the same ids, blobs included, on a warm connection', () => {
    const h = harness('demo')
    const world = h.entry.world
    const gmail = entities(world, 'gmail')
    const drive = entities(world, 'drive')
    const slack = entities(world, 'slack')
    const calendar = entities(world, 'calendar')
    const docs = entities(world, 'docs')
    const sql = world.sqlite
    // Same length, one byte changed, same id: only the bytes tell it apart.
    const { rowid, raw } = sql.prepare('SELECT rowid, raw FROM gmail_messages ORDER BY rowid LIMIT 1').get() as {
      rowid: number
      raw: Buffer
    }
    const edited = Buffer.from(raw)
    const at = edited.lastIndexOf(Buffer.from('\r\n\r\n')) + 4
    const letter = [...edited.subarray(at)].findIndex((b) => (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a))
    expect(letter).toBeGreaterThanOrEqual(0)
    edited[at + letter] = edited[at + letter]! ^ 0x20
    sql.prepare('UPDATE gmail_messages SET raw = ? WHERE rowid = ?').run(edited, rowid)
    const file = sql
      .prepare(
        'SELECT id, content FROM drive_files WHERE content IS NOT NULL AND length(content) > 0 ' +
          'ORDER BY rowid LIMIT 1',
      )
      .get() as { id: string; content: Buffer }
    const content = Buffer.from(file.content)
    content[0] = content[0]! ^ 1
    sql.prepare('UPDATE drive_files SET content = ? WHERE id = ?').run(content, file.id)
    sql.exec('DELETE FROM slack_members WHERE rowid = (SELECT min(rowid) FROM slack_members)')
    sql.exec(
      "UPDATE calendar_events SET data = json_set(data, '$.summary', 'Rewritten') " +
        'WHERE rowid = (SELECT min(rowid) FROM calendar_events)',
    )
    sql.exec(
      'UPDATE docs_documents SET model = replace(model, \'"text":"\', \'"text":"Edited \') ' +
        'WHERE rowid = (SELECT min(rowid) FROM docs_documents)',
    )

    const after = worldState(world)
    expect(JSON.stringify(after)).toBe(fresh(world))
    const changed = (service: string, collection: string, was: Entities) => {
      const now = (after.services[service]!.entities as Entities)[collection]!
      return Object.keys(now).filter((k) => JSON.stringify(now[k]) !== JSON.stringify(was[collection]![k]))
    }
    expect(changed('gmail', 'messages', gmail)).toHaveLength(1)
    expect(changed('drive', 'files', drive)).toEqual([file.id])
    expect(changed('slack', 'channels', slack)).toHaveLength(1)
    expect(changed('calendar', 'events', calendar).length).toBeGreaterThan(0)
    expect(changed('docs', 'documents', docs)).toHaveLength(1)
    h.worlds.close()
  })

  it('gives the snapshot state back after restore()', async () => {
    const h = harness('demo')
    const world = h.entry.world
    const snap = world.snapshot()
    const initial = JSON.stringify(worldState(world))
    world.sqlite.exec(
      "UPDATE gmail_messages SET subject = 'changed' " + 'WHERE rowid = (SELECT min(rowid) FROM gmail_messages)',
    )
    expect(JSON.stringify(worldState(world))).not.toBe(initial)
    world.restore(snap)
    expect(JSON.stringify(worldState(world))).toBe(initial)
    h.worlds.close()
  })

  describe('on a rewound connection (validation reuses one per template)', () => {
    const worlds = new WorldManager()
    afterAll(() => worlds.close())

    it("shows the template rows again, as the first dump's objects", () => {
      const a = worlds.create({ seed: 'demo', reuse: true })
      expect(a.world.held).toBe(true)
      const initial = worldState(a.world)
      const sql = a.world.sqlite
      sql.exec(
        "UPDATE gmail_messages SET raw = CAST(replace(CAST(raw AS TEXT), 'a', 'b') AS BLOB) " +
          'WHERE rowid = (SELECT min(rowid) FROM gmail_messages)',
      )
      sql.exec("UPDATE slack_messages SET text = 'rewritten' WHERE rowid = (SELECT min(rowid) FROM slack_messages)")
      const changed = worldState(a.world)
      expect(JSON.stringify(changed.services.gmail)).not.toBe(JSON.stringify(initial.services.gmail))
      expect(JSON.stringify(changed.services.slack)).not.toBe(JSON.stringify(initial.services.slack))
      const connection = a.world.sqlite
      worlds.delete(a.id)

      const b = worlds.create({ seed: 'demo', reuse: true })
      expect(b.world.sqlite).toBe(connection)
      const again = worldState(b.world)
      expect(JSON.stringify(again)).toBe(JSON.stringify(initial))
      for (const [service, c] of MEMOISED) {
        const was = (initial.services[service]!.entities as Entities)[c]!
        const now = (again.services[service]!.entities as Entities)[c]!
        expect(Object.keys(now).length, c).toBeGreaterThan(0)
        for (const id of Object.keys(now)) expect(now[id], `${service} ${c} ${id}`).toBe(was[id])
      }
      worlds.delete(b.id)
    })
  })
})
