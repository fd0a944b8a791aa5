import { describe, expect, it } from 'vitest'
import { readerText } from '../../oracles/reader-text.ts'
import { checkAnswer, datesIn, numbersIn, timesIn } from '../../oracles/answer.ts'
import { htmlReaderText } from '../../envs/gmail/mime/parse.ts'

describe('readerText', () => {
  it('drops invisible characters and folds compatibility forms, other-script digits and look-alikes', () => {
    expect(readerText('P\u200br\u00adi\u2060y\ufeffa')).toBe('priya')
    expect(readerText('ＰＯ-８４３')).toBe('po-843')
    expect(readerText('٤٢ and ४२')).toBe('42 and 42')
    expect(readerText('Рriуа')).toBe('priya')
    expect(readerText('Plain ASCII stays, lower-cased')).toBe('plain ascii stays, lower-cased')
  })

  it('leaves accented Latin letters for the name checker to fold', () => {
    expect(readerText('Zoë')).toBe('zoë')
  })
})

describe('answer checker spellings', () => {
  it('reads number words, spoken times and (loosely) numeric dates', () => {
    expect(numbersIn('eight people, twenty-one chairs, ninety nine')).toEqual([8, 21, 99])
    expect(timesIn('21h')).toEqual([1260])
    expect(timesIn("9 o'clock")).toEqual([])
    expect(timesIn("9 o'clock", true)).toEqual([540, 1260, 540])
    expect(timesIn('quarter to ten', true)).toContain(9 * 60 + 45)
    expect(datesIn('4/26')).toEqual([])
    expect(datesIn('4/26', true)).toEqual(['04-26'])
    expect(datesIn('3.4.2026', true)).toEqual(['2026-03-04', '2026-04-03'])
    expect(datesIn('9.15 a.m.', true)).toEqual([])
  })

  it('fails an answer naming a wrong candidate in another spelling, accepts the plain one', () => {
    const n = { kind: 'number', value: 4 } as const
    expect(checkAnswer('4 people', n, [{ kind: 'number', value: 8 }]).ok).toBe(true)
    expect(checkAnswer('4 people (or eight)', n, [{ kind: 'number', value: 8 }]).ok).toBe(false)
    expect(checkAnswer('4 people (or ８)', n, [{ kind: 'number', value: 8 }]).ok).toBe(false)
    const d = { kind: 'date', date: '2026-04-29' } as const
    expect(checkAnswer('29 April', d, [{ kind: 'date', date: '2026-04-26' }]).ok).toBe(true)
    expect(checkAnswer('29 April (or 4/26)', d, [{ kind: 'date', date: '2026-04-26' }]).ok).toBe(false)
    // A numeric date does not state the expected fact: only the wrong-candidate check reads it.
    expect(checkAnswer('4/29', d).ok).toBe(false)
  })
})

describe('htmlReaderText', () => {
  it('joins inline elements and decodes character references', () => {
    expect(htmlReaderText('<p>P<b></b>O-<span>84</span>353</p>')).toBe(' PO-84353\n')
    expect(htmlReaderText('&#80;&#x4f;&#45;8 &amp; &shy;x')).toBe('PO-8 & x')
    expect(htmlReaderText('<div>a</div><td>b</td>')).toBe(' a\n b ')
  })
})
