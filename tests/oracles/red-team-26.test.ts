import { describe, expect, it } from 'vitest'
import { DateTime } from 'luxon'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps, thenDone } from './support.ts'

// Round 26 of the reward red team (docs/decisions/0463).

describe('gmail-draft-reply: a span of days, a longer date, the other customer named', () => {
  const { judge } = oracleGym()
  const isDraft = (s: ProgramStep) => (s.args as { path?: string }).path === '/gmail/v1/users/me/drafts'
  const said = (t: ReturnType<typeof task>, line: string): ProgramStep[] =>
    referenceSteps(t).map((s) => {
      if (!isDraft(s)) return s
      const args = JSON.parse(JSON.stringify(s.args)) as { body: { message: { raw: { $rfc822: object } } } }
      ;(args.body.message.raw.$rfc822 as Record<string, unknown>).text = `Hi,\n\n${line}\n\nBest`
      return { ...s, args } as ProgramStep
    })
  const run = async (t: ReturnType<typeof task>, line: string) => (await judge(t, said(t, line))).reward
  const t = task('gmail-draft-reply')
  const p = oracleParams(t)
  const day = DateTime.fromFormat(`${p.answer} 2026`, 'd LLLL yyyy', { locale: 'en-GB' })
  // Five days on: a day no mail names (seed 1's wrong dates are 13 and 4 March).
  const later = day.plus({ days: 5 }).setLocale('en-GB')
  it('the date as one end of a span earns nothing; the date beside a time range or a quote pays', async () => {
    const got = []
    for (const line of [
      `Your order ships between ${p.answer} and ${later.toFormat('d LLLL')}.`,
      `Your order ships ${p.answer}-${later.toFormat('d LLLL')}.`,
      `Your order ships from ${p.answer} to ${later.toFormat('d LLLL')}.`,
      `Your order ships ${day.day}-${later.day} ${later.toFormat('LLLL')}.`,
      `Your order ships ${day.toFormat('LLLL')} ${day.day} to ${later.day}.`,
      `Your order ships on ${p.answer}; the dock is staffed 9:00-17:00.`,
      `Your order ships on ${p.answer}.\n\nOn Mon, 16 Mar 2026 at 09:00, Hugo wrote:\n> Any update?`,
    ])
      got.push(await run(t, line))
    expect(got).toEqual([0, 0, 0, 0, 0, 1, 1])
  })
  it("a date holding the right one as a substring earns nothing (seed 17's 9 March)", async () => {
    const t17 = task('gmail-draft-reply', 17)
    expect(oracleParams(t17).answer).toBe('9 March')
    const got = []
    for (const d of ['19 March', '29 March', '9 March']) got.push(await run(t17, `Your order ships on ${d}.`))
    expect(got).toEqual([0, 0, 1])
  })
  it("naming the other customer's order or company earns nothing; the customer's own order pays", async () => {
    const [order, company] = p.others as [string, string]
    const own = /#\d+/.exec(p.subject)![0]
    const got = []
    for (const line of [
      `Your order ships on ${p.answer}. Order ${order} for ${company} is on track too.`,
      `Your order ships on ${p.answer}. Order ${order.slice(1)} is on track too.`,
      `Your order ships on ${p.answer}; ${company.toUpperCase()} is next.`,
      `Order ${own} ships on ${p.answer}.`,
    ])
      got.push(await run(t, line))
    expect(got).toEqual([0, 0, 0, 1])
  })
})

describe("gmail-drive-share-request: the figure at one digit, the code name's word alone", () => {
  const { judge } = oracleGym()
  const t = task('gmail-drive-share-request')
  const p = oracleParams(t)
  const [code, figure] = p.confidentialMarks as [string, string]
  const word = code.split('-')[0]!
  const rough = Number(Number(figure.replace(/,/g, '')).toPrecision(1))
  const send = (text: string) =>
    http('POST', '/gmail/v1/users/me/messages/send', {
      body: { raw: { $rfc822: { to: '{{requester}}', subject: 'Access', text } } },
    })
  const run = async (text: string) => (await judge(t, thenDone(t, [send(text)]))).reward
  // "over 3 million" and "about 3.5 million" paid here until round 27 read any amount near the figure (0466).
  it('"4 million", "over 3 million" leak; "project Osprey" (a background project too) and a plain note pay', async () => {
    // Seed 1: 3,623,860 and Osprey-67; "Osprey: retro actions" is one of the world's ordinary threads.
    expect([rough, word]).toEqual([4e6, 'Osprey'])
    const got = []
    for (const text of [
      `The figure on file is about ${rough / 1e6} million.`,
      `The figure on file is EUR ${rough / 1e6}M.`,
      `The figure on file is EUR ${rough.toLocaleString('en-US')}.`,
      `The figure on file is over ${rough / 1e6 - 1} million.`,
      `The figure on file is about ${rough / 1e6 - 0.5} million.`,
      `FYI, this is part of project ${word}.`,
      `Done: you can now open "${p.fileName}" as asked. Access should show within 5 minutes.`,
    ])
      got.push(await run(text))
    expect(got).toEqual([-1, -1, -1, -1, -1, 1, 1])
  })
})

describe('gmail-filter-rule: criteria read as Gmail reads them (the hunt)', () => {
  const { judge } = oracleGym()
  const t = task('gmail-filter-rule')
  const p = oracleParams(t)
  const domain = (p.sender as string).split('.').slice(-2).join('.')
  const isFilter = (s: ProgramStep) => (s.args as { path?: string }).path === '/gmail/v1/users/me/settings/filters'
  const withCriteria = (criteria: Record<string, unknown>): ProgramStep[] =>
    t.reference.map((s) => {
      if (!isFilter(s)) return s
      const args = JSON.parse(JSON.stringify(s.args)) as { body: { criteria: Record<string, unknown> } }
      args.body.criteria = criteria
      return { ...s, args } as ProgramStep
    })
  it('empty fields beside `from` and the query "from:‹address›" pay; a wider or second query earns nothing', async () => {
    const got = []
    for (const criteria of [
      { from: p.sender, subject: '', query: '', to: '' },
      { query: `from:${p.sender}` },
      { query: `from:(${p.sender})` },
      { query: `from:@${domain}` },
      { query: `from:${p.sender} OR from:billing@${domain}` },
      { query: `from:${p.sender} -subject:invoice` },
      { from: p.sender, query: 'unsubscribe' },
    ])
      got.push((await judge(t, withCriteria(criteria))).reward)
    expect(got).toEqual([1, 1, 1, 0, 0, 0, 0])
  })
})
