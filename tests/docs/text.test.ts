import { describe, expect, it } from 'vitest'
import { engine } from './engine.ts'

describe('docs.documents.batchUpdate insertText', () => {
  it('inserts into the empty paragraph with UTF-16 indices', () => {
    const e = engine()
    e.apply({ insertText: { location: { index: 1 }, text: 'Hi 😀' } })
    const [sb, p] = e.body()
    expect(sb.startIndex).toBeUndefined()
    expect(sb.endIndex).toBe(1)
    expect(p.startIndex).toBe(1)
    expect(p.endIndex).toBe(1 + 'Hi 😀\n'.length)
    expect(p.endIndex).toBe(7)
    expect(p.paragraph.elements[0].textRun.content).toBe('Hi 😀\n')
  })

  it('splits paragraphs on newlines and keeps each paragraph style', () => {
    const e = engine([{ text: 'Title', style: 'HEADING_1' }])
    e.apply({ insertText: { location: { index: 3 }, text: 'a\nb' } })
    const paras = e.body().slice(1)
    expect(paras.map((p: any) => p.paragraph.elements.map((x: any) => x.textRun.content).join(''))).toEqual([
      'Tia\n',
      'btle\n',
    ])
    expect(paras.map((p: any) => [p.startIndex, p.endIndex])).toEqual([
      [1, 5],
      [5, 10],
    ])
    expect(paras.every((p: any) => p.paragraph.paragraphStyle.namedStyleType === 'HEADING_1')).toBe(true)
  })

  it('takes the text style of the preceding character', () => {
    const e = engine([{ text: 'bold', bold: true }])
    e.apply({ insertText: { location: { index: 5 }, text: 'er' } })
    const els = e.body()[1].paragraph.elements
    expect(els[0].textRun).toEqual({ content: 'bolder', textStyle: { bold: true, italic: false } })
  })

  it('rejects an index at or past the end of the segment with Google text', () => {
    const e = engine()
    expect(e.error({ insertText: { location: { index: 2 }, text: 'x' } })).toBe(
      'Invalid requests[0].insertText: Index 2 must be less than the end index of the referenced segment, 2.',
    )
  })

  it('rejects an index inside a surrogate pair', () => {
    const e = engine(['😀'])
    expect(e.error({ insertText: { location: { index: 2 }, text: 'x' } })).toMatch(/surrogate pair/)
  })

  it('rejects the section break index and table markers', () => {
    const e = engine([{ table: [['a']] }])
    expect(e.error({ insertText: { location: { index: 0 }, text: 'x' } })).toMatch(
      /inside the bounds of an existing paragraph/,
    )
    const table = e.body().find((x: any) => x.table)
    expect(e.error({ insertText: { location: { index: table.startIndex }, text: 'x' } })).toMatch(
      /inside the bounds of an existing paragraph/,
    )
  })

  it('appends at endOfSegmentLocation', () => {
    const e = engine(['one'])
    e.apply({ insertText: { endOfSegmentLocation: {}, text: ' two' } })
    expect(e.text()).toBe('one two\n')
  })
})

