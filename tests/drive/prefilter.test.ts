import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { findUserById } from '../../envs/core/users.ts'
import { stmt } from '../../envs/core/db.ts'
import { Rng } from '../../envs/core/rng.ts'
import { parseDriveQuery } from '../../envs/drive/query/parse.ts'
import { matches } from '../../envs/drive/query/evaluate.ts'
import { prefilter } from '../../envs/drive/query/prefilter.ts'
import { listableFiles, listing } from '../../envs/drive/store/visibility.ts'
import { useTextSearch } from '../../envs/drive/store/text-search.ts'
import { rootIdOf } from '../../envs/drive/map.ts'
import { orderSql, sortFiles } from '../../envs/drive/routes/order.ts'

// Non-ASCII letters (one, K, folds to ASCII in JS), LIKE wildcards, and control characters: NUL ends LIKE's reading.
// Astral letters sort before U+FF41 in JavaScript (UTF-16) but after it in UTF-8; İ lower-cases to two characters
// (i and a combining dot, which splits words); a lone surrogate is stored as bytes that read back otherwise.
const NAMES = [
  'Budget 2026.txt',
  'budget_notes',
  'Roadmap',
  'Ünicode Büdget',
  'Café menu',
  'report%final',
  'a_b c',
  '\u212aelvin scale',
  'plan',
  'nul\u0000budget',
  'tab\u0001road',
  '\u{1D400}lpha',
  '\uFF41lpha',
  'İstanbul notes',
  'bad\uD800name',
]
const TEXTS = [
  '',
  'roadmap draft',
  'BUDGET review\nline two',
  'naïve café',
  '100% done',
  'under_score',
  'x\u0000budget',
]
const VALUES = [
  'budget',
  'BUD',
  'road',
  'café',
  'e',
  '%',
  '_',
  'kel',
  'plan',
  'line two',
  'xyz',
  'stanbul',
  'i',
  '\u{1D400}',
  '\uFF41',
  '\uD800',
  '',
]
const MIMES = ['text/plain', 'application/pdf', 'application/vnd.google-apps.folder']

