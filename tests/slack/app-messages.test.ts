import { describe, expect, it } from 'vitest'
import { slack } from '../../envs/slack/index.ts'
import { slackWorld } from './helpers.ts'

describe('chat.unfurl', () => {
  it('attaches an unfurl to a link in the message, shown in history; links not in the message are refused', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const m = await w.api('chat.postMessage', { channel: eng, text: 'See <https://tracker.test/T-42> please' }, 'bob')
    const unfurls = { 'https://tracker.test/T-42': { title: 'T-42: Fix login', text: 'Open · P1' } }
    expect((await w.api('chat.unfurl', { channel: eng, ts: m.ts, unfurls }, w.bot())).ok).toBe(true)
    const h = await w.api('conversations.history', { channel: eng, limit: 1 }, 'carol')
    expect(h.messages[0].attachments).toEqual([
      expect.objectContaining({ title: 'T-42: Fix login', from_url: 'https://tracker.test/T-42', is_app_unfurl: true }),
    ])
    expect(
      (
        await w.api(
          'chat.unfurl',
          { channel: eng, ts: m.ts, unfurls: { 'https://other.test/': { text: 'x' } } },
          w.bot(),
        )
      ).error,
    ).toBe('cannot_unfurl_url')
    expect((await w.api('chat.unfurl', { channel: eng, ts: m.ts }, w.bot())).error).toBe('missing_unfurls')
    expect((await w.api('chat.unfurl', { channel: eng, ts: m.ts, unfurls: '[1]' }, w.bot())).error).toBe(
      'invalid_unfurls_format',
    )
    expect((await w.api('chat.unfurl', { channel: eng, ts: '1.000001', unfurls }, w.bot())).error).toBe(
      'cannot_find_message',
    )
    expect((await w.api('chat.unfurl', { channel: eng, ts: m.ts, unfurls }, 'bob')).error).toBe('missing_scope')
  })
})

describe('chat.startStream', () => {
  it('streams a thread reply: appendStream adds text, stopStream finalises; a stopped stream refuses more', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const q = await w.api('chat.postMessage', { channel: eng, text: 'What broke last night?' }, 'bob')
    const s = await w.api('chat.startStream', { channel: eng, thread_ts: q.ts, markdown_text: 'Looking' }, w.bot())
    expect(s).toMatchObject({ ok: true, channel: eng, ts: expect.any(String) })
    expect((await w.api('chat.appendStream', { channel: eng, ts: s.ts, markdown_text: ' into it…' }, w.bot())).ts).toBe(
      s.ts,
    )
    expect((await w.api('chat.appendStream', { channel: eng, ts: s.ts, markdown_text: 'x' }, 'bob')).error).toBe(
      'message_not_owned_by_app',
    )
    const stop = await w.api(
      'chat.stopStream',
      { channel: eng, ts: s.ts, markdown_text: ' The cache node restarted.' },
      w.bot(),
    )
    expect(stop.message).toMatchObject({ text: 'Looking into it… The cache node restarted.', thread_ts: q.ts })
    expect((await w.api('chat.appendStream', { channel: eng, ts: s.ts, markdown_text: 'more' }, w.bot())).error).toBe(
      'message_not_in_streaming_state',
    )
    expect((await w.api('conversations.replies', { channel: eng, ts: q.ts }, 'bob')).messages[1].text).toBe(
      'Looking into it… The cache node restarted.',
    )
    expect((await w.api('chat.startStream', { channel: eng, markdown_text: 'x' }, w.bot())).error).toBe(
      'invalid_arguments',
    )
    expect(
      (await w.api('chat.startStream', { channel: await w.channel('sales'), thread_ts: q.ts }, w.bot())).error,
    ).toBe('not_in_channel')
  })
})

describe('assistant.threads.setStatus', () => {
  it('records status, title and suggested prompts for a thread in the bot’s DM; user tokens are refused', async () => {
    const w = slackWorld()
    const bot = (await w.api('auth.test', {}, w.bot())).user_id
    const dm = (await w.api('conversations.open', { users: bot }, 'bob')).channel.id
    const q = await w.api('chat.postMessage', { channel: dm, text: 'Summarise #engineering' }, 'bob')
    expect(
      (await w.api('assistant.threads.setStatus', { channel_id: dm, thread_ts: q.ts, status: 'is thinking…' }, w.bot()))
        .ok,
    ).toBe(true)
    expect(
      (
        await w.api(
          'assistant.threads.setTitle',
          { channel_id: dm, thread_ts: q.ts, title: 'Engineering summary' },
          w.bot(),
        )
      ).ok,
    ).toBe(true)
    const prompts = [{ title: 'Last week', message: 'Summarise last week' }]
    expect(
      (await w.api('assistant.threads.setSuggestedPrompts', { channel_id: dm, thread_ts: q.ts, prompts }, w.bot())).ok,
    ).toBe(true)
    const t = (slack.dump(w.h.entry.world).entities.assistantThreads as Record<string, unknown>)[`${dm}/${q.ts}`]
    expect(t).toEqual({ channel: dm, threadTs: q.ts, status: 'is thinking…', title: 'Engineering summary', prompts })
    expect(
      (await w.api('assistant.threads.setSuggestedPrompts', { channel_id: dm, thread_ts: q.ts, prompts: [] }, w.bot()))
        .error,
    ).toBe('invalid_arguments')
    expect(
      (await w.api('assistant.threads.setStatus', { channel_id: dm, thread_ts: q.ts, status: 'x' }, 'bob')).error,
    ).toBe('not_allowed_token_type')
    expect(
      (await w.api('assistant.threads.setTitle', { channel_id: dm, thread_ts: '1.000001', title: 'x' }, w.bot())).error,
    ).toBe('thread_not_found')
    expect(
      (
        await w.api(
          'assistant.threads.setTitle',
          { channel_id: await w.channel('leadership'), thread_ts: q.ts, title: 'x' },
          w.bot(),
        )
      ).error,
    ).toBe('channel_not_found')
  })
})

