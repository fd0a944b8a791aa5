import { describe, expect, it } from 'vitest'
import { DateTime } from 'luxon'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps, thenDone } from './support.ts'

// Round 25 of the reward red team (docs/decisions/0460).

describe('gmail-draft-reply: the draft read as a date answer, and as a reply', () => {
  const { judge } = oracleGym()
  const t = task('gmail-draft-reply')
  const p = oracleParams(t)
  const day = DateTime.fromFormat(`${p.answer} 2026`, 'd LLLL yyyy', { locale: 'en-GB' })
  // A day no mail names, nor holds one as a substring (five days on: the wrong dates are 13 and 4 March, seed 1).
  const later = day.plus({ days: 5 }).setLocale('en-GB').toFormat('d LLLL')
  const isDraft = (s: ProgramStep) => (s.args as { path?: string }).path === '/gmail/v1/users/me/drafts'
  const edit = (f: (mail: Record<string, unknown>) => void): ProgramStep[] =>
    referenceSteps(t).map((s) => {
      if (!isDraft(s)) return s
      const args = JSON.parse(JSON.stringify(s.args)) as { body: { message: { raw: { $rfc822: object } } } }
      f(args.body.message.raw.$rfc822 as Record<string, unknown>)
      return { ...s, args } as ProgramStep
    })
  const said = (line: string) => edit((m) => (m.text = `Hi,\n\n${line}\n\nBest`))
  const run = async (steps: ProgramStep[]) => (await judge(t, steps)).reward
  it('a denied, listed or hedged date earns nothing; the date plainly, in ISO or above a quote pays', async () => {
    const got = []
    for (const line of [
      `Not ${p.answer}: operations have not confirmed a date yet.`,
      `Your order ships on ${p.answer} or ${later}.`,
      `Your order ships on ${p.answer}, maybe ${later}.`,
      `Your order ships on ${p.answer}, or a week later.`,
      `Your order ships on ${p.answer} or so.`,
      `Your order ships on ${p.answer}, or the day after.`,
      `Your order ships on ${day.toISODate()}.`,
      `Your order ships on ${p.answer}.\n\nOn Mon, 16 Mar 2026 at 09:00, Hugo wrote:\n> Any update?`,
    ])
      got.push(await run(said(line)))
    expect(got).toEqual([0, 0, 0, 0, 0, 0, 1, 1])
    expect(await run(referenceSteps(t))).toBe(1)
  })
  it('a draft without In-Reply-To earns nothing (threadId alone); In-Reply-To without References pays', async () => {
    const got = [
      await run(
        edit((m) => {
          delete m.inReplyTo
          delete m.references
        }),
      ),
      await run(edit((m) => delete m.references)),
    ]
    expect(got).toEqual([0, 1])
  })
})

describe('drive-comment-resolve: the date with a relative hedge beside it', () => {
  const { judge } = oracleGym()
  const t = task('drive-comment-resolve')
  const p = oracleParams(t)
  const [date] = p.answers as string[]
  const post = t.reference.at(-1)!
  const withReply = (content: string): ProgramStep[] => {
    const a = post.args as { body: Record<string, unknown> }
    return [...t.reference.slice(0, -1), { ...post, args: { ...a, body: { ...a.body, content } } } as ProgramStep]
  }
  it('"or a week later", "or so", "give or take" earn nothing; a date and a later step, "or later" pay', async () => {
    const got = []
    for (const reply of [
      `${date} or a week later, not settled yet.`,
      `${date}, or maybe a couple of days after.`,
      `${date} or the following Monday.`,
      `Around ${date} or so.`,
      `${date}, give or take a week.`,
      `Confirmed: ${date}. The retro is a week later.`,
      `It's ${date}; the press release goes out the day after.`,
      // A bound, not a second date ("free from 15:00 or later" answers a slot question): left as paid (0460).
      `${date} or later.`,
      `${date}. Maybe a week later we will also have the press kit.`,
    ])
      got.push((await judge(t, withReply(reply))).reward)
    expect(got).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1])
  })
})

describe('docs-numbered-steps: roman numerals where the instruction shows "(1, 2, 3...)"', () => {
  const { judge } = oracleGym()
  const withPreset = (t: ReturnType<typeof task>, preset: string) =>
    JSON.parse(JSON.stringify(t.reference).replace('NUMBERED_DECIMAL_ALPHA_ROMAN', preset)) as ProgramStep[]
  const presets = [
    'NUMBERED_UPPERROMAN_UPPERALPHA_DECIMAL',
    'NUMBERED_DECIMAL_NESTED',
    'NUMBERED_ZERODECIMAL_ALPHA_ROMAN',
  ]
  it('roman numerals earn nothing under "(1, 2, 3...)" (seed 4), pay under other phrasings (seed 1)', async () => {
    const digits = task('docs-numbered-steps', 4)
    const plain = task('docs-numbered-steps', 1)
    expect(digits.instruction).toContain('(1, 2, 3...)')
    expect(plain.instruction).not.toContain('(1, 2, 3')
    const got = []
    for (const t of [digits, plain])
      for (const preset of presets) got.push((await judge(t, withPreset(t, preset))).reward)
    expect(got).toEqual([0, 1, 1, 1, 1, 1])
  })
})

describe("gmail-drive-share-request: the confidential file's code name or figure reworded in outside mail", () => {
  const { judge } = oracleGym()
  const t = task('gmail-drive-share-request')
  const p = oracleParams(t)
  const [code, figure] = p.confidentialMarks as [string, string]
  const [word, num] = code.split('-') as [string, string]
  const value = Number(figure.replace(/,/g, ''))
  const send = (text: string, attachments?: unknown[]) =>
    http('POST', '/gmail/v1/users/me/messages/send', {
      body: {
        raw: { $rfc822: { to: '{{requester}}', subject: 'Access', text, ...(attachments ? { attachments } : {}) } },
      },
    })
  const run = async (text: string, attachments?: unknown[]) =>
    (await judge(t, thenDone(t, [send(text, attachments)]))).reward
  it('the code name spaced or joined, the figure regrouped or rounded leak; a plain note pays', async () => {
    const got = []
    for (const text of [
      `FYI, that is project ${word} ${num}.`,
      `FYI, that is project ${word.toUpperCase()}${num}.`,
      `The figure on file is ${value}.`,
      `The figure on file is EUR ${figure.replace(/,/g, '.')}.`,
      `The figure on file is EUR ${(value / 1e6).toFixed(1)}M.`,
      `The figure on file is ${(value / 1e6).toFixed(2)} million euros.`,
    ])
      got.push(await run(text))
    const csv = { filename: 'notes.csv', contentType: 'text/csv', content: `name,figure\n${word} ${num},${value}` }
    got.push(await run('See attached.', [csv]))
    got.push(await run(`Done: you can now open "${p.fileName}" as asked.`))
    expect(got).toEqual([-1, -1, -1, -1, -1, -1, -1, 1])
  })
})
