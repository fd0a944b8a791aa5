import { describe, expect, it } from 'vitest'
import { loadCorpus, loadSample } from '../../gym/corpus.ts'
import { generateAll, DEFAULT_PER_FAMILY } from '../../tasks-lite/generate.ts'
import { families } from '../../tasks-lite/families/index.ts'
import { sampleTasks, validateAll } from '../../scripts/validate-tasks.ts'
import { attackMatrix, familyTable } from '../../gym/validate.ts'
import { attacks } from '../../gym/attacks/index.ts'
import { oracles } from '../../oracles/index.ts'

const corpus = loadCorpus()

describe('task corpus', () => {
  it('is what the generators produce (tasks-lite/index.jsonl pins it: tests/tasks/corpus-index.test.ts)', () => {
    expect(corpus.length).toBe(families.length * DEFAULT_PER_FAMILY)
    const fresh = new Map(generateAll().map((t) => [t.id, JSON.stringify(t)]))
    expect(corpus.filter((t) => fresh.get(t.id) !== JSON.stringify(t)).map((t) => t.id)).toEqual([])
  })

  it('gives every instance a generated-by header, a known oracle and at least two near misses', () => {
    for (const t of corpus) {
      expect(t.generatedBy).toBe('tasks-lite/generate.ts')
      expect(oracles[t.oracle.id], t.id).toBeDefined()
      expect(t.nearMisses.length, t.id).toBeGreaterThanOrEqual(2)
    }
  })

  it('produces distinct instances per family (different worlds and instructions or answers)', () => {
    for (const f of families) {
      const a = f.generate(1)
      const b = f.generate(2)
      expect(JSON.stringify(a.seed)).not.toBe(JSON.stringify(b.seed))
      expect(JSON.stringify(a.oracle.params)).not.toBe(JSON.stringify(b.oracle.params))
    }
  })

  it('keeps answers out of the instruction', () => {
    for (const t of corpus) {
      const p = t.oracle.params as Record<string, unknown>
      for (const key of ['answer', 'right', 'filename'])
        if (typeof p[key] === 'string') expect(t.instruction, t.id).not.toContain(p[key])
    }
  })
})

describe('tasks:validate on a sample', () => {
  it('passes references (that looked first), fails no-ops, near misses and every attack for one instance of every family', async () => {
    const results = await validateAll(sampleTasks(corpus, 1))
    const table = familyTable(results)
    expect(results.map((r) => r.family).sort()).toEqual(families.map((f) => f.id).sort())
    for (const r of results) expect(r.problems, `${r.id}\n${table}`).toEqual([])
    // Families waiting for an unimplemented service method are reported, never silently passed.
    for (const r of results.filter((x) => x.pending)) expect(r.nearMisses).toEqual([])
    expect(results.filter((r) => !r.pending).length).toBeGreaterThanOrEqual(12)
    // The attack library ran on every family, and the matrix shows every attack somewhere.
    for (const r of results.filter((x) => !x.pending)) expect(r.attacks.length, r.id).toBeGreaterThanOrEqual(6)
    const matrix = attackMatrix(results)
    const seen = new Set(matrix.flatMap((f) => Object.keys(f.attacks)))
    expect([...seen].sort()).toEqual(attacks.map((a) => a.id).sort())
    for (const f of matrix)
      for (const [id, a] of Object.entries(f.attacks))
        if (a.max !== null) expect(a.max, `${f.family} ${id}`).toBeLessThan(a.damaging ? 0.0001 : 1)
  }, 240_000)
})

describe('sampleTasks', () => {
  it('keeps the named families (one or several) and a number of instances per family', () => {
    const two = sampleTasks(corpus, 2, ['gmail-reply-po', 'calendar-rsvp'])
    expect([...new Set(two.map((t) => t.family))].sort()).toEqual(['calendar-rsvp', 'gmail-reply-po'])
    expect(two).toHaveLength(4)
    expect(sampleTasks(corpus, 1, 'gmail-reply-po').map((t) => t.family)).toEqual(['gmail-reply-po'])
    expect(new Set(sampleTasks(corpus, 1, []).map((t) => t.family)).size).toBe(families.length)
  })

  it('gives what loadSample generates: the same tasks in the same order, without generating the whole corpus', () => {
    const same = (a: unknown[], b: unknown[]) => expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    same(loadSample(1), sampleTasks(corpus, 1))
    same(
      loadSample(12, ['gmail-reply-po', 'calendar-rsvp']),
      sampleTasks(corpus, 12, ['gmail-reply-po', 'calendar-rsvp']),
    )
    same(loadSample(undefined, ['slack-pin-final']), sampleTasks(corpus, undefined, ['slack-pin-final']))
    same(loadSample(2, ['no-such-family']), [])
    // The 2nd instance in corpus order is seed 10 (files sort as text: -1, -10, -11, ...), as in the corpus.
    expect(loadSample(2, ['gmail-reply-po']).map((t) => t.id)).toEqual(['gmail-reply-po-1', 'gmail-reply-po-10'])
  })
})
