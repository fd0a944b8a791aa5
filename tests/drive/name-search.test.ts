import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { stmt } from '../../envs/core/db.ts'
import { Rng } from '../../envs/core/rng.ts'
import { createGoogleDocFile } from '../../envs/drive/docs-bridge.ts'
import { renameDoc } from '../../envs/drive/docs-bridge.ts'
import { nameColumns, refreshNameColumns } from '../../envs/drive/store/name-search.ts'
import { orderSql } from '../../envs/drive/routes/order.ts'
import { q } from './fixtures.ts'

const F = '/drive/v3/files'
const FOLDER = 'application/vnd.google-apps.folder'
// Astral and fullwidth letters (their UTF-16 and UTF-8 orders differ), İ (lower-cases to two characters), a lone
// surrogate (stored as bytes that read back as replacement characters), punctuation between words.
const NAMES = [
  'Budget 2026.txt',
  'budget-notes',
  '\u{1D400}lpha plan',
  '\uFF41lpha plan',
  'İstanbul trip',
  'bad\uD800name',
  'Roadmap',
  'a.b_c d',
]

/** Every file's stored name columns against those computed afresh from the name SQLite gives back. */
function expectNameColumns(h: Harness) {
  const db = h.entry.world.db
  const sql = 'SELECT id, name, name_key AS nameKey, name_words AS nameWords FROM drive_files'
  const rows = stmt(db, sql).all() as { id: string; name: string; nameKey: Buffer; nameWords: string }[]
  expect(rows.length).toBeGreaterThan(0)
  for (const r of rows) {
    expect({ id: r.id, nameKey: r.nameKey, nameWords: r.nameWords }).toEqual({ id: r.id, ...nameColumns(db, r.name) })
  }
}

function seed() {
  const rng = new Rng(3)
  const files = Array.from({ length: 60 }, (_, i) => ({
    name: rng.pick(NAMES),
    mimeType: 'text/plain',
    owner: 'ann',
    parent: rng.pick(['box', 'team', undefined]),
    // Few distinct times, so the name and then the id decide much of the order.
    at: `2026-03-0${1 + (i % 3)}T10:00:00Z`,
  }))
  return {
    name: 'name-search',
    now: '2026-03-10T15:00:00Z',
    users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann' }],
    drive: {
      sharedDrives: [{ key: 'team', name: 'Team', creator: 'ann', members: [] }],
      files: [{ key: 'box', name: 'Box', mimeType: FOLDER, owner: 'ann' }, ...files],
    },
  }
}

