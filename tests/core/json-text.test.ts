import { describe, expect, it } from 'vitest'
import {
  elementText,
  JsonText,
  keyOf,
  plainLists,
  stringifyWithTexts,
  textMemo,
  type TextMemo,
} from '../../envs/core/json-text.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { jsonStream } from '../../server/json-stream.ts'

const text = (v: unknown, memo: TextMemo = new Map(), slot = JSON.stringify(v)) => new JsonText(slot, [], () => v, memo)

describe('stringifyWithTexts', () => {
  const event = { id: 'a', nested: { list: [1, { x: 'y\n"z"' }], empty: [], none: {} }, s: 'line\nbreak' }
  const shapes: Record<string, unknown>[] = [
    { kind: 'k', items: [event, { id: 'b' }] },
    { kind: 'k', undef: undefined, fn: () => 1, items: [event], tail: 'x', date: new Date(0) },
    { items: [event], other: [event, 2, null, 'x'], empty: [] },
    { marker: '\u0000wsgym-list-0', items: [{ marker: '\u0000wsgym-list-0' }], nested: { items: [event] } },
    { 'odd "key"\n': [event], 'é': 1 },
    { payload: event, items: [event], undef: undefined, n: 1, date: new Date(0), list: [1, [2]] },
    { items: [] },
    {},
  ]
  for (const indent of [2, undefined]) {
    it(`writes the bytes JSON.stringify writes (indent ${indent})`, () => {
      for (const [n, shape] of shapes.entries()) {
        const memberTexts = n % 2 === 1
        const expected = JSON.stringify(shape, null, indent)
        const withTexts = Object.fromEntries(
          Object.entries(shape).map(([k, v]) => [
            k,
            // Elements of top-level lists and, in every other shape, top-level members as kept texts (not a Date:
            // a value toJSON gives is not asked for its own toJSON).
            Array.isArray(v)
              ? v.map((x, i) => (i % 2 === 0 ? text(x) : x))
              : memberTexts && !(v instanceof Date)
                ? text(v)
                : v,
          ]),
        )
        expect(stringifyWithTexts(withTexts, indent)).toBe(expected)
        // A serialiser that does not know JsonText (and the streamed listing) writes the same.
        expect(JSON.stringify(withTexts, null, indent)).toBe(expected)
      }
    })
  }

  it('renders a kept element once per indent and copies its text while its values are the same', () => {
    const memo: TextMemo = new Map()
    let made = 0
    const item = (values: unknown[]) => new JsonText('slot', values, () => ({ n: ++made }), memo)
    const pretty = (n: number) => JSON.stringify({ items: [{ n }] }, null, 2)
    expect(stringifyWithTexts({ items: [item(['a', 1, { x: [1] }])] }, 2)).toBe(pretty(1))
    // Equal values (a string built anew, an equal object) find the kept text.
    expect(stringifyWithTexts({ items: [item([['a'].join(''), 1, { x: [1] }])] }, 2)).toBe(pretty(1))
    expect(made).toBe(1)
    expect(stringifyWithTexts({ items: [item(['a', 1, { x: [1] }])] }, undefined)).toBe('{"items":[{"n":2}]}')
    expect(made).toBe(2)
    // Any value changed, added or removed renders anew.
    const changed = [
      ['b', 1, { x: [1] }],
      ['a', 2, { x: [1] }],
      ['a', 1, { x: [2] }],
      ['a', 1],
      ['a', 1, { x: [1] }, null],
    ]
    for (const values of changed) {
      const before = made
      expect(stringifyWithTexts({ items: [item(values)] }, 2)).toBe(pretty(before + 1))
    }
    expect(made).toBe(7)
  })

  it('keeps at most 2,000 elements per memo', () => {
    const memo: TextMemo = new Map()
    for (let i = 0; i < 2500; i++) new JsonText(`k${i}`, [], () => i, memo).element(2)
    expect(memo.size).toBeLessThanOrEqual(2000)
    expect(memo.size).toBeGreaterThan(0)
  })

  it('gives fields selections and streamed listings the plain values', async () => {
    const value = { items: [text({ a: 1 }), { b: 2 }], n: 1 }
    expect(plainLists(value)).toEqual({ items: [{ a: 1 }, { b: 2 }], n: 1 })
    const long = { items: Array.from({ length: 250 }, (_, i) => (i % 3 ? { i } : text({ i }))), next: 'x' }
    const body = await new Response(jsonStream(long, 2)).text()
    expect(body).toBe(JSON.stringify(long, null, 2))
    expect(body).toBe(JSON.stringify({ items: Array.from({ length: 250 }, (_, i) => ({ i })), next: 'x' }, null, 2))
  })
})

