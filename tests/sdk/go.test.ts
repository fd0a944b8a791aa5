import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { startSdkServer, type SdkServer } from './server.ts'

// google-api-go-client (Debian `golang-google-api-dev`, built offline in GOPATH mode from /usr/share/gocode, no
// module proxy) over a real socket. The binary is cached under node_modules/.cache keyed by source + Go version.
const GOPATH = process.env.WSGYM_GOPATH ?? '/usr/share/gocode'
const goVersion = spawnSync('go', ['version'], { encoding: 'utf8' })
const missing =
  goVersion.status !== 0
    ? 'no go toolchain (apt-get install golang-go)'
    : !existsSync(join(GOPATH, 'src/google.golang.org/api/drive/v3'))
      ? `no google-api-go-client under ${GOPATH} (apt-get install golang-google-api-dev)`
      : ''
const SRC = join(import.meta.dirname, 'go', 'googleclients')
const run = promisify(execFile)

/** Builds the client program once per source hash (a cold build takes ~30 s on 2 cores; a cached one 0 s). */
async function binary(): Promise<string> {
  const key = createHash('sha256')
    .update(readFileSync(join(SRC, 'main.go')))
    .update(goVersion.stdout)
    .update(GOPATH)
    .digest('hex')
    .slice(0, 16)
  const cache = resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'wsgym-go')
  const bin = join(cache, key, 'googleclients')
  if (existsSync(bin)) return bin
  mkdirSync(join(cache, key), { recursive: true })
  const env = {
    ...process.env,
    GO111MODULE: 'off',
    GOFLAGS: '',
    GOPATH,
    GOCACHE: join(cache, 'gocache'),
    GOPROXY: 'off',
  }
  await run('go', ['build', '-o', `${bin}.tmp`, '.'], { cwd: SRC, env, timeout: 240_000 })
  await run('mv', [`${bin}.tmp`, bin])
  return bin
}

describe.skipIf(missing !== '')(`google-api-go-client${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let server: SdkServer
  let out: Record<string, any>

  beforeAll(async () => {
    const bin = await binary()
    server = await startSdkServer('demo')
    const [me, peer] = server.tokens
    // Async: the server runs in this process, so a blocking child call would starve it.
    const { stdout } = await run(bin, ['-url', server.url, '-token', me!.googleToken!, '-peer', peer!.email], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 16 << 20,
    })
    out = JSON.parse(stdout)
  }, 400_000)
  afterAll(async () => server?.close())

  const ok = (name: string) => {
    expect(out[name]?.error).toBeUndefined()
    return out[name]
  }

  it('uploads multipart and chunked resumable (POST chunks, X-GUploader-No-308) and downloads alt=media', () => {
    const r = ok('driveUploads')
    expect(r.multipart).toEqual({ size: 1000, md5ok: true })
    expect(r.resumable).toEqual({ size: 600 * 1024, md5ok: true })
    expect(r.download.same).toBe(true)
    expect(r.update).toEqual({ size: 300 * 1024 - 1, md5ok: true })
  })

  it('pages files.list, reads root, and gets Drive errors as *googleapi.Error', () => {
    const r = ok('drivePagingErrors')
    expect(r).toMatchObject({ pages: 4, listed: 8, rootName: 'My Drive' })
    expect(r.missing).toMatchObject({ code: 404, reason: 'notFound' })
    expect(r.aboutWithoutFields).toMatchObject({ code: 400, reason: 'required' })
  })

  it('pages Gmail, sends through a resumable upload, syncs it from history and decodes padded raw', () => {
    const r = ok('gmail')
    expect(r).toMatchObject({ pages: 3, listed: 9 })
    expect(r.labelIds).toContain('SENT')
    expect(r.added).toContain(r.sentId)
    expect(r.rawBytes).toBeGreaterThan(400_000)
    expect(r.missing.code).toBe(404)
  })

  it('pages Calendar events, syncs with nextSyncToken and gets 412 for a stale If-Match', () => {
    const r = ok('calendarSync')
    expect(r.items).toBeGreaterThan(5)
    expect(r.deltaIds).toEqual([r.madeId])
    expect(r.staleEtag).toMatchObject({ code: 412, reason: 'conditionNotMet' })
  })

  it('runs a hand-built batch request over the same client (the Go client has no batch API)', () => {
    const r = ok('rawBatch')
    expect(r.status).toBe(200)
    expect(r.contentIds).toEqual(['<response-go-batch+1>', '<response-go-batch+2>'])
    expect(r.statusLines).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 404 Not Found'])
  })
})
