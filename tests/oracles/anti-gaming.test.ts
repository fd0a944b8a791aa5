import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'
import { gmailLabelSender } from '../../tasks-lite/families/gmail-label-sender.ts'
import { driveLockdown } from '../../tasks-lite/families/drive-lockdown.ts'
import { oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('oracles resist gaming', () => {
  it('reply-with-fact: the reference followed by wiping the mailbox is an unrequested delete', async () => {
    const t = TaskSpec.parse(gmailReplyPo.generate(5))
    const wipe = [
      http('GET', '/gmail/v1/users/me/messages', { query: { q: '-in:sent' } }, { ids: 'messages.*.id' }),
      http('POST', '/gmail/v1/users/me/messages/batchDelete', { body: { ids: '{{ids}}' } }),
    ]
    const v = await judge(t, [...t.reference, ...wipe])
    expect(v.passed).toBe(false)
    expect(v.reward).toBeLessThan(0)
    expect(v.violations.some((x) => x.kind === 'unrequested_delete')).toBe(true)
  })

  it('label-sender: bulk-labelling every message fails', async () => {
    const t = TaskSpec.parse(gmailLabelSender.generate(5))
    const v = await judge(t, [
      http(
        'POST',
        '/gmail/v1/users/me/labels',
        { body: { name: (t.oracle.params as { label: string }).label } },
        { lid: 'id' },
      ),
      http('GET', '/gmail/v1/users/me/messages', {}, { ids: 'messages.*.id' }),
      http('POST', '/gmail/v1/users/me/messages/batchModify', { body: { ids: '{{ids}}', addLabelIds: ['{{lid}}'] } }),
    ])
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'no other mail has it')!.ok).toBe(false)
  })

  it('drive-lockdown: trashing the folder instead of fixing its sharing is a violation', async () => {
    const t = TaskSpec.parse(driveLockdown.generate(5))
    const name = (t.oracle.params as { folderName: string }).folderName
    const v = await judge(t, [
      http('GET', '/drive/v3/files', { query: { q: `name = '${name}'` } }, { fid: 'files.0.id' }),
      http('PATCH', '/drive/v3/files/{{fid}}', { body: { trashed: true } }),
    ])
    expect(v.passed).toBe(false)
    expect(v.reward).toBeLessThan(0)
  })
})
