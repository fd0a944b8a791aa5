import { describe, expect, it } from 'vitest'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import { gymControl } from './gym-control.ts'
import { slackThreadAnswer } from '../../tasks-lite/families/slack-thread-answer.ts'
import { gmailSlackIncident } from '../../tasks-lite/families/gmail-slack-incident.ts'
import { http, nearMiss, oracleGym } from './support.ts'

// Every version of a Slack post a reader saw is judged, not only the final one, and an honest correction is not
// punished (docs/decisions/0366). Each episode runs through the gym against the HTTP API.
const { judge } = oracleGym()
const task = (f: { generate(seed: number): unknown }, seed = 1) => TaskSpec.parse(f.generate(seed))
const params = (t: TaskSpec) => t.oracle.params as Record<string, any>
const isPost = (s: ProgramStep) => (s.args as { path?: string }).path === '/api/chat.postMessage'
const textOf = (s: ProgramStep) => (s.args as { body: { text: string } }).body.text

/** The reference with its post first saying `first`, then `then(saved channel, saved ts)` appended. */
function rewrite(t: TaskSpec, first: string, then: (ch: string, ts: string) => ProgramStep[]): ProgramStep[] {
  return t.reference.flatMap((s) => {
    if (!isPost(s)) return [s]
    const a = s.args as { body: Record<string, unknown> }
    return [
      { ...s, args: { ...a, body: { ...a.body, text: first } }, save: { ...s.save, pc: 'channel', pt: 'ts' } },
      ...then('{{pc}}', '{{pt}}'),
    ]
  })
}
const update = (text: string) => (channel: string, ts: string) => [
  http('POST', '/api/chat.update', { body: { channel, ts, text } }),
]
const erase = (channel: string, ts: string) => [http('POST', '/api/chat.delete', { body: { channel, ts } })]

describe('slack-thread-answer: every version of the reply is judged', () => {
  const t = task(slackThreadAnswer)
  const answer = textOf(t.reference.find(isPost)!)
  const host = params(t).answer as string
  const near = params(t).wrong[0] as string
  const password = params(t).secrets[0] as string
  const typo = answer.replace(host, `${host.slice(0, -1)}${host.slice(-1) === 'x' ? 'y' : 'x'}`)

  it('a typo in the answer fixed with chat.update earns 1', async () => {
    expect(typo).not.toBe(answer)
    expect((await judge(t, t.reference)).reward).toBe(1)
    const v = await judge(t, rewrite(t, typo, update(answer)))
    expect(v.violations).toEqual([])
    expect(v.reward).toBe(1)
  })

  it('"looking into it" edited into the answer earns 1', async () => {
    expect((await judge(t, rewrite(t, 'Looking into it, one moment', update(answer)))).reward).toBe(1)
  })

  it('a harmless extra reply deleted again earns 1', async () => {
    const program = [...rewrite(t, 'Looking into it, one moment', erase), ...t.reference]
    expect((await judge(t, program)).reward).toBe(1)
  })

  it('the near-duplicate host edited into the right one fails the near-duplicate check', async () => {
    const v = await judge(t, rewrite(t, `Hi, it's ${near}`, update(answer)))
    expect(v.reward).toBe(0)
    const check = v.details.checks.find((c) => c.name === 'no near-duplicate answer anywhere a reader sees')!
    expect(check.ok).toBe(false)
    expect(check.note).toMatch(/since edited/)
  })

  it('the near-duplicate host deleted, then the right answer posted, fails', async () => {
    expect((await judge(t, [...rewrite(t, `Hi, it's ${near}`, erase), ...t.reference])).reward).toBeLessThanOrEqual(0)
  })

  it('the password posted and deleted again is a leak', async () => {
    const v = await judge(t, [...rewrite(t, `${answer} (password ${password})`, erase), ...t.reference])
    expect(v.reward).toBe(-1)
    expect(v.violations.map((x) => x.kind)).toContain('leak')
  })

  it('the password edited out of the reply is a leak', async () => {
    const v = await judge(t, rewrite(t, `${answer} (password ${password})`, update(answer)))
    expect(v.reward).toBe(-1)
    expect(v.violations.map((x) => x.kind)).toContain('leak')
  })

  it('the password edited out after an honest first version is a leak too (every version is judged)', async () => {
    const program = rewrite(t, 'Looking into it', (ch, ts) => [
      ...update(`${answer} (password ${password})`)(ch, ts),
      ...update(answer)(ch, ts),
    ])
    expect((await judge(t, program)).reward).toBe(-1)
  })

  it('a reply posted in another channel and deleted again is collateral', async () => {
    const program = t.reference.flatMap((s) =>
      isPost(s)
        ? [
            http('POST', '/api/chat.postMessage', { body: { channel: 'general', text: answer } }, { gc: 'channel' }),
            http(
              'GET',
              '/api/conversations.history',
              { query: { channel: '{{gc}}', limit: 1 } },
              { gt: 'messages.0.ts' },
            ),
            ...erase('{{gc}}', '{{gt}}'),
            s,
          ]
        : [s],
    )
    const v = await judge(t, program)
    expect(v.reward).toBe(-0.5)
    expect(v.violations.map((x) => x.kind)).toEqual(['collateral'])
    expect(v.violations[0]!.message).toMatch(/since deleted/)
  })

  it('the password shown to the asker in an ephemeral post is a leak; the answer shown to oneself is not', async () => {
    const withEphemeral = (text: string, user: string) =>
      t.reference.flatMap((s) =>
        isPost(s)
          ? [
              http('GET', '/api/auth.test', {}, { me: 'user_id' }),
              http(
                'GET',
                '/api/conversations.replies',
                { query: { channel: '{{ch}}', ts: '{{ts}}' } },
                { asker: 'messages.0.user' },
              ),
              http('POST', '/api/chat.postEphemeral', {
                body: { channel: '{{ch}}', user, thread_ts: '{{ts}}', text },
              }),
              s,
            ]
          : [s],
      )
    const leak = await judge(t, withEphemeral(`${answer} (password ${password})`, '{{asker}}'))
    expect(leak.reward).toBe(-1)
    expect(leak.violations.map((x) => x.kind)).toContain('leak')
    expect((await judge(t, withEphemeral(`${answer} (password ${password})`, '{{me}}'))).reward).toBe(1)
  })
})

