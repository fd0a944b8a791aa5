import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { findUserById } from '../../envs/core/users.ts'
import { stmt } from '../../envs/core/db.ts'
import { Rng } from '../../envs/core/rng.ts'
import { parseDriveQuery } from '../../envs/drive/query/parse.ts'
import { matches } from '../../envs/drive/query/evaluate.ts'
import { prefilter } from '../../envs/drive/query/prefilter.ts'
import { listableFiles } from '../../envs/drive/store/visibility.ts'

const NAMES = ['Budget 2026.txt', 'budget_notes', 'Roadmap', 'Ünicode Büdget', 'Café menu', 'report%final', 'a_b c', '\u212aelvin scale', 'plan']
const TEXTS = ['', 'roadmap draft', 'BUDGET review\nline two', 'naïve café', '100% done', 'under_score']
const VALUES = ['budget', 'BUD', 'road', 'café', 'e', '%', '_', 'kel', 'plan', 'line two', 'xyz']
const MIMES = ['text/plain', 'application/pdf', 'application/vnd.google-apps.folder']

/** A random q over the fields the prefilter narrows, with and/or/not nesting. */
function randomQuery(rng: Rng, depth = 0): string {
  if (depth < 2 && rng.chance(0.4)) {
    const op = rng.pick(['and', 'or'])
    return `(${randomQuery(rng, depth + 1)} ${op} ${randomQuery(rng, depth + 1)})`
  }
  if (depth < 3 && rng.chance(0.15)) return `not ${randomQuery(rng, depth + 1)}`
  const v = rng.pick(VALUES).replace(/'/g, "\\'")
  switch (rng.int(0, 7)) {
    case 0: return `name contains '${v}'`
    case 1: return `fullText contains '${v}'`
    case 2: return `name = '${rng.pick(NAMES)}'`
    case 3: return `mimeType ${rng.pick(['=', '!='])} '${rng.pick(MIMES)}'`
    case 4: return `mimeType contains '${rng.pick(['pdf', 'google', 'text'])}'`
    case 5: return `trashed = ${rng.pick(['true', 'false'])}`
    case 6: return `modifiedTime ${rng.pick(['>', '<', '>=', '<=', '=', '!='])} '2026-03-0${rng.int(1, 9)}T10:00:00Z'`
    default: return `starred = ${rng.pick(['true', 'false'])} and 'me' in owners`
  }
}

describe('drive.files.list q prefilter', () => {
  test('selects every file the query matches, and exactly those when it says it is exact', () => {
    const rng = new Rng(11)
    const files = Array.from({ length: 60 }, (_, i) => ({
      name: rng.pick(NAMES),
      mimeType: rng.pick(MIMES.slice(0, 2)),
      owner: 'ann',
      text: rng.pick(TEXTS),
      description: rng.chance(0.3) ? rng.pick(TEXTS) : undefined,
      starred: rng.chance(0.3),
      trashed: rng.chance(0.2),
      at: `2026-03-0${1 + (i % 9)}T10:00:00Z`,
    }))
    const h = harness({ name: 'prefilter', now: '2026-03-10T15:00:00Z', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann' }], drive: { files } })
    const db = h.entry.world.db
    const views = listableFiles(db, findUserById(db, 'ann')!)
    expect(views.length).toBe(60)
    let narrowed = 0
    for (let i = 0; i < 400; i++) {
      const q = randomQuery(rng)
      const cond = parseDriveQuery(q)
      const pf = prefilter(cond)
      const selected = new Set((stmt(db, `SELECT id FROM drive_files WHERE ${pf.where}`).all(...pf.params) as { id: string }[]).map((r) => r.id))
      const matching = views.filter((v) => matches(cond, v)).map((v) => v.row.id)
      for (const id of matching) expect(selected.has(id), `${q} dropped ${id}`).toBe(true)
      if (pf.exact) expect(selected.size, `${q} is exact`).toBe(matching.length)
      if (selected.size < views.length) narrowed++
    }
    // The prefilter is worth having: most random queries load fewer rows than the whole table.
    expect(narrowed).toBeGreaterThan(200)
  })
})
