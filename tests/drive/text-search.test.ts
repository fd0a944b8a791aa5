import Database from 'better-sqlite3'
import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { findUserById } from '../../envs/core/users.ts'
import { parseDriveQuery } from '../../envs/drive/query/parse.ts'
import { listing } from '../../envs/drive/store/visibility.ts'
import { textContainsSql, useTextSearch } from '../../envs/drive/store/text-search.ts'
import { q } from './fixtures.ts'

const F = '/drive/v3/files'
// K (U+212A) and İ lower-case to ASCII in JavaScript, not in SQLite; NUL ends LIKE's reading; LIKE's wildcards;
// an astral letter; line breaks (which join the columns); a lone surrogate (stored as a replacement character).
const TEXTS = [
  '',
  'Roadmap draft',
  'BUDGET review\nline two',
  '\u212aelvin scale',
  '\u0130stanbul notes',
  'x\u0000budget',
  '100% done',
  'under_score',
  '\u{1D400}lpha',
  'caf\u00e9 MENU',
  'bad\uD800name',
]
const VALUES = ['budget', 'BUD', 'kelvin', 'k', 'i\u0307stanbul', 'i', '%', '_', 'e two', 'w\nline', 'caf\u00e9 m', '']

describe('drive.files.list text search SQL', () => {
  test('judges every text and value as the JavaScript evaluator does', () => {
    const db = new Database(':memory:')
    useTextSearch(db)
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL)')
    const insert = db.prepare('INSERT INTO t (a, b) VALUES (?, ?)')
    for (const a of TEXTS) for (const b of TEXTS) insert.run(a, b)
    const rows = db.prepare('SELECT id, a, b FROM t').all() as { id: number; a: string; b: string }[]
    let matched = 0
    for (const value of VALUES) {
      const sql = textContainsSql(['a', 'b'], value)!
      const got = db
        .prepare(`SELECT id FROM t WHERE ${sql.where} ORDER BY id`)
        .pluck()
        .all(...sql.params)
      // The evaluator's test (query/evaluate.ts fullText), over the texts as SQLite gave them back.
      const want = rows.filter((r) => `${r.a}\n${r.b}`.toLowerCase().includes(value.toLowerCase())).map((r) => r.id)
      expect(got, JSON.stringify(value)).toEqual(want)
      matched += want.length
    }
    // Matches of non-ASCII text the LIKE alone would miss (K, İ) are among them.
    expect(matched).toBeGreaterThan(VALUES.length)
    expect(textContainsSql(['a'], '\uD800')).toBeUndefined()
    db.close()
  })
})

const seed = {
  name: 'text-search',
  now: '2026-03-10T15:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben' },
  ],
  drive: {
    files: [
      { name: 'Plan', owner: 'ann', text: 'The \u212aelvin roadmap', at: '2026-03-01T10:00:00Z' },
      { name: 'Notes', owner: 'ann', description: 'KELVIN scale', at: '2026-03-02T10:00:00Z' },
      { name: 'Kelvin.txt', owner: 'ann', at: '2026-03-03T10:00:00Z' },
      { name: 'Other', owner: 'ann', text: 'nothing here', at: '2026-03-04T10:00:00Z' },
      { name: 'Ben kelvin', owner: 'ben', at: '2026-03-05T10:00:00Z' },
    ],
  },
}

/** The names files.list gives for `query`, walking every page of `pageSize`. */
async function names(h: Harness, query: string, pageSize = 2): Promise<string[]> {
  const out: string[] = []
  let token = ''
  do {
    const res = await h.call('GET', `${F}?q=${q(query)}&pageSize=${pageSize}${token && `&pageToken=${token}`}`)
    expect(res.status).toBe(200)
    out.push(...(res.body.files as { name: string }[]).map((f) => f.name))
    token = res.body.nextPageToken ?? ''
  } while (token)
  return out
}

describe('drive.files.list fullText contains', () => {
  const query = "fullText contains 'kelvin' and trashed = false"

  test('is judged, ordered and paged by SQL', () => {
    const h = harness(seed)
    const db = h.entry.world.db
    const ann = findUserById(db, 'ann')!
    for (const term of [query, "description contains '\u00e9'", "(name contains 'x' or fullText contains 'y')"])
      expect(listing(db, ann, parseDriveQuery(term), { myDriveOnly: true }).exact, term).toBe(true)
  })

  test('follows create, update, trash, delete and a snapshot restored', async () => {
    const h = harness(seed)
    // Newest first; the K in Plan's text and Notes' capitals match as JavaScript lower-cases them.
    expect(await names(h, query)).toEqual(['Kelvin.txt', 'Notes', 'Plan'])
    const made = await h.call('POST', F, { json: { name: 'Made', description: 'a \u212aELVIN' } })
    expect(made.status).toBe(200)
    expect(await names(h, query)).toEqual(['Made', 'Kelvin.txt', 'Notes', 'Plan'])
    const other = (await h.call('GET', `${F}?q=${q("name = 'Other'")}`)).body.files[0].id as string
    await h.call('PATCH', `${F}/${other}`, { json: { description: 'now \u212a-elvin free' } })
    await h.call('PATCH', `${F}/${made.body.id}`, { json: { description: 'plain' } })
    expect(await names(h, query)).toEqual(['Kelvin.txt', 'Notes', 'Plan'])
    await h.call('PATCH', `${F}/${other}`, { json: { description: 'Kelvin again' } })
    expect(await names(h, query)).toEqual(['Other', 'Kelvin.txt', 'Notes', 'Plan'])
    h.worlds.snapshot(h.entry.id, 'before')
    const notes = (await h.call('GET', `${F}?q=${q("name = 'Notes'")}`)).body.files[0].id as string
    await h.call('PATCH', `${F}/${notes}`, { json: { trashed: true } })
    expect(await names(h, query)).toEqual(['Other', 'Kelvin.txt', 'Plan'])
    expect(await names(h, "fullText contains 'kelvin' and trashed = true")).toEqual(['Notes'])
    expect((await h.call('DELETE', `${F}/${other}`)).status).toBe(204)
    expect(await names(h, query)).toEqual(['Kelvin.txt', 'Plan'])
    // A restored world has a new connection: the listing's SQL function is set up on it again.
    h.worlds.restore(h.entry.id, 'before')
    expect(await names(h, query)).toEqual(['Other', 'Kelvin.txt', 'Notes', 'Plan'])
    expect(await names(h, "not fullText contains 'kelvin'", 1)).toEqual(['Made'])
    expect(await names(h, query, 100)).toEqual(['Other', 'Kelvin.txt', 'Notes', 'Plan'])
  })
})
