import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { worldState } from '../../server/state.ts'
import { validateAgainst } from '../support/discovery.ts'
import { driveSeed } from './fixtures.ts'

// A seeded comment thread: a comment that quotes the file, a reply that resolves it, and an open comment.
const seed = {
  ...driveSeed,
  drive: {
    files: [
      ...driveSeed.drive.files,
      {
        name: 'Notes.txt',
        owner: 'ann',
        text: 'Launch date: TBD',
        permissions: [{ type: 'user' as const, role: 'commenter' as const, user: 'ben' }],
        comments: [
          {
            author: 'ben',
            content: 'Which date?',
            quoted: 'Launch date: TBD',
            at: '-2d',
            replies: [{ author: 'ann', content: 'June 3.', action: 'resolve' as const, at: '-1d' }],
          },
          { author: 'ben', content: 'Add owners?', at: '-1d' },
        ],
      },
    ],
  },
}

describe('drive.comments.list', () => {
  test('lists seeded threads with their replies and resolution; the oracle state carries them', async () => {
    const h = harness(seed)
    const file = (await h.call('GET', `/drive/v3/files?q=${encodeURIComponent("name = 'Notes.txt'")}`)).body.files[0]
    const list = await h.call('GET', `/drive/v3/files/${file.id}/comments?fields=*`)
    expect(list.status).toBe(200)
    const [first, second] = list.body.comments
    expect(first).toMatchObject({
      content: 'Which date?',
      resolved: true,
      quotedFileContent: { value: 'Launch date: TBD' },
    })
    expect(first.id).toMatch(/^AAAB[A-Z0-9]{7}$/)
    expect(first.replies).toHaveLength(1)
    expect(first.replies[0]).toMatchObject({
      content: 'June 3.',
      action: 'resolve',
      author: { emailAddress: 'ann@example.com' },
    })
    expect(second.resolved).toBeUndefined()
    expect(second.replies).toEqual([])
    expect(validateAgainst('drive', 'Comment', first)).toEqual([])
    const state = worldState(h.entry.world).services.drive!.entities.comments!
    expect(
      Object.values(state).map((c) => [(c as { content: string }).content, (c as { resolved: boolean }).resolved]),
    ).toEqual([
      ['Which date?', true],
      ['June 3.', false],
      ['Add owners?', false],
    ])
    // Replies created later continue the same id sequence.
    const reply = await h.call('POST', `/drive/v3/files/${file.id}/comments/${second.id}/replies?fields=id`, {
      token: h.google('ben'),
      json: { content: 'And reviewers.' },
    })
    expect(reply.status).toBe(200)
    expect([first.id, first.replies[0].id, second.id]).not.toContain(reply.body.id)
  })
})
