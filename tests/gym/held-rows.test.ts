import { describe, expect, it } from 'vitest'
import { World } from '../../envs/core/world.ts'
import { readRows, tableRead } from '../../envs/core/dump-rows.ts'

/**
 * A held world's reads (envs/core/dump-rows.ts) after rows were written with the values a read takes unchanged:
 * the kept rows themselves, unless a kept row went without a note (docs/decisions/0347).
 */
describe('readRows on a held world', () => {
  const world = () => {
    const template = World.create([])
    template.sqlite.exec(`CREATE TABLE t_pairs (v TEXT, u TEXT UNIQUE);
      INSERT INTO t_pairs VALUES ('a', '1'), ('b', '2'), ('c', '3')`)
    const bytes = template.snapshot().bytes
    template.close()
    const held = World.from({ bytes })
    held.hold()
    return held
  }
  const read = tableRead('t_pairs', ['v'], ['rowid'])

  it('gives the kept rows back when every written row has the values it read', () => {
    const w = world()
    try {
      const kept = readRows(w, read).rows
      w.sqlite.exec("UPDATE t_pairs SET u = u || 'x'; UPDATE t_pairs SET v = v WHERE v = 'b'")
      const now = readRows(w, read)
      expect(now.rows).toBe(kept)
      expect(now.since?.old).toEqual([])
      expect(now.since?.fresh).toEqual([])
    } finally {
      w.close()
    }
  })

  it('reads the table again when REPLACE deleted a kept row without a note', () => {
    const w = world()
    try {
      const kept = readRows(w, read).rows
      // Row a keeps its value; row c, whose `u` it takes, is deleted by REPLACE (no trigger fires for it).
      w.sqlite.exec("UPDATE OR REPLACE t_pairs SET u = '3' WHERE v = 'a'")
      const now = readRows(w, read)
      expect(now.rows).not.toBe(kept)
      expect(now.rows.map((r) => r[0])).toEqual(['a', 'b'])
    } finally {
      w.close()
    }
  })

  it('tells written rows whose values changed from those rewritten as they were', () => {
    const w = world()
    try {
      const kept = readRows(w, read).rows
      w.sqlite.exec("UPDATE t_pairs SET u = u || 'x'; UPDATE t_pairs SET v = 'B' WHERE v = 'b'")
      const now = readRows(w, read)
      expect(now.rows.map((r) => r[0])).toEqual(['a', 'B', 'c'])
      expect(now.rows[0]).toBe(kept[0])
      expect(now.rows[2]).toBe(kept[2])
      expect(now.since?.old).toEqual([kept[1]])
      expect(now.since?.fresh.map((r) => r[0])).toEqual(['B'])
    } finally {
      w.close()
    }
  })
})
