import { describe, expect, test } from 'vitest'
import { fill, pick } from '../../gym/program-grammar.ts'

// fill builds each object with a loop and pick keeps split paths: both must give what the plain forms gave.
const bound = {
  ids: ['a', 'b'],
  end: 7,
  list: {
    messages: [
      { id: 'm1', labelIds: ['INBOX'] },
      { id: 'm2', labelIds: ['SENT', 'X'] },
    ],
  },
  files: [
    { name: 'Budget', id: 'f1' },
    { name: 'budget plan', id: 'f2' },
  ],
}

describe('fill and pick', () => {
  test('fill equals Object.fromEntries of the filled entries, __proto__ and index keys included', () => {
    const plain = (value: unknown): unknown => {
      if (typeof value === 'string') return fill(value, bound)
      if (Array.isArray(value)) return value.map(plain)
      if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
      return value
    }
    const program = JSON.parse(`{"b": "{{end-1}}", "2": ["{{ids.0}}", {"x": "id {{list.messages.1.id}}"}],
      "__proto__": {"polluted": "{{ids.1}}"}, "1": null, "a": {"deep": ["{{end}}", 3, true]}}`)
    const got = fill(program, bound) as Record<string, unknown>
    expect(JSON.stringify(got)).toBe(JSON.stringify(plain(program)))
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype)
    expect(Object.keys(got)).toEqual(['1', '2', 'b', '__proto__', 'a'])
    expect(got.b).toBe(6)
  })

  test('pick gives the same answer each time a path is picked again, wildcards and filters included', () => {
    const paths = [
      'list.messages.*.id',
      'list.messages.*.labelIds.-1',
      'files[name~=budget].id',
      'files[name=Budget]',
      'ids.1',
      '$',
      'list.messages.0.labelIds.0',
      'missing.path.*.x',
    ]
    const first = paths.map((p) => JSON.stringify(pick(bound, p)))
    expect(paths.map((p) => JSON.stringify(pick(bound, p)))).toEqual(first)
    expect(first).toEqual([
      '["m1","m2"]',
      '["INBOX","X"]',
      '"f1"',
      '{"name":"Budget","id":"f1"}',
      '"b"',
      JSON.stringify(bound),
      '"INBOX"',
      undefined,
    ])
  })
})
