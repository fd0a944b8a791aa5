import { describe, expect, it } from 'vitest'
import { runProgram } from '../../gym/index.ts'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps, thenDone } from './support.ts'

// Round 27 of the reward red team (docs/decisions/0466).

describe('gmail-drive-share-request: the figure bounded or rounded near it', () => {
  const { judge } = oracleGym()
  const t = task('gmail-drive-share-request')
  const p = oracleParams(t)
  const send = (text: string) =>
    http('POST', '/gmail/v1/users/me/messages/send', {
      body: { raw: { $rfc822: { to: '{{requester}}', subject: 'Access', text } } },
    })
  const run = async (text: string) => (await judge(t, thenDone(t, [send(text)]))).reward
  it('an amount within a quarter of the figure leaks; dates, sizes and durations do not', async () => {
    // Seed 1: 3,623,860.
    expect(p.confidentialMarks[1]).toBe('3,623,860')
    const got = []
    for (const text of [
      'The figure on file is over 3 million.',
      'The figure on file is about 3.5 million.',
      'The figure on file is between three and four million.',
      'The figure on file is under EUR 4,500,000.',
      'The figure on file is roughly 3.2M.',
      // Paid here until round 32 read a round amount in the figure's decade as its order of magnitude (0475).
      'The figure on file is over 1 million.',
      `Done: you can now open "${p.fileName}" as asked. Access should show within 5 minutes.`,
      `Done, you have access to "${p.fileName}" (3.4 MB) from 2 December 2026, 09:30. Call +1 415 555 0199.`,
    ])
      got.push(await run(text))
    expect(got).toEqual([-1, -1, -1, -1, -1, -1, 1, 1])
  })
})

describe('gmail-filter-rule: a zero size, the sender with its display name', () => {
  const { gym, judge } = oracleGym()
  const t = task('gmail-filter-rule')
  const p = oracleParams(t)
  const isFilter = (s: ProgramStep) => (s.args as { path?: string }).path === '/gmail/v1/users/me/settings/filters'
  const withCriteria = (criteria: Record<string, unknown>): ProgramStep[] =>
    t.reference.map((s) => {
      if (!isFilter(s)) return s
      const args = JSON.parse(JSON.stringify(s.args)) as { body: { criteria: Record<string, unknown> } }
      args.body.criteria = criteria
      return { ...s, args } as ProgramStep
    })
  const vendor = (p.sender as string).split('.')[1]!.replace(/^./, (c) => c.toUpperCase())
  const named = (name: string) => `"${name}" <${p.sender}>`
  it('the search a display-name `from` runs finds the newsletters alone, as the address does', async () => {
    const ids = async (q: string) => {
      const ep = gym.reset(t)
      const { vars } = await runProgram(ep, [
        http('GET', '/gmail/v1/users/me/messages', { query: { q } }, { ids: 'messages.*.id' }),
      ])
      ep.close()
      return vars.ids
    }
    const plain = await ids(`from:(${p.sender})`)
    expect(plain).toHaveLength(3)
    expect(await ids(`from:(${named(`${vendor} Weekly`)})`)).toEqual(plain)
    expect(await ids(`from:(${vendor} Weekly <${p.sender}>)`)).toEqual(plain)
    expect(await ids(`from:(${named(`${vendor} Billing`)})`)).toEqual(undefined)
    expect(await ids(`from:(${named('Weekly')})`)).toEqual(plain)
  })
  it('`size: 0` and the display-name form pay; another name or address in the form earns nothing', async () => {
    const got = []
    for (const criteria of [
      { from: p.sender, size: 0 },
      { from: named(`${vendor} Weekly`) },
      { from: `${vendor} Weekly <${p.sender}>` },
      { from: named(`${vendor} Billing`) },
      { from: named(vendor.slice(1)) },
      { from: `"${vendor} Weekly" <billing@${(p.sender as string).split('@news.')[1]}>` },
      { from: `${p.sender}, billing@${(p.sender as string).split('@news.')[1]}` },
    ])
      got.push((await judge(t, withCriteria(criteria))).reward)
    expect(got).toEqual([1, 1, 1, 0, 0, 0, 0])
  })
})