describe('files.remote.add', () => {
  it('registers a remote file (bot only), shared with files.remote.share and listed by files.remote.list', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const add = await w.api(
      'files.remote.add',
      { external_id: 'doc-1', external_url: 'https://docs.test/1', title: 'Design doc', filetype: 'gdoc' },
      w.bot(),
    )
    expect(add.file).toMatchObject({
      id: expect.stringMatching(/^F/),
      title: 'Design doc',
      is_external: true,
      external_id: 'doc-1',
      external_url: 'https://docs.test/1',
    })
    expect(
      (
        await w.api(
          'files.remote.add',
          { external_id: 'doc-1', external_url: 'https://docs.test/1', title: 'x' },
          w.bot(),
        )
      ).error,
    ).toBe('file_already_exists')
    expect(
      (
        await w.api(
          'files.remote.add',
          { external_id: 'doc-2', external_url: 'https://docs.test/2', title: 'x' },
          'bob',
        )
      ).error,
    ).toBe('not_allowed_token_type')
    expect((await w.api('files.remote.share', { external_id: 'doc-1', channels: eng }, w.bot())).file.channels).toEqual(
      [eng],
    )
    expect(
      (await w.api('files.remote.share', { external_id: 'doc-1', channels: await w.channel('sales') }, w.bot())).error,
    ).toBe('not_in_channel')
    expect(
      (await w.api('files.remote.list', { channel: eng }, w.bot())).files.map((f: { id: string }) => f.id),
    ).toEqual([add.file.id])
    expect((await w.api('files.remote.info', { file: add.file.id }, w.bot())).file.title).toBe('Design doc')
  })

  it('files.remote.update changes metadata and files.remote.remove deletes it', async () => {
    const w = slackWorld()
    await w.api(
      'files.remote.add',
      { external_id: 'sheet-7', external_url: 'https://sheets.test/7', title: 'Budget' },
      w.bot(),
    )
    expect(
      (await w.api('files.remote.update', { external_id: 'sheet-7', title: 'Budget 2027' }, w.bot())).file.title,
    ).toBe('Budget 2027')
    expect((await w.api('files.remote.update', { external_id: 'sheet-7', external_url: 'nope' }, w.bot())).error).toBe(
      'invalid_arguments',
    )
    expect((await w.api('files.remote.remove', { external_id: 'sheet-7' }, w.bot())).ok).toBe(true)
    expect((await w.api('files.remote.info', { external_id: 'sheet-7' }, w.bot())).error).toBe('file_not_found')
    expect((await w.api('files.remote.info', {}, w.bot())).error).toBe('invalid_arguments')
  })
})

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
async function multipart(
  w: ReturnType<typeof slackWorld>,
  method: string,
  user: string,
  fields: Record<string, string | Buffer>,
) {
  const fd = new FormData()
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') fd.set(k, v)
    else fd.set(k, new Blob([new Uint8Array(v)], { type: 'image/png' }), 'me.png')
  }
  const req = new Request('http://local/', { method: 'POST', body: fd })
  const body = new Uint8Array(await req.arrayBuffer())
  return (
    await w.h.call('POST', `/api/${method}`, {
      body,
      headers: { 'content-type': req.headers.get('content-type')! },
      token: w.h.slack(user),
    })
  ).body
}

describe('users.setPhoto', () => {
  it('sets a custom avatar shown in the profile; users.deletePhoto restores the default; non-images are bad_image', async () => {
    const w = slackWorld()
    const before = (await w.api('users.profile.get', {}, 'bob')).profile.image_72
    expect((await multipart(w, 'users.setPhoto', 'bob', { image: PNG, crop_w: '100' })).ok).toBe(true)
    const p = (await w.api('users.profile.get', {}, 'bob')).profile
    expect(p.image_72).not.toBe(before)
    expect(p.is_custom_image).toBe(true)
    expect((await multipart(w, 'users.setPhoto', 'bob', { image: Buffer.from('not an image') })).error).toBe(
      'bad_image',
    )
    expect((await w.api('users.setPhoto', {}, 'bob')).error).toBe('invalid_arguments')
    expect((await w.api('users.deletePhoto', {}, 'bob')).ok).toBe(true)
    expect((await w.api('users.profile.get', {}, 'bob')).profile.image_72).toBe(before)
  })
})

describe('users.setActive', () => {
  it('answers ok and marks the caller active', async () => {
    const w = slackWorld()
    await w.api('users.setPresence', { presence: 'away' }, 'carol')
    expect((await w.api('users.setActive', {}, 'carol')).ok).toBe(true)
    expect((await w.api('users.getPresence', {}, 'carol')).presence).toBe('active')
  })
})
