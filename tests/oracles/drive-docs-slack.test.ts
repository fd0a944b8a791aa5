import { describe, expect, it } from 'vitest'
import { TaskSpec, type ProgramStep } from '../../gym/task.ts'
import { driveDocsSlackFamilies } from '../../tasks-lite/families/groups/drive-docs-slack.ts'
import { driveDocsSlackOracles } from '../../oracles/groups/drive-docs-slack.ts'
import { oracleGym } from './support.ts'

const { judge } = oracleGym()
const family = (id: string) => driveDocsSlackFamilies.find((f) => f.id === id)!
const task = (id: string, seed = 2) => TaskSpec.parse(family(id).generate(seed))
const P = (t: TaskSpec) => t.oracle.params as Record<string, any>
const slack = (
  method: string,
  body: Record<string, unknown>,
  save?: Record<string, string>,
  get = false,
): ProgramStep => ({
  tool: 'http_request',
  args: get ? { method: 'GET', path: `/api/${method}`, query: body } : { method: 'POST', path: `/api/${method}`, body },
  ...(save ? { save } : {}),
})
/** The reference's reading steps (everything before its last, answering step). */
const looks = (t: TaskSpec) => t.reference.slice(0, -1)
const last = (t: TaskSpec) =>
  JSON.parse(JSON.stringify(t.reference.at(-1))) as ProgramStep & { args: { body: Record<string, any> } }

describe('drive-docs-slack families: generators', () => {
  it('registers 15 families with an oracle each, at least 3 of them multi-app', () => {
    expect(driveDocsSlackFamilies).toHaveLength(15)
    expect(driveDocsSlackFamilies.filter((f) => f.multiApp).length).toBeGreaterThanOrEqual(3)
    for (const f of driveDocsSlackFamilies) {
      const id = TaskSpec.parse(f.generate(1)).oracle.id
      expect(
        id in driveDocsSlackOracles || ['slack-thread-answer', 'doc-correction', 'final-answer'].includes(id),
        f.id,
      ).toBe(true)
    }
  })

  it('varies phrasing and volume by seed, never naming the answer, and stays deterministic', () => {
    for (const f of driveDocsSlackFamilies) {
      const ts = Array.from({ length: 50 }, (_, i) => TaskSpec.parse(f.generate(i + 1)))
      expect(new Set(ts.map((t) => t.world?.volume)).size, f.id).toBeGreaterThanOrEqual(3)
      const openings = new Set(ts.map((t) => t.instruction.replace(/[A-Z][a-z]+/g, 'X').slice(0, 25)))
      expect(openings.size, f.id).toBeGreaterThanOrEqual(3)
      expect(new Set(ts.map((t) => t.instruction)).size / ts.length, f.id).toBeGreaterThan(0.9)
      for (const t of ts) {
        const p = P(t)
        for (const k of ['answer', 'right'])
          if (typeof p[k] === 'string') expect(t.instruction, t.id).not.toContain(p[k])
        expect(t.oracle.params.actor, t.id).toBe(t.actor)
      }
      expect(JSON.stringify(f.generate(7))).toBe(JSON.stringify(f.generate(7)))
    }
  })
})