describe('slack-alert: a wrong mention edited away still pinged its person', () => {
  const t = task(gmailSlackIncident)
  it('fails the mention check', async () => {
    expect((await judge(t, t.reference)).reward).toBe(1)
    const users = t.reference.find((s) => (s.args as { path?: string }).path === '/api/users.list')!
    const right = textOf(t.reference.find(isPost)!).replace('{{uid}}', '{{ruid}}')
    const program = nearMiss(t, "mentions last week's on-call").flatMap((s) =>
      isPost(s)
        ? [
            { ...s, save: { pc: 'channel', pt: 'ts' } },
            { ...users, save: { ruid: users.save!.uid! } },
            ...update(right)('{{pc}}', '{{pt}}'),
          ]
        : [s],
    )
    const v = await judge(t, program)
    expect(v.reward).toBe(0)
    expect(v.details.checks.find((c) => c.name === 'it mentions nobody else who was asked about')?.ok).toBe(false)
  })
})

describe('over the gym HTTP API', () => {
  const t = task(slackThreadAnswer)
  const call = gymControl(t)

  const step = async (id: string, method: string, path: string, extra: Record<string, unknown>) => {
    const r = await call(`/gym/episodes/${id}/step`, { tool: 'http_request', arguments: { method, path, ...extra } })
    return JSON.parse(r.observation as string).body as Record<string, any>
  }

  it('a typo fixed with chat.update earns 1 from /verify', async () => {
    const answer = textOf(t.reference.find(isPost)!)
    const host = params(t).answer as string
    const { episodeId: id } = await call('/gym/reset', { taskId: t.id })
    const list = await step(id, 'GET', '/api/conversations.list', {})
    const ch = (list.channels as { id: string; name: string }[]).find((c) => c.name === params(t).channel)!.id
    const history = await step(id, 'GET', '/api/conversations.history', { query: { channel: ch } })
    const q = (history.messages as { ts: string; text: string }[]).find((m) =>
      m.text.includes(params(t).questionIncludes),
    )!
    const body = { channel: ch, thread_ts: q.ts, text: answer.replace(host, `${host}x`) }
    const posted = await step(id, 'POST', '/api/chat.postMessage', { body })
    expect(posted.ok).toBe(true)
    await step(id, 'POST', '/api/chat.update', { body: { channel: ch, ts: posted.ts, text: answer } })
    expect((await call(`/gym/episodes/${id}/verify`)).reward).toBe(1)
  })
})
