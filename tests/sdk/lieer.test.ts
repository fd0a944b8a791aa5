import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { google } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'
import { oauth2clientCredential } from './oauth2client.ts'

// lieer (`gmi`, Debian package lieer): a real two-way sync tool between Gmail and a notmuch mail store, run
// unchanged against this server but for the Discovery URL (tests/sdk/python/lieer_at.py). It exercises full and
// partial (history) sync, label creation, label changes pushed back, and a threaded send.
const PYTHON = process.env.WSGYM_PYTHON ?? '/usr/bin/python3'
const missing = !existsSync('/usr/share/lieer/lieer/gmailieer.py')
  ? 'lieer is not installed (apt-get install lieer notmuch)'
  : !existsSync('/usr/bin/notmuch')
    ? 'notmuch is not installed (apt-get install notmuch)'
    : ''
const run = promisify(execFile)

describe.skipIf(missing !== '')(`lieer (gmi) two-way sync${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let server: SdkServer
  let dir: string
  let acct: string
  let env: NodeJS.ProcessEnv
  const gmail = () => google.gmail({ version: 'v1', auth: server.auth(), rootUrl: server.url })
  const gmi = (args: string[], input?: string) => {
    const child = run(PYTHON, [join(import.meta.dirname, 'python', 'lieer_at.py'), ...args], {
      cwd: acct,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    })
    if (input !== undefined) child.child.stdin!.end(input)
    return child
  }
  const notmuch = async (...args: string[]) =>
    (await run('/usr/bin/notmuch', args, { env, encoding: 'utf8' })).stdout.trim()
  /** The Gmail id of the message with this Message-ID, found with Gmail's own `rfc822msgid:` search. */
  const idOf = async (messageId: string) => {
    const res = await gmail().users.messages.list({
      userId: 'me',
      q: `rfc822msgid:${messageId}`,
      includeSpamTrash: true,
    })
    expect(res.data.messages, messageId).toHaveLength(1)
    return res.data.messages![0]!.id!
  }
  const labelNames = async (id: string) => {
    const labels = (await gmail().users.labels.list({ userId: 'me' })).data.labels!
    const msg = (await gmail().users.messages.get({ userId: 'me', id, format: 'minimal' })).data
    return msg.labelIds!.map((l) => labels.find((x) => x.id === l)!.name)
  }

  beforeAll(async () => {
    server = await startSdkServer('demo')
    dir = mkdtempSync(join(tmpdir(), 'wsgym-lieer-'))
    const me = server.tokens[0]!
    writeFileSync(
      join(dir, 'notmuch-config'),
      `[database]\npath=${dir}\n[user]\nprimary_email=${me.email}\n[new]\ntags=new\n`,
    )
    env = { ...process.env, HOME: dir, NOTMUCH_CONFIG: join(dir, 'notmuch-config'), WSGYM_URL: server.url }
    await notmuch('new')
    acct = join(dir, 'acct')
    mkdirSync(acct)
    await gmi(['init', '--no-auth', me.email!])
    // oauth2client's stored credential, as `gmi auth` would leave it (a token that does not expire in the test).
    const credential = oauth2clientCredential(
      me.googleToken!,
      server.url,
      'lieer.apps.googleusercontent.com',
      'https://mail.google.com/',
    )
    writeFileSync(join(acct, '.credentials.gmailieer.json'), JSON.stringify(credential))
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('a full pull stores every message of the mailbox with its labels as tags', async () => {
    const { stdout } = await gmi(['pull'])
    expect(stdout).toMatch(/full synchronization/)
    const listed = []
    let pageToken: string | undefined
    do {
      const page = await gmail().users.messages.list({ userId: 'me', includeSpamTrash: true, pageToken })
      listed.push(...(page.data.messages ?? []))
      pageToken = page.data.nextPageToken ?? undefined
    } while (pageToken)
    expect(Number(await notmuch('count', '*'))).toBe(listed.length)
    const unread = (await gmail().users.messages.list({ userId: 'me', q: 'is:unread', includeSpamTrash: true })).data
    expect(Number(await notmuch('count', 'tag:unread'))).toBe(unread.messages?.length ?? 0)
  }, 150_000)

  test('local tag changes are pushed: a new label is created, UNREAD and INBOX removed', async () => {
    await notmuch('tag', '-new', '*')
    const [first, second] = (await notmuch('search', '--output=messages', '--limit=2', 'tag:inbox and tag:unread'))
      .split('\n')
      .map((l) => l.replace(/^id:/, ''))
    expect(second).toBeDefined()
    await notmuch('tag', '-unread', '+triaged', `id:${first}`)
    await notmuch('tag', '-inbox', `id:${second}`)
    await gmi(['push'])
    const a = await labelNames(await idOf(first!))
    expect(a).toContain('triaged')
    expect(a).not.toContain('UNREAD')
    const b = await labelNames(await idOf(second!))
    expect(b).not.toContain('INBOX')
    expect(b).toContain('UNREAD')
  }, 150_000)

  test('a partial pull brings new mail and remote label changes from history', async () => {
    const raw = Buffer.from(
      'From: Carol <carol@elsewhere.test>\r\nTo: ' +
        `${server.tokens[0]!.email}\r\nMessage-ID: <lieer-new-1@elsewhere.test>\r\nSubject: Budget question\r\n` +
        'Date: Mon, 2 Mar 2026 13:00:00 +0000\r\n\r\nCan you confirm the Q2 budget?\r\n',
    ).toString('base64url')
    await gmail().users.messages.insert({ userId: 'me', requestBody: { raw, labelIds: ['INBOX', 'UNREAD'] } })
    const starred = (await notmuch('search', '--output=messages', '--limit=1', 'not tag:flagged and not tag:trash'))
      .replace(/^id:/, '')
      .trim()
    const id = await idOf(starred)
    await gmail().users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds: ['STARRED'] } })
    const { stdout } = await gmi(['pull'])
    expect(stdout).toMatch(/partial synchronization/)
    expect(await notmuch('search', '--output=tags', 'id:lieer-new-1@elsewhere.test')).toMatch(/inbox[\s\S]*unread/)
    expect((await notmuch('search', '--output=tags', `id:${starred}`)).split('\n')).toContain('flagged')
  }, 150_000)

  test('gmi send puts a reply in the thread of the message it answers', async () => {
    const me = server.tokens[0]!.email
    const reply =
      `From: ${me}\nTo: carol@elsewhere.test\nSubject: Re: Budget question\n` +
      'In-Reply-To: <lieer-new-1@elsewhere.test>\nReferences: <lieer-new-1@elsewhere.test>\n\nConfirmed.\n'
    const { stdout } = await gmi(['send', '-t'], reply)
    const sentId = /message sent successfully: (\S+)/.exec(stdout)?.[1]
    expect(sentId).toBeDefined()
    const original = await idOf('lieer-new-1@elsewhere.test')
    const thread = (await gmail().users.threads.get({ userId: 'me', id: original, format: 'minimal' })).data
    expect(thread.messages!.map((m) => m.id)).toEqual([original, sentId])
    expect(thread.messages![1]!.labelIds).toContain('SENT')
    expect(await notmuch('count', 'thread:{id:lieer-new-1@elsewhere.test}')).toBe('2')
  }, 150_000)
})
