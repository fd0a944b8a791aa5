import { describe, expect, test } from 'vitest'
import { isDeepStrictEqual } from 'node:util'
import type Database from 'better-sqlite3'
import { Rng } from '../../envs/core/rng.ts'
import { World } from '../../envs/core/world.ts'
import { dumpGmail, fromSource, sourceOf } from '../../envs/gmail/state.ts'
import { buildWorld } from '../../server/seeding.ts'
import { loadSample } from '../../gym/corpus.ts'
import { worldTemplate } from '../../gym/world.ts'

// Gmail's dump reads each message's source through a per-connection memo (docs/decisions/0345): the seed's own
// parses on the connection that built the world, else one parse per distinct body. Whatever it serves must be what
// parsing the stored bytes from nothing gives.

const pick = <T>(rng: Rng, xs: readonly T[]) => xs[rng.int(0, xs.length - 1)]!

/** Task worlds with background mail (heavy and medium volume: a hundred seeded messages or more), from the corpus. */
function seededDocs(count: number): Record<string, unknown>[] {
  const docs: Record<string, unknown>[] = []
  for (const spec of loadSample(4)) {
    const volume = spec.world?.volume ?? 'none'
    if (volume !== 'heavy' && volume !== 'medium') continue
    const doc = worldTemplate(spec)?.build()
    const mail = (doc?.gmail as { messages?: unknown[] } | undefined)?.messages?.length ?? 0
    if (doc && mail >= 100) docs.push(doc)
    if (docs.length === count) break
  }
  return docs
}

function freshDump(world: World) {
  const copy = World.from(world.snapshot())
  try {
    return dumpGmail(copy)
  } finally {
    copy.close()
  }
}

describe('gmail dump sources', () => {
  test("the dump on the connection that built a seeded world equals a fresh connection's", () => {
    const docs = seededDocs(3)
    expect(docs.length).toBe(3)
    for (const doc of docs) {
      const world = buildWorld(doc, 1)
      try {
        const expected = freshDump(world)
        const messages = Object.keys(expected.entities.messages!).length
        expect(messages).toBeGreaterThan(100)
        expect(JSON.stringify(dumpGmail(world))).toBe(JSON.stringify(expected))
      } finally {
        world.close()
      }
    }
  })

  test("a message whose bytes changed after the seed is parsed from its bytes, not the seed's parse", () => {
    const [doc] = seededDocs(1)
    const world = buildWorld(doc!, 1)
    try {
      const sqlite = world.sqlite
      const rows = sqlite.prepare('SELECT rowid, raw FROM gmail_messages ORDER BY rowid LIMIT 20').raw().all() as [
        number,
        Buffer,
      ][]
      // Another sender, recipient and body (same length or not), written behind the seed's back.
      for (const [rowid, raw] of rows.slice(0, 10)) {
        const changed = Buffer.from(
          raw
            .toString('latin1')
            .replace(/^From: .*$/m, 'From: "Mallory" <mallory@evil.test>')
            .replace(/^To: .*$/m, 'To: someone@else.test'),
          'latin1',
        )
        const edited = Buffer.concat([changed, Buffer.from('\r\nappended line', 'latin1')])
        sqlite.prepare('UPDATE gmail_messages SET raw = ? WHERE rowid = ?').run(rowid % 2 ? edited : changed, rowid)
      }
      const expected = freshDump(world)
      const dumped = dumpGmail(world)
      expect(JSON.stringify(dumped)).toBe(JSON.stringify(expected))
      expect(JSON.stringify(dumped)).toContain('mallory@evil.test')
    } finally {
      world.close()
    }
  })

  test('messages sharing a body with other headers read as a fresh parse reads them', () => {
    const rng = new Rng(345)
    const client = {} as Database.Database
    const bodies = [
      'Hello there.',
      'Straße gesperrt, Zoë fährt.',
      '<p>Hi &amp; bye</p>',
      'aGVsbG8gd29ybGQ=',
      'Caf=E9 =3D soft=\r\nbreak',
      '--BB\r\nContent-Type: text/plain\r\n\r\npart\r\n--BB\r\n' +
        'Content-Type: application/pdf; name="x.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
        'JVBERi0xLjQ=\r\n--BB--\r\n',
    ]
    const types = [
      '',
      'Content-Type: text/plain; charset=UTF-8\r\n',
      'Content-Type: text/html\r\n',
      'Content-Transfer-Encoding: quoted-printable\r\n',
      'Content-Transfer-Encoding: base64\r\n',
      'Content-Type: multipart/mixed; boundary="BB"\r\n',
      'Content-Disposition: attachment; filename="a.txt"\r\n',
    ]
    let checked = 0
    for (let i = 0; i < 600; i++) {
      const from = pick(rng, ['ann@example.com', 'Ann Lee <ann@example.com>', '"Lee, Ann" <ann@example.com>'])
      const to = pick(rng, ['ben@example.com', 'ben@example.com, cy@example.org', 'Ben <ben@example.com>'])
      const extra = pick(rng, ['', 'Cc: dee@example.org\r\n', 'Bcc: x@y.test\r\n', 'In-Reply-To: <a@b>\r\n'])
      const raw = Buffer.from(
        `From: ${from}\r\nTo: ${to}\r\n${extra}Subject: s${i}\r\n${pick(rng, types)}\r\n` + pick(rng, bodies),
        'utf8',
      )
      // A new Buffer each time (as SQLite hands out), sometimes for bytes read before.
      const expected = fromSource(raw)
      expect(isDeepStrictEqual(sourceOf(client, raw), expected)).toBe(true)
      expect(isDeepStrictEqual(sourceOf(client, Buffer.from(raw)), expected)).toBe(true)
      checked++
    }
    expect(checked).toBe(600)
  })
})