/** A random q over the fields the prefilter narrows, with and/or/not nesting; `parents` picks `in parents` ids. */
function randomQuery(rng: Rng, parents: string[], depth = 0): string {
  if (depth < 2 && rng.chance(0.4)) {
    const op = rng.pick(['and', 'or'])
    return `(${randomQuery(rng, parents, depth + 1)} ${op} ${randomQuery(rng, parents, depth + 1)})`
  }
  if (depth < 3 && rng.chance(0.15)) return `not ${randomQuery(rng, parents, depth + 1)}`
  const v = rng.pick(VALUES).replace(/'/g, "\\'")
  switch (rng.int(0, 12)) {
    case 12:
      return `description contains '${v}'`
    case 8:
      return `'${rng.pick(parents).replace(/'/g, "\\'")}' in parents`
    case 9:
      return `'${rng.pick(['me', 'ben@example.com', 'BEN@example.com', 'Cée@example.com', 'cee@example.com', 'nobody@x.org', ''])}' in ${rng.pick(['owners', 'writers', 'readers'])}`
    case 10:
      return 'sharedWithMe'
    case 11:
      return rng.chance(0.5)
        ? `visibility = '${rng.pick(['anyoneCanFind', 'limited'])}'`
        : `properties has { key='team' and value='${rng.pick(['atlas', 'zephyr'])}' }`
    case 0:
      return `name contains '${v}'`
    case 1:
      return `fullText contains '${v}'`
    case 2:
      return `name = '${rng.pick(NAMES)}'`
    case 3:
      return `mimeType ${rng.pick(['=', '!='])} '${rng.pick(MIMES)}'`
    case 4:
      return `mimeType contains '${rng.pick(['pdf', 'google', 'text'])}'`
    case 5:
      return `trashed = ${rng.pick(['true', 'false'])}`
    case 6:
      return `modifiedTime ${rng.pick(['>', '<', '>=', '<=', '=', '!='])} '2026-03-0${rng.int(1, 9)}T10:00:00Z'`
    default:
      return `starred = ${rng.pick(['true', 'false'])} and 'me' in owners`
  }
}

describe('drive.files.list q prefilter', () => {
  test('selects every file the query matches, and exactly those when it says it is exact', () => {
    const rng = new Rng(11)
    // Two folders and an odd seeded id, Ann's top-level files (under her root) and Ben's, some shared with her.
    const folders = [
      {
        key: 'f1',
        id: 'folderOne000000001',
        name: 'One',
        mimeType: 'application/vnd.google-apps.folder',
        owner: 'ann',
      },
      {
        key: 'f2',
        id: 'folderTwo000000002',
        name: 'Two',
        mimeType: 'application/vnd.google-apps.folder',
        owner: 'ben',
        permissions: [{ type: 'user', role: 'reader', user: 'ann' }],
      },
    ]
    const files = Array.from({ length: 60 }, (_, i) => ({
      name: rng.pick(NAMES),
      mimeType: rng.pick(MIMES.slice(0, 2)),
      owner: rng.pick(['ann', 'ann', 'ann', 'ben', 'cee']),
      text: rng.pick(TEXTS),
      description: rng.chance(0.3) ? rng.pick(TEXTS) : undefined,
      starred: rng.chance(0.3),
      trashed: rng.chance(0.2),
      at: `2026-03-0${1 + (i % 9)}T10:00:00Z`,
      ...(rng.chance(0.6) ? { parent: rng.pick(['f1', 'f2']) } : {}),
      ...(rng.chance(0.4) ? { properties: { team: rng.pick(['atlas', 'zephyr']) } } : {}),
      permissions: [
        { type: 'anyone' as const, role: 'reader', allowFileDiscovery: true },
        ...(rng.chance(0.3)
          ? [{ type: 'user' as const, role: rng.pick(['reader', 'writer']), user: rng.pick(['ann', 'ben', 'cee']) }]
          : []),
        ...(rng.chance(0.1) ? [{ type: 'group' as const, role: 'writer', emailAddress: 'CÉE@Example.com' }] : []),
      ],
    }))
    const users = [
      { id: 'ann', email: 'ann@example.com', name: 'Ann' },
      { id: 'ben', email: 'ben@example.com', name: 'Ben' },
      { id: 'cee', email: 'Cee@Example.com', name: 'Cee' },
    ]
    const h = harness({
      name: 'prefilter',
      now: '2026-03-10T15:00:00Z',
      users,
      drive: { files: [...folders, ...files] },
    })
    const db = h.entry.world.db
    // Seeds lower-case grant addresses; store one as another writer might, with capitals SQL's lower() leaves alone.
    expect(
      db.$client
        .prepare(
          "UPDATE drive_permissions SET email_address = 'CÉE@Example.com' WHERE email_address = 'cée@example.com'",
        )
        .run().changes,
    ).toBeGreaterThan(0)
    const ann = findUserById(db, 'ann')!
    // The prefilter's text terms call the listing's SQL function.
    useTextSearch(db.$client)
    const viewer = { id: ann.id, email: ann.email, root: rootIdOf(ann.id) }
    const views = listableFiles(db, ann, undefined, { allColumns: true })
    expect(views.length).toBe(62)
    const parents = ['folderOne000000001', 'folderTwo000000002', 'root', viewer.root, rootIdOf('ben'), "we'ird id"]
    let narrowed = 0
    let paged = 0
    for (let i = 0; i < 500; i++) {
      const q = randomQuery(rng, parents)
      const cond = parseDriveQuery(q)
      const pf = prefilter(cond, viewer)
      const selected = new Set(
        (stmt(db, `SELECT id FROM drive_files WHERE ${pf.where}`).all(...pf.params) as { id: string }[]).map(
          (r) => r.id,
        ),
      )
      const matching = views.filter((v) => matches(cond, v)).map((v) => v.row.id)
      for (const id of matching) expect(selected.has(id), `${q} dropped ${id}`).toBe(true)
      if (pf.exact) expect(views.filter((v) => selected.has(v.row.id)).length, `${q} is exact`).toBe(matching.length)
      if (selected.size < views.length) narrowed++
      // The listing itself (prefilter and reach in one statement, only the columns the query and order read)
      // keeps every match, judges its rows as whole rows are judged, and orders them the same way.
      const orderBy = rng.pick([
        undefined,
        'name',
        'modifiedByMeTime desc,quotaBytesUsed',
        'folder,createdTime desc',
        'starred,recency desc,name_natural',
      ])
      const listed = listableFiles(db, ann, cond, { orderBy }).filter((v) => matches(cond, v))
      expect(listed.map((v) => v.row.id).sort(), q).toEqual([...matching].sort())
      const full = views.filter((v) => matches(cond, v))
      const sorted = sortFiles(full, orderBy).map((v) => v.row.id)
      expect(
        sortFiles(listed, orderBy).map((v) => v.row.id),
        `${q} by ${orderBy}`,
      ).toEqual(sorted)
      // When SQL judges the query exactly, it also orders and pages: every page is that slice of the sorted matches.
      const found = listing(db, ann, cond, { orderBy })
      if (found.exact) {
        const size = rng.int(1, 7)
        for (let offset = 0; offset <= sorted.length; offset += size) {
          const page = found.page(orderSql(orderBy), offset, size)
          const ids = page.views.map((v) => v.row.id)
          expect(ids, `${q} by ${orderBy} from ${offset}`).toEqual(sorted.slice(offset, offset + size))
          expect(page.more).toBe(offset + size < sorted.length)
        }
        paged++
      }
    }
    // The prefilter is worth having: most random queries load fewer rows than the whole table.
    expect(narrowed).toBeGreaterThan(250)
    // And SQL pages a good share of them alone.
    expect(paged).toBeGreaterThan(150)
    // Each page is its own statement to compile (literal LIMIT/OFFSET), and most text queries now page in SQL.
  }, 120_000)
})
