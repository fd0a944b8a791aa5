import { describe, expect, it } from 'vitest'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams } from './support.ts'

// Round 24 of the reward red team (docs/decisions/0459).

describe('gmail-forward-attachment: the invoice mail forwarded as an attachment (message/rfc822)', () => {
  const { judge } = oracleGym()
  const t = task('gmail-forward-attachment')
  const p = oracleParams(t)
  const find = (q: string, as: string) =>
    http('GET', '/gmail/v1/users/me/messages', { query: { q } }, { [as]: 'messages.0.id' })
  const raw = (as: string) =>
    http('GET', `/gmail/v1/users/me/messages/{{${as}}}`, { query: { format: 'raw' } }, { [`${as}raw`]: 'raw' })
  const csv = (as: string): ProgramStep[] => [
    http(
      'GET',
      `/gmail/v1/users/me/messages/{{${as}}}`,
      {},
      { [`${as}att`]: 'payload.parts[filename~=.csv].body.attachmentId' },
    ),
    http('GET', `/gmail/v1/users/me/messages/{{${as}}}/attachments/{{${as}att}}`, {}, { [`${as}data`]: 'data' }),
  ]
  const eml = (as: string) => ({
    filename: 'invoice.eml',
    contentType: 'message/rfc822',
    content: `{{${as}raw}}`,
    encoding: 'base64',
  })
  const file = (as: string) => ({
    filename: 'invoice.csv',
    contentType: 'text/csv',
    content: `{{${as}data}}`,
    encoding: 'base64',
  })
  const send = (attachments: unknown[]) =>
    http('POST', '/gmail/v1/users/me/messages/send', {
      body: {
        raw: {
          $rfc822: {
            from: '{{me}}',
            to: p.to,
            subject: `Fwd: ${p.subject}`,
            text: 'Hi,\n\nPlease process the attached invoice.\n\nThanks',
            attachments,
          },
        },
      },
    })
  const me = http('GET', '/gmail/v1/users/me/profile', {}, { me: 'emailAddress' })
  const inv = String(p.filename).replace(/\.csv$/, '')
  const look: ProgramStep[] = [
    me,
    find(`has:attachment ${inv}`, 'a'),
    raw('a'),
    find(`has:attachment ${p.wrong[0]}`, 'b'),
    raw('b'),
    ...csv('a'),
    ...csv('b'),
    find('subject:statement', 'c'),
    raw('c'),
  ]
  const done = t.reference.filter((s) => s.tool === 'done')
  const run = async (attachments: unknown[]) => (await judge(t, [...look, send(attachments), ...done])).reward
  it('pays with the right mail alone inside; the wrong mail, another file or mail, the file twice do not', async () => {
    const got = []
    for (const a of [
      [eml('a')],
      [eml('b')],
      [eml('a'), file('b')],
      [eml('a'), file('a')],
      [eml('c'), file('a')],
      [file('a')],
    ])
      got.push(await run(a))
    expect(got).toEqual([1, 0, 0, 0, 0, 1])
  })
})

describe('docs-numbered-steps: the steps listed with letters or numerals', () => {
  const { judge } = oracleGym()
  const t = task('docs-numbered-steps')
  const withPreset = (preset: string) =>
    JSON.parse(JSON.stringify(t.reference).replace('NUMBERED_DECIMAL_ALPHA_ROMAN', preset)) as ProgramStep[]
  it('letters (A, B, C) earn nothing; decimal, zero-padded and roman numerals pay', async () => {
    const got = []
    for (const preset of [
      'NUMBERED_UPPERALPHA_ALPHA_ROMAN',
      'NUMBERED_DECIMAL_ALPHA_ROMAN',
      'NUMBERED_DECIMAL_NESTED',
      'NUMBERED_ZERODECIMAL_ALPHA_ROMAN',
      'NUMBERED_UPPERROMAN_UPPERALPHA_DECIMAL',
    ])
      got.push((await judge(t, withPreset(preset))).reward)
    expect(got).toEqual([0, 1, 1, 1, 1])
  })
})

describe("calendar-reschedule-instance: the moved instance's colour and reminders", () => {
  const { judge } = oracleGym()
  const t = task('calendar-reschedule-instance')
  const withPatch = (extra: Record<string, unknown>): ProgramStep[] =>
    t.reference.map((s) => {
      const a = s.args as { method?: string; body?: Record<string, unknown> }
      return a.method === 'PATCH' ? ({ ...s, args: { ...a, body: { ...a.body, ...extra } } } as ProgramStep) : s
    })
  it('recoloured or with its reminders silenced earns nothing; the default reminders said outright pay', async () => {
    const got: number[] = []
    for (const extra of [
      { colorId: '11' },
      { reminders: { useDefault: false, overrides: [] } },
      { reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 1 }] } },
      { reminders: { useDefault: true } },
    ])
      got.push((await judge(t, withPatch(extra))).reward)
    expect(got).toEqual([0, 0, 0, 1])
    expect((await judge(t, t.reference)).reward).toBe(1)
  })
})

describe('drive-comment-resolve: the answer withdrawn, denied or hedged', () => {
  const { judge } = oracleGym()
  const t = task('drive-comment-resolve')
  const p = oracleParams(t)
  const [date] = p.answers as string[]
  // Another day of the same month, which no file names.
  const other = date!.replace(/ (\d+),/, (_, d: string) => ` ${Number(d) < 15 ? Number(d) + 10 : Number(d) - 10},`)
  const post = t.reference.at(-1)!
  const withReply = (content: string): ProgramStep[] => {
    const a = post.args as { body: Record<string, unknown> }
    return [...t.reference.slice(0, -1), { ...post, args: { ...a, body: { ...a.body, content } } } as ProgramStep]
  }
  const reply = post.args as { path: string }
  const saved = { ...post, save: { rid: 'id' } } as ProgramStep
  const drop = http('DELETE', `${reply.path}/{{rid}}`, {})
  it('a deleted reply, a denied date or a date with another beside it earn nothing; plain answers pay', async () => {
    const got = [
      (await judge(t, t.reference)).reward,
      (await judge(t, [...t.reference.slice(0, -1), saved, drop])).reward,
      (await judge(t, withReply(`Not ${date}: the launch date is still TBD.`))).reward,
      (await judge(t, withReply(`${date} or ${other}, not settled yet.`))).reward,
      (await judge(t, withReply(`Confirmed: ${p.answers[1]}, per the launch calendar.`))).reward,
      (await judge(t, withReply(`It's ${date}, not TBD any more. Updating the plan is yours.`))).reward,
    ]
    expect(got).toEqual([1, 0, 0, 0, 1, 1])
  })
})