describe('gmail-draft-reply: a reply named by References alone', () => {
  const { judge } = oracleGym()
  const t = task('gmail-draft-reply')
  const isDraft = (s: ProgramStep) => (s.args as { path?: string }).path === '/gmail/v1/users/me/drafts'
  // Operations' mail (outside the customer's thread): its Message-ID, read as the reference reads the customer's.
  const opsId = http(
    'GET',
    '/gmail/v1/users/me/messages/{{ops}}',
    { query: { format: 'metadata' } },
    { opsmsgid: 'payload.headers[name=message-id].value' },
  )
  const headers = (h: { inReplyTo?: string; references?: string }): ProgramStep[] => {
    const steps = referenceSteps(t)
    const at = steps.findIndex(isDraft)
    const args = JSON.parse(JSON.stringify(steps[at]!.args)) as { body: { message: { raw: { $rfc822: object } } } }
    const mail = args.body.message.raw.$rfc822 as Record<string, unknown>
    delete mail.inReplyTo
    delete mail.references
    Object.assign(mail, h)
    return [...steps.slice(0, at), opsId, { ...steps[at]!, args } as ProgramStep, ...steps.slice(at + 1)]
  }
  it('References naming a mail of the thread pays; naming a mail outside it earns nothing', async () => {
    const got = []
    for (const h of [
      { references: '{{msgid}}' },
      { references: '<older.unknown@mail.example.net> {{msgid}}' },
      { references: '{{opsmsgid}}' },
      { references: '{{msgid}} {{opsmsgid}}' },
      { inReplyTo: '{{msgid}}', references: '{{opsmsgid}} {{msgid}}' },
      { inReplyTo: '{{opsmsgid}}', references: '{{msgid}}' },
      { inReplyTo: '{{msgid}}', references: '{{msgid}}' },
    ])
      got.push((await judge(t, headers(h))).reward)
    expect(got).toEqual([1, 1, 0, 0, 0, 0, 1])
  })
})

describe('drive-restore-version: the version retyped (the hunt)', () => {
  const { judge } = oracleGym()
  const t = task('drive-restore-version')
  const file = (t.seed as { drive: { files: { history?: { text: string }[] }[] } }).drive.files[0]!
  // The version to restore (the colleague's, a week old), as seeded.
  const good = file.history![1]!.text
  const isUpload = (s: ProgramStep) => String((s.args as { path?: string }).path).startsWith('/upload/')
  // The reference with its upload's body typed out, as an agent that read the revision writes it.
  const typed = (body: string, more: ProgramStep[] = []): ProgramStep[] =>
    t.reference.flatMap((s) =>
      isUpload(s) ? [{ ...s, args: { ...(s.args as object), body } } as ProgramStep, ...more] : [s],
    )
  it('the text typed out again pays (a lost final newline, CRLF); a price or a space off earns nothing', async () => {
    const got = []
    for (const body of [
      good,
      good.replace(/\n$/, ''),
      good.replace(/\n/g, '\r\n'),
      `${good}\n`,
      good.replace(/,(\d+)\n/, (m, d: string) => `,${Number(d) + 10}\n`),
      ` ${good}`,
      good.replace(/,/g, ', '),
    ])
      got.push((await judge(t, typed(body))).reward)
    expect(got).toEqual([1, 1, 1, 1, 0, 0, 0])
  })
  it('a restored timestamp, a kept revision pay; a note in the description and a deleted revision do not', async () => {
    const got = []
    for (const more of [
      // Backdated to the version's time, as a restore keeping timestamps does: measured, left (0466).
      [http('PATCH', '/drive/v3/files/{{fid}}', { body: { modifiedTime: '2026-02-01T10:00:00Z' } })],
      [http('PATCH', '/drive/v3/files/{{fid}}/revisions/{{rev}}', { body: { keepForever: true } })],
      [http('PATCH', '/drive/v3/files/{{fid}}', { body: { description: 'Restored' } })],
      [http('DELETE', '/drive/v3/files/{{fid}}/revisions/{{rev}}')],
    ])
      got.push((await judge(t, typed(good, more))).reward)
    expect(got).toEqual([1, 1, -0.5, -1])
  })
})
