import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { World } from '../../envs/core/world.ts'
import { allServiceTables } from '../../server/registry.ts'
import { buildMessage } from '../../envs/gmail/mime/build.ts'
import { ensureMailbox } from '../../envs/gmail/store/mailbox.ts'
import { insertMessage, labelsOf, modifyLabels } from '../../envs/gmail/store/messages.ts'

// The Gmail seed hands modifyLabels the labels insertMessage has just stored instead of letting it read them.
describe('modifyLabels with the stored labels given', () => {
  const raw = buildMessage({
    from: { email: 'a@x.test' },
    to: [{ email: 'b@x.test' }],
    subject: 'Hello',
    text: 'Body',
    date: new Date(0),
    messageId: '<m1@x.test>',
  })
  const run = (given: boolean) => {
    const world = World.create(allServiceTables())
    const out = world.tx((db) => {
      ensureMailbox(db, 'u1')
      const base = ['CATEGORY_PERSONAL', 'INBOX', 'UNREAD']
      const row = insertMessage(db, 'u1', { raw, labelIds: base, internalDate: 1000 })
      const after = given
        ? modifyLabels(db, 'u1', row.id, ['STARRED', 'TRASH'], ['INBOX'], row.threadId, base)
        : modifyLabels(db, 'u1', row.id, ['STARRED', 'TRASH'], ['INBOX'], row.threadId)
      return { after, labels: labelsOf(db, 'u1', row.id) }
    })
    const bytes = createHash('sha256').update(world.snapshot().bytes).digest('hex')
    world.close()
    return { ...out, bytes }
  }

  test('gives the same labels, history and bytes as reading them', () => {
    const given = run(true)
    expect(given.after).toEqual(['UNREAD', 'STARRED', 'CATEGORY_PERSONAL', 'TRASH'])
    expect(given.labels).toEqual(given.after)
    expect(given).toEqual(run(false))
  })
})