describe('docs.documents.batchUpdate deleteContentRange', () => {
  it('deletes inside a paragraph and shifts later indices', () => {
    const e = engine(['Hello world', 'Next'])
    e.apply({ deleteContentRange: { range: { startIndex: 6, endIndex: 12 } } })
    expect(e.text()).toBe('Hello\nNext\n')
    expect(e.body()[2].startIndex).toBe(7)
  })

  it('merges paragraphs when a newline is deleted, keeping the surviving newline style', () => {
    const e = engine([{ text: 'Head', style: 'HEADING_2' }, 'body'])
    e.apply({ deleteContentRange: { range: { startIndex: 5, endIndex: 6 } } })
    const paras = e.body().slice(1)
    expect(paras).toHaveLength(1)
    expect(paras[0].paragraph.elements.map((x: any) => x.textRun.content).join('')).toBe('Headbody\n')
    expect(paras[0].paragraph.paragraphStyle.namedStyleType).toBe('NORMAL_TEXT')
  })

  it('refuses the final newline of the segment', () => {
    const e = engine(['abc'])
    expect(e.error({ deleteContentRange: { range: { startIndex: 1, endIndex: 5 } } })).toBe(
      'Invalid requests[0].deleteContentRange: The range cannot include the newline character at the end of the segment.',
    )
  })

  it('refuses an empty range', () => {
    const e = engine(['abc'])
    expect(e.error({ deleteContentRange: { range: { startIndex: 2, endIndex: 2 } } })).toMatch(/should not be empty/)
  })

  it('deletes a whole table but not part of one', () => {
    const e = engine(['before', { table: [['a', 'b']] }, 'after'])
    const t = e.body().find((x: any) => x.table)
    expect(e.error({ deleteContentRange: { range: { startIndex: t.startIndex, endIndex: t.endIndex - 1 } } })).toMatch(
      /partial table/,
    )
    expect(e.error({ deleteContentRange: { range: { startIndex: 2, endIndex: t.startIndex + 4 } } })).toMatch(
      /partial table/,
    )
    e.apply({ deleteContentRange: { range: { startIndex: t.startIndex, endIndex: t.endIndex } } })
    expect(e.body().some((x: any) => x.table)).toBe(false)
    expect(e.text()).toBe('before\nafter\n')
  })

  it('deletes text inside one table cell', () => {
    const e = engine([{ table: [['alpha', 'beta']] }])
    const cell = e.body().find((x: any) => x.table).table.tableRows[0].tableCells[0]
    e.apply({ deleteContentRange: { range: { startIndex: cell.startIndex + 1, endIndex: cell.startIndex + 3 } } })
    expect(
      e.body().find((x: any) => x.table).table.tableRows[0].tableCells[0].content[0].paragraph.elements[0].textRun
        .content,
    ).toBe('pha\n')
  })
})

describe('docs.documents.batchUpdate replaceAllText', () => {
  it('replaces case-insensitively by default and counts occurrences', () => {
    const e = engine(['Foo foo FOO', { table: [['foo']] }])
    const [reply] = e.apply({ replaceAllText: { containsText: { text: 'foo' }, replaceText: 'bar' } })
    expect(reply).toEqual({ replaceAllText: { occurrencesChanged: 4 } })
    expect(e.text()).toBe('bar bar bar\nbar\n\n')
  })

  it('respects matchCase and regex', () => {
    const e = engine(['Foo foo v1 v22'])
    expect(
      e.apply({ replaceAllText: { containsText: { text: 'Foo', matchCase: true }, replaceText: 'X' } })[0],
    ).toEqual({ replaceAllText: { occurrencesChanged: 1 } })
    e.apply({ replaceAllText: { containsText: { text: 'v\\d+', searchByRegex: true }, replaceText: 'N' } })
    expect(e.text()).toBe('X foo N N\n')
  })

  it('answers an empty reply object when nothing matches', () => {
    const e = engine(['abc'])
    expect(e.apply({ replaceAllText: { containsText: { text: 'zzz' }, replaceText: 'y' } })).toEqual([
      { replaceAllText: {} },
    ])
  })
})

describe('docs.documents.batchUpdate request validation', () => {
  it('rejects unknown request kinds and double kinds', () => {
    const e = engine()
    expect(e.error({ frobnicate: {} })).toBe(
      `Invalid JSON payload received. Unknown name "frobnicate" at 'requests[0]': Cannot find field.`,
    )
    expect(e.error({ insertText: { location: { index: 1 }, text: 'a' }, deleteContentRange: {} })).toMatch(
      /Oneof field 'request' is already set/,
    )
  })

  it('prefixes handler errors with the request position', () => {
    const e = engine()
    expect(
      e.error(
        { insertText: { location: { index: 1 }, text: 'a' } },
        { insertText: { location: { index: 9 }, text: 'b' } },
      ),
    ).toMatch(/^Invalid requests\[1\]\.insertText: Index 9 /)
  })

  it('rejects wrongly typed fields', () => {
    const e = engine()
    expect(e.error({ insertText: { location: { index: 'one' }, text: 'a' } })).toMatch(
      /^Invalid value at 'requests\[0\]\.insertText\.location\.index'/,
    )
  })
})

