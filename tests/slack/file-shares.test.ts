import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

// A file's `shares`: the messages that carry it, per conversation (docs/decisions/0452; shape as recorded).

type Share = Record<string, unknown>
const sharesIn = (file: { shares: Record<string, Record<string, Share[]>> }, kind: string, ch: string) =>
  file.shares[kind]?.[ch] ?? []

describe('files: shares', () => {
  it('lists the share message in a public channel with its thread facts, and in a thread by thread_ts', async () => {
    const w = slackWorld()
    const general = await w.channel('general')
    const alice = await w.uid('alice')
    const bob = await w.uid('bob')
    const up = await w.api('files.upload', {
      content: 'a,b',
      filename: 'q.csv',
      channels: general,
      initial_comment: 'hi',
    })
    const hist = await w.api('conversations.history', { channel: general, limit: 1 })
    const ts = hist.messages[0].ts as string
    expect(hist.messages[0].files[0].id).toBe(up.file.id)
    const first = sharesIn(up.file, 'public', general)
    expect(first).toEqual([
      expect.objectContaining({ ts, reply_count: 0, reply_users: [], reply_users_count: 0, share_user_id: alice }),
    ])
    expect(first[0]).toMatchObject({ channel_name: 'general', source: 'UNKNOWN', is_silent_share: false })
    expect(up.file.shares.private).toBeUndefined()
    // The file in the history page carries the same shares.
    expect(hist.messages[0].files[0].shares).toEqual(up.file.shares)
    const reply = await w.api('chat.postMessage', { channel: general, thread_ts: ts, text: 'thanks' }, 'bob')
    const info = (await w.api('files.info', { file: up.file.id }, 'bob')).file
    expect(sharesIn(info, 'public', general)).toEqual([
      expect.objectContaining({ ts, reply_count: 1, reply_users: [bob], latest_reply: reply.ts }),
    ])
    // Shared again inside that thread: a second share, named by its thread.
    const again = await w.api('files.upload', { content: 'x', filename: 'r.txt', channels: general, thread_ts: ts })
    const inThread = sharesIn(again.file, 'public', general)
    expect(inThread).toHaveLength(1)
    expect(inThread[0]).toMatchObject({ thread_ts: ts, share_user_id: alice })
    expect(inThread[0]!.reply_count).toBeUndefined()
  })

  it('puts private channel shares under private, and drops a share whose message is deleted', async () => {
    const w = slackWorld()
    const made = await w.api('conversations.create', { name: 'secret-plans', is_private: true })
    const priv = made.channel.id as string
    const up = await w.api('files.upload', { content: 'x', filename: 's.txt', channels: priv })
    expect(up.file.shares.public).toBeUndefined()
    const [share] = sharesIn(up.file, 'private', priv)
    expect(share).toMatchObject({ channel_name: 'secret-plans', reply_count: 0 })
    expect((await w.api('chat.delete', { channel: priv, ts: share!.ts })).ok).toBe(true)
    const info = await w.api('files.info', { file: up.file.id })
    expect(info.ok).toBe(true)
    expect(info.file.shares).toEqual({})
    // A share message with replies stays as a tombstone without the file: no longer a share either.
    const again = await w.api('files.upload', { content: 'y', filename: 't.txt', channels: priv })
    const [second] = sharesIn(again.file, 'private', priv)
    await w.api('chat.postMessage', { channel: priv, thread_ts: second!.ts, text: 'seen' })
    expect((await w.api('chat.delete', { channel: priv, ts: second!.ts })).ok).toBe(true)
    expect((await w.api('files.info', { file: again.file.id })).file.shares).toEqual({})
  })
})
