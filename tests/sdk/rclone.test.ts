import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { google, type drive_v3 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { clientSecret, listClients } from '../../envs/identity/store/oauth.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { startIntercept, type Intercept } from './tls-intercept.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

// rclone (Debian package rclone), a widely used sync tool built on google.golang.org/api/drive/v3, run unchanged.
// It has no endpoint option for Drive: it talks to www.googleapis.com, oauth2.googleapis.com and (Doc exports)
// docs.google.com, reached here through an HTTPS CONNECT proxy that ends TLS with a CA made for the test
// (tests/sdk/tls-intercept.ts; `HTTPS_PROXY` and `--ca-cert`, no root, no /etc/hosts).
const RCLONE = process.env.WSGYM_RCLONE ?? 'rclone'
const missing =
  spawnSync(RCLONE, ['version'], { encoding: 'utf8' }).status === 0
    ? ''
    : 'rclone is not installed (apt-get install rclone)'
const noSsl = spawnSync('openssl', ['version']).status === 0 ? '' : 'openssl is not installed'
const why = missing || noSsl
const run = promisify(execFile)
const DRIVE = 'https://www.googleapis.com/auth/drive'
const REDIRECT = 'http://127.0.0.1:53682/'
const HOSTS = ['www.googleapis.com', 'oauth2.googleapis.com', 'docs.google.com']
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex')
/** Deterministic bytes that do not compress (a SHA-256 chain). */
function bytes(n: number, seed: string): Buffer {
  const out = Buffer.alloc(n)
  let block = createHash('sha256').update(seed).digest()
  for (let at = 0; at < n; at += block.length) {
    block.copy(out, at)
    block = createHash('sha256').update(block).digest()
  }
  return out
}
const mkdir = tempDirs()

describe.skipIf(why !== '')(`rclone (Drive backend)${why ? ` — skipped: ${why}` : ''}`, () => {
  let server: SdkServer
  let proxy: Intercept
  let dir: string
  let conf: string
  let sharedDrive: string
  const drive = (user = 'alice'): drive_v3.Drive =>
    google.drive({ version: 'v3', auth: server.auth(user), rootUrl: server.url })
  const rclone = async (...args: string[]) =>
    (
      await run(RCLONE, ['--config', conf, '--ca-cert', proxy.caFile, '--retries', '1', ...args], {
        env: { ...process.env, HOME: dir, HTTPS_PROXY: proxy.proxyUrl, https_proxy: '', NO_PROXY: '', no_proxy: '' },
        encoding: 'utf8',
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      })
    ).stdout
  const seenSince = (mark: number) => proxy.seen.slice(mark)
  /** The one file named `name` in folder `parent` (My Drive or a shared drive), through the API. */
  const fileIn = async (parent: string, name: string, user = 'alice', driveId?: string) => {
    const res = await drive(user).files.list({
      ...(driveId ? { corpora: 'drive', driveId } : {}),
      q: `'${parent}' in parents and name = '${name.replace(/'/g, "\\'")}'`,
      fields: 'files(id,name,size,md5Checksum,trashed,mimeType,shortcutDetails)',
      supportsAllDrives: true,
      includeItemsFromAllDrives: true,
    })
    return res.data.files!
  }

  beforeAll(async () => {
    // The demo world, plus an installed app for rclone (its own OAuth client, as `rclone config` would use).
    const seed = {
      ...demoSeed(1),
      identity: { clients: [{ key: 'rclone', name: 'rclone', redirectUris: [REDIRECT], scopes: [DRIVE] }] },
    }
    server = await startSdkServer(seed)
    dir = mkdir('wsgym-rclone-')
    proxy = await startIntercept(dir, HOSTS, server.url)
    const clientId = listClients(server.entry.world.db)[0]!.clientId
    const secret = clientSecret(server.entry.keys, clientId)
    // Alice's consent and the code exchange, as `rclone config` runs them, give a refresh token.
    const alice = server.tokens.find((t) => t.id === 'alice')!.googleToken!
    const auth = new URL(`${server.url}o/oauth2/v2/auth`)
    const params = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: DRIVE }
    for (const [k, v] of Object.entries({ ...params, access_type: 'offline', prompt: 'consent' }))
      auth.searchParams.set(k, v)
    const form = new URLSearchParams(Object.fromEntries(auth.searchParams))
    form.set('decision', 'allow')
    const back = await fetch(auth, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { authorization: `Bearer ${alice}` },
    })
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!
    const tokens = (await (
      await fetch(`${server.url}token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: clientId,
          client_secret: secret,
        }),
      })
    ).json()) as { access_token: string; refresh_token: string }
    expect(tokens.refresh_token).toBeTruthy()
    sharedDrive = (await drive('carol').drives.list({})).data.drives!.find((d) => d.name === 'Product Launch')!.id!
    const carol = server.tokens.find((t) => t.id === 'carol')!.googleToken!
    conf = join(dir, 'rclone.conf')
    // Alice's token has expired: rclone refreshes it first, at oauth2.googleapis.com with the client's secret.
    const expired = { ...tokens, token_type: 'Bearer', expiry: '2001-01-01T00:00:00Z' }
    const fresh = { access_token: carol, token_type: 'Bearer', expiry: '2099-01-01T00:00:00Z' }
    writeFileSync(
      conf,
      `[alice]\ntype = drive\nclient_id = ${clientId}\nclient_secret = ${secret}\nscope = drive\n` +
        `token = ${JSON.stringify(expired)}\n\n` +
        // The same app with its token endpoint named (`token_url`): the refresh comes here directly, no proxy.
        `[direct]\ntype = drive\nclient_id = ${clientId}\nclient_secret = ${secret}\nscope = drive\n` +
        `token_url = ${server.url}token\nauth_url = ${server.url}o/oauth2/v2/auth\n` +
        `token = ${JSON.stringify(expired)}\n\n` +
        `[launch]\ntype = drive\nscope = drive\nteam_drive = ${sharedDrive}\ntoken = ${JSON.stringify(fresh)}\n`,
    )
  }, 60_000)
  afterAll(async () => {
    await proxy?.close()
    await server?.close()
  })

  test('refreshes the expired token, then lsjson lists My Drive as files.list does', async () => {
    const before = readFileSync(conf, 'utf8')
    const listed = JSON.parse(await rclone('lsjson', 'alice:')) as { Name: string; IsDir: boolean; Size: number }[]
    expect(proxy.seen.some((s) => s.startsWith('200 POST oauth2.googleapis.com /token'))).toBe(true)
    // rclone saves the new token in its config.
    expect(readFileSync(conf, 'utf8')).not.toBe(before)
    const api = await drive().files.list({
      q: "'root' in parents and trashed = false",
      fields: 'files(name,mimeType,size)',
    })
    // A Google Doc shows with the extension of the format it downloads as (docx by default).
    const expected = api.data.files!.map((f) =>
      f.mimeType === 'application/vnd.google-apps.document' ? `${f.name}.docx` : f.name,
    )
    expect(listed.map((f) => f.Name).sort()).toEqual(expected.sort())
    const sized = api.data.files!.find((f) => f.size)!
    expect(listed.find((f) => f.Name === sized.name)!.Size).toBe(Number(sized.size))
    expect(await rclone('about', 'alice:')).toMatch(/Total:/)
    const refreshes = () => proxy.seen.filter((x) => x.includes(' oauth2.googleapis.com /token')).length
    const viaProxy = refreshes()
    expect(await rclone('lsf', 'direct:')).toContain('Company handbook.txt')
    expect(refreshes()).toBe(viaProxy)
    const direct = /\[direct\][^[]*token = (\{.*\})/.exec(readFileSync(conf, 'utf8'))![1]!
    expect(Date.parse((JSON.parse(direct) as { expiry: string }).expiry)).toBeGreaterThan(Date.now())
  }, 60_000)

  test('copy up (small files and a chunked resumable upload), check, md5sum and copy down keep the bytes', async () => {
    const local = join(dir, 'up')
    mkdirSync(join(local, 'sub', 'deep'), { recursive: true })
    const big = bytes(3 * 1024 * 1024 + 17, 'big')
    writeFileSync(join(local, 'a.txt'), 'hello\n')
    writeFileSync(join(local, 'empty.txt'), '')
    writeFileSync(join(local, "it's a \\ name.txt"), 'odd name\n')
    writeFileSync(join(local, 'sub', 'b.txt'), 'second file\n')
    writeFileSync(join(local, 'sub', 'deep', 'big.bin'), big)
    const mark = proxy.seen.length
    await rclone('mkdir', 'alice:backup')
    const chunked = ['--drive-upload-cutoff', '1M', '--drive-chunk-size', '1M', '--drive-keep-revision-forever']
    await rclone('copy', local, 'alice:backup', ...chunked)
    // The big file went up in 1 MiB chunks of one session: 308 for each but the last.
    const chunks = seenSince(mark).filter((s) => / \/upload\/drive\/v3\/files\?.*upload_id=/.test(s))
    expect(chunks.filter((s) => s.startsWith('308 ')).length).toBe(3)
    await rclone('check', local, 'alice:backup')
    const sums = await rclone('md5sum', 'alice:backup')
    expect(sums).toContain(`${md5(big)}  sub/deep/big.bin`)
    expect(sums).toContain(`${md5(Buffer.from(''))}  empty.txt`)
    const [folder] = await fileIn('root', 'backup')
    const [deep] = await fileIn((await fileIn(folder!.id!, 'sub'))[0]!.id!, 'deep')
    expect((await fileIn(deep!.id!, 'big.bin'))[0]).toMatchObject({ size: String(big.length), md5Checksum: md5(big) })
    const bigId = (await fileIn(deep!.id!, 'big.bin'))[0]!.id!
    const revs = await drive().revisions.list({ fileId: bigId, fields: 'revisions(keepForever)' })
    expect(revs.data.revisions).toEqual([{ keepForever: true }])
    const down = join(dir, 'down')
    await rclone('copy', 'alice:backup', down)
    expect(readFileSync(join(down, 'sub', 'deep', 'big.bin')).equals(big)).toBe(true)
    expect(readFileSync(join(down, "it's a \\ name.txt"), 'utf8')).toBe('odd name\n')
  }, 60_000)

  test('sync trashes what the source lost; copyto, moveto are server-side; purge and cleanup empty the trash', async () => {
    const local = join(dir, 'up')
    const [folder] = await fileIn('root', 'backup')
    const [sub] = await fileIn(folder!.id!, 'sub')
    const [b] = await fileIn(sub!.id!, 'b.txt')
    writeFileSync(join(local, 'a.txt'), 'changed\n')
    rmSync(join(local, 'sub', 'b.txt'))
    await rclone('sync', local, 'alice:backup')
    expect((await drive().files.get({ fileId: b!.id!, fields: 'trashed' })).data.trashed).toBe(true)
    expect((await fileIn(folder!.id!, 'a.txt'))[0]!.md5Checksum).toBe(md5(Buffer.from('changed\n')))

    const mark = proxy.seen.length
    await rclone('copyto', 'alice:backup/a.txt', 'alice:backup/a copy.txt')
    await rclone('moveto', 'alice:backup/empty.txt', 'alice:archive/renamed.txt')
    const calls = seenSince(mark)
    expect(calls.some((s) => /^200 POST www\.googleapis\.com \/drive\/v3\/files\/[\w-]+\/copy\?/.test(s))).toBe(true)
    expect(calls.some((s) => /^200 PATCH .*addParents=.*removeParents=/.test(s))).toBe(true)
    expect(calls.some((s) => s.includes(' /upload/'))).toBe(false)
    expect((await fileIn(folder!.id!, 'a copy.txt'))[0]!.md5Checksum).toBe(md5(Buffer.from('changed\n')))
    const [archive] = await fileIn('root', 'archive')
    expect(await fileIn(archive!.id!, 'renamed.txt')).toHaveLength(1)

    await rclone('purge', 'alice:archive')
    expect((await drive().files.get({ fileId: archive!.id!, fields: 'trashed' })).data.trashed).toBe(true)
    await rclone('cleanup', 'alice:')
    const gone = await drive()
      .files.get({ fileId: b!.id! })
      .catch((e: { status: number }) => e)
    expect((gone as { status: number }).status).toBe(404)
    expect(await rclone('ls', 'alice:', '--drive-trashed-only')).toBe('')
  }, 60_000)

  test('link shares by link, a Doc exports as docx and pdf, a shortcut resolves to its target', async () => {
    expect((await rclone('link', 'alice:backup/a.txt')).trim()).toMatch(/^https:\/\/drive\.google\.com\/open\?id=/)
    const [folder] = await fileIn('root', 'backup')
    const [a] = await fileIn(folder!.id!, 'a.txt')
    const perms = await drive().permissions.list({ fileId: a!.id!, fields: 'permissions(type,role)' })
    expect(perms.data.permissions).toContainEqual({ type: 'anyone', role: 'reader' })

    const out = join(dir, 'export')
    for (const format of ['docx', 'pdf'])
      await rclone(
        'copy',
        'alice:',
        out,
        '--max-depth',
        '1',
        '--include',
        'Q4 Product Roadmap.*',
        '--drive-export-formats',
        format,
      )
    expect(readFileSync(join(out, 'Q4 Product Roadmap.docx')).subarray(0, 2).toString()).toBe('PK')
    expect(readFileSync(join(out, 'Q4 Product Roadmap.pdf')).subarray(0, 5).toString()).toBe('%PDF-')

    await rclone('backend', 'shortcut', 'alice:', 'backup/a.txt', 'backup/a link')
    const [link] = await fileIn(folder!.id!, 'a link')
    expect(link).toMatchObject({
      mimeType: 'application/vnd.google-apps.shortcut',
      shortcutDetails: { targetId: a!.id, targetMimeType: a!.mimeType },
    })
    expect(link!.size).toBeUndefined()
    expect(await rclone('cat', 'alice:backup/a link')).toBe('changed\n')
    const entries = JSON.parse(await rclone('lsjson', 'alice:backup')) as { Name: string; Size: number }[]
    expect(entries.find((e) => e.Name === 'a link')?.Size).toBe(8)
  }, 60_000)

  test('shared with me, and a shared drive as a content manager: copy, moveto, purge, cleanup', async () => {
    const shared = await drive().files.list({ q: 'sharedWithMe', fields: 'files(name,mimeType)' })
    const names = (await rclone('lsf', 'alice:', '--drive-shared-with-me')).split('\n').filter(Boolean)
    const folders = shared.data.files!.filter((f) => f.mimeType === 'application/vnd.google-apps.folder')
    expect(folders.length).toBeGreaterThan(0)
    for (const f of folders) expect(names).toContain(`${f.name}/`)

    expect(await rclone('backend', 'drives', 'alice:')).toContain(sharedDrive)
    await rclone('copy', join(dir, 'up'), 'launch:handoff')
    const [handoff] = await fileIn(sharedDrive, 'handoff', 'carol', sharedDrive)
    expect(handoff).toBeDefined()
    expect(await rclone('md5sum', 'launch:handoff')).toContain(md5(Buffer.from('changed\n')))
    await rclone('moveto', 'launch:handoff/a.txt', 'launch:Plans/a.txt')
    const [plans] = await fileIn(sharedDrive, 'Plans', 'carol', sharedDrive)
    expect(await fileIn(plans!.id!, 'a.txt', 'carol', sharedDrive)).toHaveLength(1)
    await rclone('purge', 'launch:handoff')
    await rclone('cleanup', 'launch:')
    const gone = await drive('carol')
      .files.get({ fileId: handoff!.id!, supportsAllDrives: true })
      .catch((e: { status: number }) => e)
    expect((gone as { status: number }).status).toBe(404)
    expect((await rclone('lsf', '-R', 'launch:')).split('\n')).toContain('Plans/a.txt')
  }, 60_000)
})