describe('docs.documents.batchUpdate deleteContentRange around tables', () => {
  it('deletes a paragraph before a table when another paragraph precedes it', () => {
    const e = engine(['one', 'two', { table: [['x']] }])
    e.apply({ deleteContentRange: { range: { startIndex: 5, endIndex: 9 } } })
    expect(e.body().map((b: any) => (b.table ? 'table' : b.paragraph ? 'p' : 's'))).toEqual(['s', 'p', 'table', 'p'])
  })

  it('refuses to leave a table right after the section break', () => {
    const e = engine(['one', { table: [['x']] }])
    expect(e.error({ deleteContentRange: { range: { startIndex: 1, endIndex: 5 } } })).toMatch(/newline before a table/)
  })

  it('refuses to merge text into a following table', () => {
    const e = engine(['one', { table: [['x']] }])
    expect(e.error({ deleteContentRange: { range: { startIndex: 3, endIndex: 5 } } })).toMatch(/cannot be merged/)
  })
})

describe('docs.documents.batchUpdate replaceAllText regex safety', () => {
  it('matches with RE2 semantics: nested or stacked repetition runs in linear time', () => {
    const regex = (text: string, matchCase = false) => ({
      replaceAllText: { containsText: { text, searchByRegex: true, matchCase }, replaceText: 'Q' },
    })
    const e = engine(['a'.repeat(5000), 'b'.repeat(3000)])
    // Each of these backtracks for minutes in a backtracking engine; RE2 answers at once.
    expect(e.apply(regex('.*.*.*x'))[0]).toEqual({ replaceAllText: {} })
    expect(e.apply(regex('(a+)+$'))[0]).toEqual({ replaceAllText: { occurrencesChanged: 1 } })
    expect(e.text()).toBe(`Q\n${'b'.repeat(3000)}\n`)
    // Case-insensitive unless matchCase; offsets count UTF-16 units past astral characters.
    const f = engine(['\u{1F600}Bc bc'])
    expect(f.apply(regex('B.'))[0]).toEqual({ replaceAllText: { occurrencesChanged: 2 } })
    expect(f.text()).toBe('\u{1F600}Q Q\n')
    const g = engine(['Bc bc'])
    expect(g.apply(regex('b.', true))[0]).toEqual({ replaceAllText: { occurrencesChanged: 1 } })
    expect(g.text()).toBe('Bc Q\n')
  })

  it('refuses RE2-unsupported syntax', () => {
    const e = engine(['a'.repeat(5000)])
    expect(
      e.error({ replaceAllText: { containsText: { text: '(a)\\1', searchByRegex: true }, replaceText: 'x' } }),
    ).toMatch(/backreferences/)
    expect(
      e.error({ replaceAllText: { containsText: { text: 'a(?=b)', searchByRegex: true }, replaceText: 'x' } }),
    ).toMatch(/lookarounds/)
    expect(
      e.error({ replaceAllText: { containsText: { text: '([', searchByRegex: true }, replaceText: 'x' } }),
    ).toMatch(/Invalid regular expression/)
  })
})

describe('docs.documents.batchUpdate insertText control characters', () => {
  it('keeps tabs and vertical-tab line breaks, turns CRLF into newlines and drops other control characters', () => {
    const e = engine()
    e.apply({ insertText: { location: { index: 1 }, text: 'a\tb\u000bc\r\nd\u0000\u0007e' } })
    expect(
      e
        .body()
        .slice(1)
        .map((p: any) => p.paragraph.elements[0].textRun.content),
    ).toEqual(['a\tb\u000bc\n', 'de\n'])
  })
})