describe('drive.files.list name search columns', () => {
  test('follow every write of a name: seed, create, rename, copy and Google Docs', async () => {
    const h = harness(seed())
    expectNameColumns(h)
    const created = await h.call('POST', F, { json: { name: 'Fresh İdea' } })
    expect(created.status).toBe(200)
    const renamed = await h.call('PATCH', `${F}/${created.body.id}`, { json: { name: 'Quarterly \u{1D400}udget' } })
    expect(renamed.status).toBe(200)
    expect((await h.call('POST', `${F}/${created.body.id}/copy`, { json: {} })).status).toBe(200)
    h.entry.world.tx((db) => renameDoc(db, createGoogleDocFile(db, { ownerId: 'ann', title: 'Doc one' }).id, 'Doc two'))
    expectNameColumns(h)
    // The listing finds files by their current names only.
    const find = async (query: string) => {
      const files = (await h.call('GET', `${F}?q=${q(query)}`)).body.files as { name: string }[]
      return files.map((f) => f.name).sort()
    }
    const quarterly = ['Copy of Quarterly \u{1D400}udget', 'Quarterly \u{1D400}udget']
    expect(await find("name contains 'fresh'")).toEqual([])
    expect(await find("name contains 'quarterly'")).toEqual(quarterly)
    expect(await find("name contains '\u{1D400}udget'")).toEqual(quarterly)
    expect(await find("name contains 'doc'")).toEqual(['Doc two'])
    // refreshNameColumns repairs rows written around the store (as the benchmark's bulk copies are).
    h.entry.world.sqlite.exec("UPDATE drive_files SET name_key = NULL, name_words = ''")
    refreshNameColumns(h.entry.world.db)
    expectNameColumns(h)
  })

  test('pages exactly as the evaluator and sorter do, for queries SQL judges alone', async () => {
    const h = harness(seed())
    // `fullText contains ''` matches every file but is not exact in SQL: it sends the same query down the path
    // that loads every candidate, judges it in JavaScript and sorts there.
    const judged = ['', " and fullText contains ''"]
    const queries = [
      "name contains 'plan'",
      "name contains 'stanbul'",
      "name contains 'i'",
      "name contains 'a.b'",
      "name contains 'plan budget'",
      "name contains 'b q'",
      "name contains '...'",
      "name contains 'Q3 plan'",
      "name contains 'budget' and 'box' in parents",
      'trashed = false',
      "name contains '\uFF41'",
      "name contains 'bad'",
    ]
    const box = (stmt(h.entry.world.db, "SELECT id FROM drive_files WHERE name = 'Box'").get() as { id: string }).id
    const team = (stmt(h.entry.world.db, 'SELECT id FROM drive_shared_drives').get() as { id: string }).id
    // My Drive (the user corpus), and one shared drive: both scopes SQL judges exactly.
    const scopes = ['', `&corpora=drive&driveId=${team}&includeItemsFromAllDrives=true&supportsAllDrives=true`]
    const cases = queries.flatMap((s) => scopes.map((c) => [s.replace("'box'", `'${box}'`), c] as const))
    for (const [query, scope] of cases) {
      const orders = [
        undefined,
        'name',
        'name desc,modifiedTime',
        'modifiedTime desc,name_natural',
        'folder,createdTime',
      ]
      for (const orderBy of orders) {
        const walks = await Promise.all(
          judged.map(async (extra) => {
            const ids: string[] = []
            let token: string | undefined
            do {
              const order = orderBy ? `&orderBy=${q(orderBy)}` : ''
              const params = `q=${q(query + extra)}&pageSize=3${order}${scope}${token ? `&pageToken=${token}` : ''}`
              const res = await h.call('GET', `${F}?${params}`)
              expect(res.status, res.text).toBe(200)
              ids.push(...(res.body.files as { id: string }[]).map((f) => f.id))
              token = res.body.nextPageToken
            } while (token)
            return ids
          }),
        )
        expect(walks[0], `${query} by ${orderBy} in ${scope || 'My Drive'}`).toEqual(walks[1])
      }
    }
    // Some of them match several pages' worth, in either scope.
    for (const scope of scopes) {
      const plan = await h.call('GET', `${F}?q=${q("name contains 'plan'")}&pageSize=3${scope}`)
      expect(plan.body.files).toHaveLength(3)
      expect(plan.body.nextPageToken).toBeDefined()
    }
  })

  test('reads the default order from the listing index, with no sort step', () => {
    const h = harness(seed())
    const where = "instr(f.name_words, ' plan') > 0"
    const sqlText = `EXPLAIN QUERY PLAN SELECT f.id FROM drive_files f WHERE ${where} ORDER BY ${orderSql(undefined)}`
    const plan = (h.entry.world.sqlite.prepare(sqlText).all() as { detail: string }[]).map((p) => p.detail)
    expect(plan).toEqual(['SCAN f USING COVERING INDEX drive_files_by_listing'])
  })

  test('answers a bad orderBy or page token with the same errors on either path', async () => {
    const h = harness(seed())
    for (const extra of ['', " and fullText contains ''"]) {
      const query = q(`name contains 'plan'${extra}`)
      const order = await h.call('GET', `${F}?q=${query}&orderBy=size`)
      expect([order.status, order.body.error.message]).toEqual([400, 'Invalid sort order: size'])
      const token = await h.call('GET', `${F}?q=${query}&orderBy=bogus&pageToken=%25%25`)
      expect([token.status, token.body.error.message]).toEqual([400, 'Invalid sort order: bogus'])
      const page = await h.call('GET', `${F}?q=${query}&pageToken=%25%25`)
      expect([page.status, page.body.error.message]).toEqual([400, 'Invalid page token.'])
    }
  })
})

describe('nameColumns', () => {
  test('splits ASCII names into the words the Unicode word break gives', () => {
    const h = harness('empty')
    const db = h.entry.world.db
    const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('')
    const names = [
      ascii,
      [...ascii].reverse().join(''),
      'Report Q3 (final)',
      '__a--B..c9 ',
      'ÀSCII not',
      '\u212Aelvin',
      'report 1 Report notes 1',
      'Straße ÉTÉ straße été x',
    ]
    const mixed = (i: number) => Array.from({ length: 12 }, (_, k) => ascii[(i * 31 + k * 17) % 128]).join('')
    for (let i = 0; i < 200; i++) names.push(mixed(i))
    for (const name of names) {
      const lower = name.toLowerCase()
      const words = [...new Set(lower.split(/[^\p{L}\p{N}]+/u).filter(Boolean))].map((w) => ` ${w}`).join('')
      expect(nameColumns(db, name).nameWords).toBe(words)
    }
  })
})
