import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { google, type drive_v3 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { advanceClock, nowMs, setTick } from '../../envs/core/clock.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { startIntercept, type Intercept } from './tls-intercept.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

// duplicity (Debian package duplicity, 0.8), backups over its `gdrive://` backend: google-api-python-client's
// Drive v3 with a service account's JSON key file (GOOGLE_SERVICE_JSON_FILE), run unchanged. It has no endpoint
// option: it reads discovery and calls Drive at www.googleapis.com and mints tokens at the key file's `token_uri`
// (oauth2.googleapis.com, the world named in its query), both reached through the TLS-intercepting proxy of
// tests/sdk/tls-intercept.ts (HTTPS_PROXY; httplib2 trusts the test CA through HTTPLIB2_CA_CERTS). The account is an
// organizer of a shared drive (`?driveID=`): a service account owns no files in My Drive.
const DUPLICITY = process.env.WSGYM_DUPLICITY ?? 'duplicity'
const PYTHON = '/usr/bin/python3'
const why =
  spawnSync(DUPLICITY, ['--version'], { encoding: 'utf8' }).status !== 0
    ? 'duplicity is not installed (apt-get install duplicity)'
    : spawnSync(PYTHON, ['-c', 'import googleapiclient, google.oauth2.service_account, google_auth_httplib2'])
          .status !== 0
      ? 'python3-googleapi / python3-google-auth-httplib2 are not installed'
      : spawnSync('openssl', ['version']).status !== 0
        ? 'openssl is not installed'
        : ''
const run = promisify(execFile)
const SA = 'backup-bot@northwind-admin.iam.gserviceaccount.com'
const HOSTS = ['www.googleapis.com', 'oauth2.googleapis.com']
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
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const mkdir = tempDirs()

describe.skipIf(why !== '')(`duplicity (gdrive backend, service account)${why ? ` — skipped: ${why}` : ''}`, () => {
  let server: SdkServer
  let proxy: Intercept
  let dir: string
  let src: string
  let sharedDrive: string
  let url: string
  const seed = () => {
    const base = demoSeed(1) as unknown as { identity: Record<string, unknown> }
    return {
      ...demoSeed(1),
      identity: {
        ...base.identity,
        serviceAccounts: [{ email: SA, displayName: 'Backup bot' }],
        iamBindings: [{ resource: 'projects/northwind-admin', role: 'roles/owner', members: ['alice'] }],
      },
    }
  }
  const aliceToken = (world: string) => server.worlds.credentials(world).find((t) => t.id === 'alice')!.googleToken!
  const authOf = (token: string) => {
    const auth = new google.auth.OAuth2()
    auth.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 })
    return auth
  }
  const drive = (world = 'sdk'): drive_v3.Drive =>
    google.drive({ version: 'v3', auth: authOf(aliceToken(world)), rootUrl: server.url })
  /** A key file of the account in `world`, as alice (project owner) downloads it with keys.create. */
  const keyFile = async (world: string, name: string) => {
    const iam = google.iam({ version: 'v1', rootUrl: server.url, auth: authOf(aliceToken(world)) })
    const res = await iam.projects.serviceAccounts.keys.create({
      name: `projects/-/serviceAccounts/${SA}`,
      requestBody: {},
    })
    const path = join(dir, name)
    writeFileSync(path, Buffer.from(res.data.privateKeyData!, 'base64'))
    return path
  }
  /**
   * google-auth stamps assertions with the wall clock and the token endpoint judges them by the world clock: each
   * world's clock is set to the wall clock before a run, and does not tick per request (a run sends hundreds).
   */
  const syncClocks = () => {
    for (const id of ['sdk', 'other']) {
      const db = server.worlds.find(id)?.world.db
      if (!db) continue
      setTick(db, 0)
      advanceClock(db, Math.max(0, Date.now() - nowMs(db)))
    }
  }
  const duplicity = async (keyPath: string, ...args: string[]) => {
    syncClocks()
    const env = {
      ...process.env,
      HOME: dir,
      HTTPS_PROXY: proxy.proxyUrl,
      https_proxy: proxy.proxyUrl,
      NO_PROXY: '',
      no_proxy: '',
      HTTPLIB2_CA_CERTS: proxy.caFile,
      SSL_CERT_FILE: proxy.caFile,
      REQUESTS_CA_BUNDLE: proxy.caFile,
      GOOGLE_SERVICE_JSON_FILE: keyPath,
    }
    const common = ['--no-encryption', '--archive-dir', join(dir, 'archive'), '--num-retries', '1']
    const out = await run(DUPLICITY, [...args, ...common], { env, encoding: 'utf8', timeout: 120_000 })
    return out.stdout
  }
  let key: string
  /** The files duplicity left in the backup folder, through the API (alice is an organizer of the drive too). */
  const remote = async () => {
    const [folder] = (
      await drive().files.list({
        corpora: 'drive',
        driveId: sharedDrive,
        includeItemsFromAllDrives: true,
        supportsAllDrives: true,
        q: `'${sharedDrive}' in parents and name = 'backups' and trashed = false`,
      })
    ).data.files!
    const res = await drive().files.list({
      corpora: 'drive',
      driveId: sharedDrive,
      includeItemsFromAllDrives: true,
      supportsAllDrives: true,
      q: `'${folder!.id}' in parents and trashed = false`,
      fields: 'files(name,size,owners,lastModifyingUser(emailAddress))',
      pageSize: 1000,
    })
    return res.data.files!
  }

  /** The time of the latest full backup (W3C form, as `--time` and remove-older-than take it), from its manifest. */
  const fullTime = async () => {
    const names = (await remote()).map((f) => f.name!).filter((n) => /^duplicity-full\.\w+\.manifest$/.test(n))
    const [, d, t] = /(\d{8})T(\d{6})Z/.exec(names.sort().at(-1)!)!
    return `${d!.slice(0, 4)}-${d!.slice(4, 6)}-${d!.slice(6)}T${t!.slice(0, 2)}:${t!.slice(2, 4)}:${t!.slice(4)}Z`
  }

  beforeAll(async () => {
    server = await startSdkServer(seed())
    syncClocks()
    dir = mkdir('wsgym-duplicity-')
    proxy = await startIntercept(dir, HOSTS, server.url)
    key = await keyFile('sdk', 'sa.json')
    sharedDrive = (await drive().drives.create({ requestId: 'dup-1', requestBody: { name: 'Backups' } })).data.id!
    await drive().permissions.create({
      fileId: sharedDrive,
      supportsAllDrives: true,
      requestBody: { type: 'user', role: 'organizer', emailAddress: SA },
    })
    url = `gdrive://${SA}/backups?driveID=${sharedDrive}`
    src = join(dir, 'src')
    mkdirSync(join(src, 'sub'), { recursive: true })
    writeFileSync(join(src, 'a.txt'), 'hello\n')
    writeFileSync(join(src, 'sub', 'b.bin'), bytes(200_000, 'b'))
  }, 60_000)
  afterAll(async () => {
    await proxy?.close()
    await server?.close()
  })

  test('a full backup mints a token at the key file token_uri and uploads its volumes to the shared drive', async () => {
    const json = JSON.parse(readFileSync(key, 'utf8')) as { token_uri: string }
    expect(json.token_uri).toBe('https://oauth2.googleapis.com/token?world=sdk')
    const out = await duplicity(key, 'full', src, url)
    expect(out).toMatch(/Errors 0/)
    expect(proxy.seen).toContain('200 POST oauth2.googleapis.com /token?world=sdk')
    const files = await remote()
    const names = files.map((f) => f.name!).sort()
    expect(names).toHaveLength(3)
    expect(names.join(' ')).toMatch(
      /^duplicity-full-signatures\.\d{8}T\d{6}Z\.sigtar\.gz duplicity-full\.\d{8}T\d{6}Z\.manifest duplicity-full\.\d{8}T\d{6}Z\.vol1\.difftar\.gz$/,
    )
    // A shared drive's items have no owners; the account shows as their last modifier.
    expect(files.every((f) => f.owners === undefined && f.lastModifyingUser?.emailAddress === SA)).toBe(true)
  }, 150_000)

  test('an incremental backup sends its large volume as a resumable upload; collection-status lists the chain', async () => {
    await sleep(1100)
    writeFileSync(join(src, 'a.txt'), 'hello again\n')
    writeFileSync(join(src, 'big.bin'), bytes(6 * 1024 * 1024, 'big'))
    const mark = proxy.seen.length
    expect(await duplicity(key, 'incremental', src, url)).toMatch(/Errors 0/)
    const calls = proxy.seen.slice(mark)
    expect(calls.some((s) => /^200 PUT www\.googleapis\.com \/upload\/drive\/v3\/files\?.*upload_id=/.test(s))).toBe(
      true,
    )
    const status = await duplicity(key, 'collection-status', url)
    expect(status).toMatch(/Number of contained backup sets: 2/)
    expect(status).toMatch(/^\s+Full\s+.*\s1$/m)
    expect(status).toMatch(/^\s+Incremental\s+.*\s1$/m)
    expect(status).toMatch(/No orphaned or incomplete backup sets found\./)
  }, 150_000)

  test('list-current-files, verify and restore read the backup back byte for byte', async () => {
    const listed = await duplicity(key, 'list-current-files', url)
    for (const name of ['a.txt', 'big.bin', 'sub', 'sub/b.bin']) expect(listed).toMatch(new RegExp(` ${name}$`, 'm'))
    expect(await duplicity(key, 'verify', url, src)).toMatch(/Verify complete: 5 files compared, 0 differences found\./)
    const out = join(dir, 'restored')
    await duplicity(key, 'restore', url, out)
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('hello again\n')
    expect(readFileSync(join(out, 'big.bin')).equals(bytes(6 * 1024 * 1024, 'big'))).toBe(true)
    expect(readFileSync(join(out, 'sub', 'b.bin')).equals(bytes(200_000, 'b'))).toBe(true)
    // The old version of a file, from the full backup (`--time` before the incremental).
    const older = join(dir, 'older')
    mkdirSync(older)
    await duplicity(key, 'restore', '--time', await fullTime(), '--file-to-restore', 'a.txt', url, join(older, 'a.txt'))
    expect(readFileSync(join(older, 'a.txt'), 'utf8')).toBe('hello\n')
  }, 200_000)

  test('remove-older-than --force deletes the old chain from Drive and keeps the new full backup', async () => {
    await sleep(1100)
    expect(await duplicity(key, 'full', src, url)).toMatch(/Errors 0/)
    const before = (await remote()).length
    expect(before).toBe(3 + 3 + 3)
    // The new full backup's time: the first chain (full and incremental) is older and goes. (With a later time,
    // duplicity 0.8 also deletes the remote copy of the newest signatures, which its matched chain does not cover:
    // its own logic, whatever the backend.)
    const mark = proxy.seen.length
    const out = await duplicity(key, 'remove-older-than', await fullTime(), '--force', url)
    expect(out).toMatch(/Deleting backup chain at time:/)
    expect(
      proxy.seen.slice(mark).filter((s) => /^204 DELETE www\.googleapis\.com \/drive\/v3\/files\//.test(s)),
    ).toHaveLength(6)
    const left = await remote()
    expect(left).toHaveLength(3)
    expect(left.every((f) => f.name!.startsWith('duplicity-full'))).toBe(true)
    const status = await duplicity(key, 'collection-status', url)
    expect(status).toMatch(/Number of contained backup sets: 1/)
    expect(await duplicity(key, 'verify', url, src)).toMatch(/0 differences found/)
  }, 200_000)

  test("another world's service account of the same seed sees none of this world's backup", async () => {
    // World `other`: the same seed, the same account and the same requests (so a shared drive with the same id).
    server.worlds.create({ id: 'other', seed: seed(), seedValue: 1 })
    syncClocks()
    const otherKey = await keyFile('other', 'other-sa.json')
    const fail = await duplicity(otherKey, 'collection-status', url).catch((e: { stderr: string }) => e)
    expect(typeof fail).toBe('object')
    expect((fail as { stderr: string }).stderr).toMatch(/HttpError 404 .*Shared drive not found/)
    // This world's key file names this world: used as is, it mints no token in `other` either.
    const json = JSON.parse(readFileSync(key, 'utf8')) as Record<string, string>
    writeFileSync(
      join(dir, 'moved.json'),
      JSON.stringify({ ...json, token_uri: json.token_uri!.replace('sdk', 'other') }),
    )
    const moved = await duplicity(join(dir, 'moved.json'), 'collection-status', url).catch((e: { stderr: string }) => e)
    expect((moved as { stderr: string }).stderr).toMatch(/invalid_grant: Invalid JWT Signature\./)
    // The same drive id in `other` (same requests there) holds nothing of this world's.
    const twin = (await drive('other').drives.create({ requestId: 'dup-1', requestBody: { name: 'Backups' } })).data
    expect(twin.id).toBe(sharedDrive)
    await drive('other').permissions.create({
      fileId: twin.id!,
      supportsAllDrives: true,
      requestBody: { type: 'user', role: 'organizer', emailAddress: SA },
    })
    const empty = await duplicity(otherKey, 'collection-status', url)
    expect(empty).toMatch(/No backup chains with active signatures found/)
    expect((await remote()).length).toBe(3)
  }, 200_000)
})