describe('jsonStream', () => {
  const chunks = async (stream: ReadableStream<Uint8Array> | undefined) => {
    const out: string[] = []
    if (stream) for await (const chunk of stream) out.push(new TextDecoder().decode(chunk))
    return out
  }
  const list = (n: number) => Array.from({ length: n }, (_, i) => ({ i }))

  it('streams the longest top-level array of at least 200 elements, a hundred per chunk', async () => {
    const value = { a: list(250), kind: 'k', b: list(450), c: list(300) }
    const parts = await chunks(jsonStream(value, 2))
    expect(parts).toHaveLength(5)
    expect(parts.join('')).toBe(JSON.stringify(value, null, 2))
    const tie = { a: list(250), b: list(250) }
    expect((await chunks(jsonStream(tie, undefined))).join('')).toBe(JSON.stringify(tie))
  })

  it('leaves short arrays, arrays and non-objects to the plain string', () => {
    for (const value of [{ a: list(199), b: 'x' }, list(300), null, 'text', 3, {}]) {
      expect(jsonStream(value, 2)).toBeUndefined()
    }
  })
})

describe('keyOf', () => {
  it('tells apart values that concatenate alike', () => {
    const pairs: unknown[][][] = [
      [
        ['ab', 'c'],
        ['a', 'bc'],
      ],
      [[null], ['null']],
      [[1], ['1']],
      [[undefined], [null]],
      [[true], ['t']],
      [['s1:a'], ['a', 'a']],
      [[{ a: 1 }], ['{"a":1}']],
      [[1, 2], [12]],
      [[], ['']],
    ]
    for (const [a, b] of pairs) expect(keyOf(a!)).not.toBe(keyOf(b!))
    expect(keyOf(['x', 1, null])).toBe(keyOf(['x', 1, null]))
  })
})

describe('textMemo', () => {
  it('is one per world connection and kind', () => {
    const a = harness()
    const b = harness()
    const dbA = a.entry.world.db
    expect(textMemo(dbA, 'calendar#event')).toBe(textMemo(dbA, 'calendar#event'))
    expect(textMemo(dbA, 'calendar#event')).not.toBe(textMemo(dbA, 'slack#message'))
    expect(textMemo(dbA, 'calendar#event')).not.toBe(textMemo(b.entry.world.db, 'calendar#event'))
  })
})

describe('elementText', () => {
  it('indents every line of the element as the replace of each newline by the padding did', () => {
    const values: unknown[] = [
      { a: 1, b: [1, 2, { c: '$& $1 $$ $` end' }], d: {}, e: [] },
      { s: 'line\nbreak\r\n\t"quoted"', u: 'é ☃ 😀 \ud800 x', n: null, t: true },
      [[[]], [{}], 'x'],
      'plain',
      7,
      null,
      undefined,
    ]
    for (const indent of [1, 2, 3, 4]) {
      const pad = `\n${' '.repeat(indent * 2)}`
      for (const v of values) {
        const s = JSON.stringify(v, null, indent) ?? 'null'
        expect(elementText(v, indent)).toBe(pad + s.replace(/\n/g, pad))
      }
    }
    expect(elementText({ a: [1] }, undefined)).toBe('{"a":[1]}')
  })
})
