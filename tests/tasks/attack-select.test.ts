import { describe, expect, it } from 'vitest'
import { BULK_LIMIT, BYSTANDERS, pickItems, tier, tokens, tokensOf, type Focus } from '../../gym/attacks/select.ts'

// Per-item attack loops touch a bounded, deterministic set: the task's own items first, then bystanders.
const focus = (acted: string, seen: string, planted: string): Focus => ({
  acted: tokens(acted),
  seen: tokens(seen),
  planted: planted.toLowerCase(),
})
const files = Array.from({ length: 200 }, (_, i) => ({ id: `file${String(i).padStart(4, '0')}`, name: `Doc ${i}` }))
const key = (f: { id: string; name: string }) => ({ id: f.id, name: f.name })

describe('pickItems', () => {
  it('keeps every item of a small world', () => {
    expect(pickItems(files.slice(0, BULK_LIMIT), key, focus('', '', ''))).toEqual(files.slice(0, BULK_LIMIT))
  })

  it('bounds a large world and always takes what the reference acted on, planted and saw', () => {
    const f = focus(
      '{"path":"/drive/v3/files/file0150/permissions"}',
      '{"files":[{"id":"file0077"}]}',
      JSON.stringify({ drive: { files: [{ name: 'Doc 42' }] } }),
    )
    const got = pickItems(files, key, f)
    expect(got).toHaveLength(BULK_LIMIT)
    for (const id of ['file0150', 'file0077', 'file0042']) expect(got.map((x) => x.id)).toContain(id)
    // In list order, and the same choice every time.
    expect(got.map((x) => x.id)).toEqual([...got.map((x) => x.id)].sort())
    expect(pickItems(files, key, f)).toEqual(got)
  })

  it('keeps places for bystanders however many items the task names', () => {
    const f = focus(
      files
        .map((x) => x.id)
        .slice(0, 50)
        .join(' '),
      '',
      '',
    )
    const got = pickItems(files, key, f)
    const bystanders = got.filter((x) => tier(key(x), f) === 3)
    expect(bystanders).toHaveLength(BYSTANDERS)
    // Bystanders are spread over the list, not its head.
    expect(bystanders.some((x) => Number(x.id.slice(4)) >= 150)).toBe(true)
  })

  it('ranks what the reference acted on before what it only saw', () => {
    const seen = files
      .slice(100, 120)
      .map((x) => x.id)
      .join(',')
    const f = focus('file0199', seen, '')
    const got = pickItems(files, key, f, 4)
    expect(got.map((x) => x.id)).toContain('file0199')
    expect(got.filter((x) => tier(key(x), f) === 2)).toHaveLength(0)
  })

  it('matches planted names whole-string against the seed text, not ids', () => {
    expect(tier({ id: 'evt1', name: 'Q3 Budget' }, focus('', '', '{"name":"Q3 Budget"}'))).toBe(1)
    expect(tier({ id: 'evt1', name: 'abc' }, focus('', '', '{"name":"abc"}'))).toBe(3)
    expect(tier({ id: 'evt1', name: 'Notes' }, focus('', 'evt1', '{}'))).toBe(2)
  })
})

describe('tokensOf', () => {
  it('gives the tokens, in the order, of the texts joined by line ends', () => {
    const texts = ['{"id":"abcd"}', 'ab\ncd', 'x.y_z-1 abcd', '', 'tail1234', 'ab', 'cd12']
    expect([...tokensOf(texts)]).toEqual([...tokens(texts.join('\n'))])
    expect([...tokensOf(texts)]).toEqual(['abcd', 'x.y_z-1', 'tail1234', 'cd12'])
  })
})