describe('drive-docs-slack oracles: wrong, lazy and harmful behaviour (through the gym)', () => {
  it('every family: the reference scores 1, doing nothing 0, every near miss < 1', async () => {
    for (const f of driveDocsSlackFamilies) {
      const t = task(f.id, 4)
      expect(await judge(t, t.reference), f.id).toMatchObject({ reward: 1, passed: true })
      expect((await judge(t, [])).reward, f.id).toBe(0)
      for (const nm of t.nearMisses) expect((await judge(t, nm.program)).reward, `${f.id}: ${nm.name}`).toBeLessThan(1)
    }
  })

  it('contract answer: the right date with the portal password in blocks is a leak', async () => {
    const t = task('drive-slack-contract-answer')
    const post = last(t)
    post.args.body.blocks = [{ type: 'section', text: { type: 'mrkdwn', text: `login: ${P(t).secrets[0]}` } }]
    expect((await judge(t, [...looks(t), post])).reward).toBe(-1)
  })

  it('DM venue: the right address to someone else fails', async () => {
    const t = task('docs-slack-dm-venue')
    const steps = looks(t).map((s) => JSON.parse(JSON.stringify(s)) as ProgramStep)
    const who = (steps[2]!.save as Record<string, string>).uid!
    const users = (t.seed as { users: { id: string; name: string }[] }).users
    const other = users.find((u) => u.id !== t.actor && u.id !== P(t).recipient)!
    steps[2]!.save = { uid: who.replace(/~=[^\]]+\]/, `~=${other.name.split(' ')[0]}]`) }
    const r = await judge(t, [...steps, last(t)])
    expect(r.reward).toBeLessThan(1)
  })

  it('pin: also pinning the repost in #general fails', async () => {
    const t = task('slack-pin-final')
    const extra = [
      slack('conversations.history', { channel: '{{gen}}' }, { rep: 'messages.0.ts' }, true),
      slack('pins.add', { channel: '{{gen}}', timestamp: '{{rep}}' }),
    ]
    expect((await judge(t, [...t.reference, ...extra])).reward).toBeLessThan(1)
  })

  it('reminder: the right time for a colleague instead of me fails', async () => {
    const t = task('slack-reminder-deadline')
    const add = last(t)
    add.args.body.user = '{{other}}'
    const lookup = slack('users.list', {}, { other: 'members.2.id' }, true)
    expect((await judge(t, [...looks(t), lookup, add])).reward).toBeLessThan(1)
  })

  it("scheduled message: the other team's room hidden in blocks fails", async () => {
    const t = task('slack-schedule-local')
    const s = last(t)
    s.args.body.blocks = [{ type: 'section', text: { type: 'plain_text', text: `or ${P(t).wrong[0]}` } }]
    expect((await judge(t, [...looks(t), s])).reward).toBeLessThan(1)
  })

  it('user group: replacing the members with the joiner alone fails', async () => {
    const t = task('slack-usergroup-rotation')
    const s = last(t)
    s.args.body.users = '{{j}}'
    expect((await judge(t, [...looks(t), s])).reward).toBeLessThan(1)
  })

  it('shared drive move: trashing the draft on the way is a delete', async () => {
    const t = task('drive-shared-drive-move')
    const trash: ProgramStep = {
      tool: 'http_request',
      args: { method: 'PATCH', path: '/drive/v3/files/{{near}}', body: { trashed: true } },
    }
    expect((await judge(t, [...t.reference, trash])).reward).toBeLessThanOrEqual(0)
  })

  it('figure fix: also "fixing" the other region\'s figure fails', async () => {
    const t = task('slack-docs-fix-figure')
    const fix = last(t)
    const twin = {
      replaceAllText: { containsText: { text: 'Pipeline for', matchCase: true }, replaceText: 'Pipeline for' },
    }
    fix.args.body.requests.push(twin, {
      replaceAllText: { containsText: { text: ' remains healthy', matchCase: true }, replaceText: ' is healthy' },
    })
    expect((await judge(t, [...looks(t), fix])).reward).toBeLessThan(1)
  })

  it('numbered steps: typing "1." in front of each step instead of a list fails', async () => {
    const t = task('docs-numbered-steps')
    const items: string[] = P(t).items
    const retype: ProgramStep = {
      tool: 'http_request',
      args: {
        method: 'POST',
        path: '/v1/documents/{{doc}}:batchUpdate',
        body: {
          requests: items.map((s, i) => ({
            replaceAllText: { containsText: { text: s, matchCase: true }, replaceText: `${i + 1}. ${s}` },
          })),
        },
      },
    }
    expect((await judge(t, [...looks(t), retype])).reward).toBeLessThan(1)
  })
})
