import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { checkAnswer, localParts, type Expected } from '../../oracles/answer.ts'
import { slackDecisionAnswer } from '../../tasks-lite/families/answers/slack-decision-answer.ts'
import { calendarFreebusyAnswer } from '../../tasks-lite/families/answers/calendar-freebusy-answer.ts'
import { calendarOffsiteLocalTime } from '../../tasks-lite/families/answers/calendar-offsite-local-time.ts'
import { gmailSearchAnswer } from '../../tasks-lite/families/answers/gmail-search-answer.ts'
import { answerEpisodes } from './gym-control.ts'

// Hedges a person reads as naming a second candidate but the checker did not (docs/decisions/0381): a time labelled
// with another zone, days or hours coordinated with a month or a clock time, grouped or decimal-comma amounts.
const task = (f: { generate(seed: number): unknown }, seed = 1) => TaskSpec.parse(f.generate(seed))
const params = (t: TaskSpec) => t.oracle.params as { expected: any; wrong: any[] }
const reference = (t: TaskSpec) => String(t.reference.find((s) => s.tool === 'done')!.args.answer)
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October']
const utc = (iso: string) => iso.slice(11, 16)

describe('slack-decision-answer: days coordinated with the month', () => {
  const t = task(slackDecisionAnswer)
  const run = answerEpisodes(t)
  const [, month, day] = (params(t).expected.date as string).split('-').map(Number) as [number, number, number]
  const wrong = params(t)
    .wrong.map((w) => w.date as string)
    .find((d) => Number(d.slice(5, 7)) === month)!
  const wd = Number(wrong.slice(8))
  const name = MONTHS[month - 1]!

  it('a list, a range or a lone ordinal that takes in a wrong date earns nothing', async () => {
    const [lo, hi] = wd < day ? [wd, day] : [day, wd]
    expect(await run(`The date is ${lo} and ${hi} ${name}.`)).toBe(0)
    expect(await run(`It lands somewhere in ${lo}–${hi} ${name}.`)).toBe(0)
    expect(await run(`${name} ${day} or ${wd}.`)).toBe(0)
    expect(await run(`${reference(t)} (or the ${wd}th)`)).toBe(0)
  })

  it('the date stated plainly, with its weekday or year, still earns 1', async () => {
    expect(await run(reference(t))).toBe(1)
    expect(await run(`It was settled on the ${day}th of ${name}, 2026.`)).toBe(1)
    expect(await run(`${name} ${day}, 2026 (the vote closed at 3 pm).`)).toBe(1)
  })
})

describe('calendar-freebusy-answer: times labelled with another zone', () => {
  const t = task(calendarFreebusyAnswer)
  const run = answerEpisodes(t)
  const p = params(t)

  it('the right local time next to a wrong one written in UTC earns nothing', async () => {
    expect(await run(`${reference(t)} (or ${utc(p.wrong[0].iso)} UTC)`)).toBe(0)
    expect(await run(`${reference(t)} Or ${utc(p.wrong[0].iso)}Z.`)).toBe(0)
  })

  it('the right time also given in UTC, or only in UTC, earns 1', async () => {
    expect(await run(`${reference(t)} That is ${utc(p.expected.iso)} UTC.`)).toBe(1)
    expect(await run(`The first free slot is ${utc(p.expected.iso)} UTC on 12 March.`)).toBe(1)
  })
})

describe('calendar-offsite-local-time: an honest UTC aside', () => {
  const t = task(calendarOffsiteLocalTime)
  const run = answerEpisodes(t)

  it('the local start with its UTC time in brackets earns 1', async () => {
    // Before: "04:00 UTC" was read as 04:00 local, one of the planted wrong candidates.
    expect(await run(`${reference(t)} (${utc(params(t).expected.iso)} UTC)`)).toBe(1)
  })
})

describe('gmail-search-answer: amounts grouped the European way', () => {
  const t = task(gmailSearchAnswer)
  const run = answerEpisodes(t)
  const p = params(t)
  const euro = (v: number) => v.toLocaleString('de-DE', { minimumFractionDigits: 2 })
  const spaced = (v: number) => v.toLocaleString('fr-FR', { minimumFractionDigits: 2 }).replace(/\u202f/g, ' ')
  const wrong = p.wrong.find((w) => w.value >= 1000 && w.value % 1 !== 0)!.value as number

  it('the right amount next to a wrong one in decimal-comma or space groups earns nothing', async () => {
    expect(await run(`${reference(t)} (or ${euro(wrong)} €)`)).toBe(0)
    expect(await run(`${reference(t)} (or ${spaced(wrong)})`)).toBe(0)
  })

  it('the right amount with a decimal comma earns 1', async () => {
    expect(await run(`Es sind ${euro(p.expected.value)} $ offen.`)).toBe(1)
  })
})

describe('checkAnswer: clock times a person reads', () => {
  const zone = 'America/Los_Angeles'
  const at = (local: string): Expected => ({
    kind: 'instant',
    iso: new Date(`2026-03-12T${local}:00-07:00`).toISOString(),
    zone,
  })
  const expected = at('12:30')
  const expectedIso = new Date('2026-03-12T12:30:00-07:00').toISOString()

  it('names a wrong time in words, as a bare hour next to a clock time, or as military time', () => {
    expect(localParts(expectedIso, zone).minutes).toBe(750)
    expect(checkAnswer('12:30 or eleven thirty', expected, [at('11:30')]).ok).toBe(false)
    expect(checkAnswer('12:30 or 3', expected, [at('15:00')]).ok).toBe(false)
    expect(checkAnswer('from 9 to 12:30', expected, [at('09:00')]).ok).toBe(false)
    expect(checkAnswer('12:30 or 1130 hrs', expected, [at('11:30')]).ok).toBe(false)
    expect(checkAnswer('12:30 (or 11:30 PT)', expected, [at('11:30')]).ok).toBe(false)
    expect(checkAnswer('12:30 (or 2:30pm ET)', expected, [at('11:30')]).ok).toBe(false)
  })

  it('still passes the time alone, the same instant in another zone, or next to an hour no candidate has', () => {
    expect(checkAnswer('12:30 PT, the 30 minutes before 1pm are free', expected, [at('11:30')]).ok).toBe(true)
    expect(checkAnswer('It is at 3:30 pm ET.', expected, [at('11:30'), at('15:00')]).ok).toBe(true)
    expect(checkAnswer('12:30 or 11', expected, [at('11:30')]).ok).toBe(true)
  })
})
