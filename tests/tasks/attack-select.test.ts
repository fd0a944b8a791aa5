import { describe, expect, it } from 'vitest'
import {
  BULK_LIMIT,
  BYSTANDERS,
  NAMED,
  pickItems,
  tier,
  tokens,
  tokensOf,
  type Focus,
} from '../../gym/attacks/select.ts'

// Per-item attack loops touch a small, deterministic set: what the reference acted on, one more item the task names,
// one bystander (docs/decisions/0398).
const focus = (acted: string, seen: string, planted: string): Focus => ({
  acted: tokens(acted),
  seen: tokens(seen),
  planted: planted.toLowerCase(),
})
const files = Array.from({ length: 200 }, (_, i) => ({ id: `file${String(i).padStart(4, '0')}`, name: `Doc ${i}` }))
const key = (f: { id: string; name: string }) => ({ id: f.id, name: f.name })

describe('pickItems', () => {
  const ids = (xs: { id: string }[]) => xs.map((x) => x.id)

  it('takes everything the reference acted on, one more item the task names and one bystander', () => {
    const f = focus(
      '{"path":"/drive/v3/files/file0150/permissions","body":{"also":"file0007"}}',
      '{"files":[{"id":"file0077"}]}',
      JSON.stringify({ drive: { files: [{ name: 'Doc 9' }] } }),
    )
    const got = pickItems(files, key, f)
    // Acted on (0007, 0150), planted before seen (0009, not 0077), the bystander from the middle of the rest.
    expect(ids(got)).toEqual(['file0007', 'file0009', 'file0101', 'file0150'])
    expect(got.filter((x) => tier(key(x), f) === 3)).toHaveLength(BYSTANDERS)
    expect(pickItems(files, key, f)).toEqual(got)
  })

  it('bounds a small world the same way (not every item of it)', () => {
    // Nothing else named: the one acted on and the bystander in the middle of the other five.
    expect(ids(pickItems(files.slice(0, 6), key, focus('file0003', '', '')))).toEqual(['file0002', 'file0003'])
  })

  it('keeps a place for a bystander however many items the task names', () => {
    const f = focus(
      files
        .map((x) => x.id)
        .slice(0, 50)
        .join(' '),
      '',
      '',
    )
    const got = pickItems(files, key, f)
    expect(got).toHaveLength(BULK_LIMIT)
    const bystanders = got.filter((x) => tier(key(x), f) === 3)
    expect(bystanders).toHaveLength(BYSTANDERS)
    // The bystander comes from the middle of the rest of the list, not its head.
    expect(ids(bystanders)).toEqual(['file0125'])
  })

  it('ranks what the reference acted on before what it only saw', () => {
    const seen = files
      .slice(100, 120)
      .map((x) => x.id)
      .join(',')
    const f = focus('file0199', seen, '')
    const got = pickItems(files, key, f, 4)
    expect(ids(got)).toContain('file0199')
    expect(got.filter((x) => tier(key(x), f) === 2)).toHaveLength(NAMED)
  })

  it('gives a bystander place the world cannot fill to one more named item', () => {
    const few = files.slice(0, 5)
    const f = focus('file0004', few.map((x) => x.id).join(' '), '')
    // Every item was seen: no bystander, so two seen items beside the one acted on.
    expect(ids(pickItems(few, key, f))).toEqual(['file0000', 'file0001', 'file0004'])
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
