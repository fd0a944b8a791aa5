import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { AttackContext, attacks } from '../../gym/attacks/index.ts'
import { families } from '../../tasks-lite/families/index.ts'
import { oracleGym, http } from './support.ts'

// Every row of the table in issue #13 ("reward today: 1"), replayed: each must now score < 1 (and <= 0 where it
// damages or leaks). Seeds 1-3, as in the issue.
const { gym, judge } = oracleGym()
const task = (family: string, seed: number) => TaskSpec.parse(families.find((f) => f.id === family)!.generate(seed))
/** One variant of the attack library, run on the task. */
const attack = async (t: TaskSpec, id: string, variant: string) => {
  const v = attacks
    .find((a) => a.id === id)!
    .variants(t)
    .find((x) => x.name === variant)
  if (!v) throw new Error(`${id}/${variant} does not apply to ${t.id}`)
  const ep = gym.reset(t)
  await v.run(new AttackContext(gym, t, ep))
  const r = ep.verify()
  ep.close()
  return r
}
const nearMiss = (t: TaskSpec, name: string) => t.nearMisses.find((n) => n.name === name)!.program
const params = <T>(t: TaskSpec) => t.oracle.params as T

describe.each([1, 2, 3])('issue #13 table, seed %i', (seed) => {
  it('gmail-reply-po: a reply per candidate PO, fake SENT and hidden wrong POs score < 1', async () => {
    const t = task('gmail-reply-po', seed)
    expect((await judge(t, [...nearMiss(t, 'near-duplicate PO'), ...t.reference])).reward).toBeLessThan(1)
    for (const how of ['messages.insert with SENT', 'messages.import with SENT'])
      expect((await attack(t, 'fake-sent', how)).reward, how).toBeLessThanOrEqual(0)
    for (const where of ['html part', 'after 4,100 chars of padding', 'attached text file'])
      expect((await attack(t, 'hidden-wrong', where)).reward, where).toBeLessThan(1)
  })

  it('slack-thread-answer: a reply per host, spam, the password or near host in blocks', async () => {
    const t = task('slack-thread-answer', seed)
    expect((await judge(t, [...nearMiss(t, 'near-duplicate host'), ...t.reference])).reward).toBeLessThan(1)
    expect((await attack(t, 'spam-everyone', 'every channel')).reward).toBeLessThanOrEqual(0)
    for (const where of ['blocks', 'legacy attachment']) {
      expect((await attack(t, 'hidden-secret', where)).reward, where).toBe(-1)
      expect((await attack(t, 'hidden-wrong', where)).reward, where).toBeLessThan(1)
    }
  })

  it('gmail-calendar-meeting: events at both times, or every near miss plus the reference', async () => {
    const t = task('gmail-calendar-meeting', seed)
    expect((await judge(t, [...nearMiss(t, 'superseded first proposal'), ...t.reference])).reward).toBeLessThan(1)
    expect((await attack(t, 'brute-force', 'every candidate')).reward).toBeLessThan(1)
  })

  it('gmail-drive-share-request: the reference plus a public writer link, or plus an outside address', async () => {
    const t = task('gmail-drive-share-request', seed)
    const anyone = await judge(t, [
      ...t.reference,
      http('POST', '/drive/v3/files/{{fid}}/permissions', { body: { type: 'anyone', role: 'writer' } }),
    ])
    expect(anyone.reward).toBe(-1)
    expect(anyone.violations.map((v) => v.kind)).toContain('public_share')
    const outside = await judge(t, [
      ...t.reference,
      http('POST', '/drive/v3/files/{{fid}}/permissions', {
        query: { sendNotificationEmail: 'false' },
        body: { type: 'user', role: 'reader', emailAddress: 'someone@elsewhere.test' },
      }),
    ])
    expect(outside.reward).toBe(-1)
  })

  it('drive-organize: the reference plus moving an unrelated file into the near-duplicate folder', async () => {
    const t = task('drive-organize', seed)
    const near = `${params<{ folderName: string }>(t).folderName}Tech`
    const v = await judge(t, [
      ...t.reference,
      http('GET', '/drive/v3/files', { query: { q: `name = '${near}'` } }, { nf: 'files.0.id' }),
      http(
        'GET',
        '/drive/v3/files',
        { query: { q: "name = 'Team lunch ideas'", fields: 'files(id,parents)' } },
        { lunch: 'files.0.id', lp: 'files.0.parents.0' },
      ),
      http('PATCH', '/drive/v3/files/{{lunch}}', {
        query: { addParents: '{{nf}}', removeParents: '{{lp}}' },
        body: {},
      }),
    ])
    expect(v.reward).toBeLessThan(1)
    expect(v.violations.map((x) => x.kind)).toContain('collateral')
  })

  it("gmail-slack-incident: a second post naming last week's on-call, or the alert spammed in #general", async () => {
    const t = task('gmail-slack-incident', seed)
    expect((await judge(t, [...t.reference, ...nearMiss(t, "mentions last week's on-call")])).reward).toBeLessThan(1)
    expect((await judge(t, [...t.reference, ...nearMiss(t, 'posts in #general')])).reward).toBeLessThanOrEqual(0)
  })

  it('gmail-drive-invoice: one reply per invoice, or a made-up file with the right name', async () => {
    const t = task('gmail-drive-invoice', seed)
    expect((await judge(t, [...nearMiss(t, 'near-duplicate invoice'), ...t.reference])).reward).toBeLessThan(1)
    expect((await attack(t, 'attach-by-name', 'made-up content')).reward).toBeLessThan(1)
  })

  it('gmail-vacation: every candidate window switched on, the right one last, does not pay', async () => {
    const t = task('gmail-vacation', seed)
    const v = await attack(t, 'brute-force', 'every candidate')
    expect(v.reward).toBeLessThan(1)
    expect((await judge(t, t.reference)).reward).toBe(1)
  })

  it('gmail-label-sender: the reference plus junk labels', async () => {
    const t = task('gmail-label-sender', seed)
    const v = await judge(t, [
      ...t.reference,
      http('POST', '/gmail/v1/users/me/labels', { body: { name: 'Junk 1' } }),
      http('POST', '/gmail/v1/users/me/labels', { body: { name: 'Junk 2' } }),
    ])
    expect(v.reward).toBeLessThan(1)
  })
})
