import { describe, expect, it } from 'vitest'
import { checkAnswer, datesIn, numbersIn, timesIn } from '../../oracles/answer.ts'

// 2026-03-04T20:00Z is 3 pm in New York (EST, UTC-5) on March 4.
const start = { kind: 'instant', iso: '2026-03-04T20:00:00Z', zone: 'America/New_York' } as const
const wrongStart = { kind: 'instant', iso: '2026-03-04T21:30:00Z', zone: 'America/New_York' } as const

describe('answer normalising checker', () => {
  it('reads times, dates and numbers in their usual spellings', () => {
    expect(timesIn('3 pm, 15:00, 3:30PM, 9.15 a.m., noon')).toEqual([900, 900, 930, 555, 720])
    expect(timesIn('room 42 on floor 3')).toEqual([])
    expect(datesIn('Mar 4, March 4th 2026, 4 March, 2026-03-04')).toEqual([
      '2026-03-04',
      '03-04',
      '2026-03-04',
      '03-04',
    ])
    expect(numbersIn('$12,500.00 or 12.5k or €3 million')).toEqual([12500, 12500, 3e6])
  })

  it('accepts the instant in the stated zone whatever the format', () => {
    for (const a of ['3 pm', 'It starts at 15:00 on Mar 4.', 'March 4th, 3:00 PM ET', '2026-03-04 15:00']) {
      expect(checkAnswer(a, start).ok, a).toBe(true)
    }
  })

  it('rejects the UTC reading, the wrong date and a missing answer', () => {
    expect(checkAnswer('20:00', start).ok).toBe(false)
    expect(checkAnswer('3 pm on March 5', start).ok).toBe(false)
    expect(checkAnswer('', start).ok).toBe(false)
    expect(checkAnswer(undefined, start).ok).toBe(false)
  })

  it('fails an answer that also lists a wrong candidate', () => {
    expect(checkAnswer('3 pm', start, [wrongStart]).ok).toBe(true)
    expect(checkAnswer('either 3 pm or 4:30 pm', start, [wrongStart]).ok).toBe(false)
  })

  it('compares names without case, accents or punctuation, and whole words only', () => {
    const exp = { kind: 'name', value: "Zoë O'Neil" } as const
    const wrong = [{ kind: 'name', value: 'Ana Ruiz' } as const]
    expect(checkAnswer('zoe oneil? no: ZOË O NEIL is on call', exp, wrong).ok).toBe(true)
    expect(checkAnswer("Zoë O'Neil, or maybe Ana Ruiz", exp, wrong).ok).toBe(false)
    expect(checkAnswer('Acme', { kind: 'name', value: 'Acme' }, [{ kind: 'name', value: 'Acme Labs' }]).ok).toBe(true)
    expect(checkAnswer('Acme Labs', { kind: 'name', value: 'Acme' }, [{ kind: 'name', value: 'Acme Labs' }]).ok).toBe(
      false,
    )
  })

  it('compares amounts as values', () => {
    const exp = { kind: 'number', value: 12500 } as const
    expect(checkAnswer('USD 12,500', exp).ok).toBe(true)
    expect(checkAnswer('$12.5k', exp).ok).toBe(true)
    expect(checkAnswer('$1,250', exp).ok).toBe(false)
    expect(checkAnswer('12,500 or 9,800', exp, [{ kind: 'number', value: 9800 }]).ok).toBe(false)
  })
})
