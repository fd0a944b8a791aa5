import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startSdkServer, type SdkServer } from './server.ts'

// The official Java client for Drive v3 (Debian libgoogle-api-services-drive-java, rev20210919 1.32.1, with
// libgoogle-api-client-java and libgoogle-http-client-java) over a real socket: tests/sdk/java/DriveWorkflow.java,
// compiled with javac into a temp dir against the jars in /usr/share/java. The strictest official client: it
// gzips request bodies, sends PATCH as POST + X-HTTP-Method-Override, downloads media from /download/drive/v3,
// and parses int64 and DateTime fields into typed values.
const JARS = process.env.WSGYM_JAVA_JARS ?? '/usr/share/java'
const CLASSPATH = [
  'google-api-services-drive',
  'google-api-client',
  'google-http-client',
  'google-http-client-gson',
  'gson',
  'google-oauth-client',
  'guava',
  'opencensus-api',
  'opencensus-contrib-http-util',
  'grpc-context',
  'commons-logging',
  'commons-codec',
].map((jar) => join(JARS, `${jar}.jar`))
const absentJar = CLASSPATH.find((jar) => !existsSync(jar))
const missing =
  spawnSync('javac', ['-version'], { encoding: 'utf8' }).status !== 0
    ? 'no javac (apt-get install default-jdk-headless)'
    : absentJar
      ? `no ${absentJar} (apt-get install libgoogle-api-services-drive-java)`
      : ''
const run = promisify(execFile)

describe.skipIf(missing !== '')(`Java Drive client${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let server: SdkServer
  let dir: string
  let out: Record<string, any>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsgym-java-'))
    const cp = CLASSPATH.join(':')
    // -nowarn: the program reads sun.misc.Unsafe (see passVersionGate there).
    await run('javac', ['-nowarn', '-d', dir, '-cp', cp, join(import.meta.dirname, 'java', 'DriveWorkflow.java')], {
      timeout: 120_000,
    })
    server = await startSdkServer('demo')
    const [me, peer] = server.tokens
    // Async: the server runs in this process, so a blocking child call would starve it.
    const { stdout } = await run(
      'java',
      ['-cp', `${cp}:${dir}`, 'DriveWorkflow', server.url, me!.googleToken!, peer!.email],
      { encoding: 'utf8', timeout: 120_000, maxBuffer: 16 << 20 },
    )
    out = JSON.parse(stdout)
  }, 300_000)
  afterAll(async () => {
    await server?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const ok = (name: string) => {
    expect(out[name]?.error, out[name]?.trace).toBeUndefined()
    return out[name]
  }

  it('reads about (fields=*) with typed int64 quota fields', () => {
    const r = ok('about')
    expect(r).toMatchObject({ email: 'alice@northwind.test', exportFormats: true, folderColorPalette: true })
    expect(r.limit).toBeGreaterThan(0)
    expect(r.maxUploadSize).toBeGreaterThan(0)
  })

  it('creates metadata-only folders (gzip JSON bodies) with typed createdTime', () => {
    expect(ok('createMetadata')).toEqual({
      mimeType: 'application/vnd.google-apps.folder',
      createdTime: true,
      parents: true,
      kind: 'drive#file',
      bHasId: true,
    })
  })

  it('uploads multipart and resumable (chunked), updates by resumable, downloads via /download/', () => {
    expect(ok('uploadMultipart')).toEqual({ size: 1000, md5ok: true, inA: true })
    expect(ok('uploadResumable')).toEqual({
      size: 600 * 1024,
      md5ok: true,
      download: true,
      updatedSize: 300 * 1024 - 1,
      updatedMd5ok: true,
    })
  })

  it('gets fields=* and pages files.list with q, orderBy, pageToken and fields', () => {
    expect(ok('getAll')).toMatchObject({ name: 'java-multipart.bin', size: 1000, version: 1, ownedByMe: true })
    expect(ok('list')).toMatchObject({
      pages: 3,
      names: ['java-page-4', 'java-page-3', 'java-page-2', 'java-page-1', 'java-page-0'],
      kind: 'drive#fileList',
      incompleteSearch: false,
    })
  })

  it('renames and moves (PATCH sent as POST + X-HTTP-Method-Override), copies, exports a Doc', () => {
    expect(ok('update')).toMatchObject({ name: 'java-renamed.bin', folderB: true, starred: true })
    expect(ok('copy')).toEqual({ name: 'java-copy.bin', size: 1000, md5ok: true, contentSame: true })
    expect(ok('export')).toEqual({
      mimeType: 'application/vnd.google-apps.document',
      text: true,
      pdf: true,
      exportLinks: true,
    })
  })

  it('creates, lists, updates and deletes permissions', () => {
    expect(ok('permissions')).toEqual({
      created: 'reader',
      email: 'bob@northwind.test',
      kind: 'drive#permission',
      updated: 'writer',
      roles: ['anyone:reader', 'user:owner', 'user:writer'],
      afterDelete: 2,
      got: 'writer',
      anyoneKind: 'drive#permission',
    })
  })

  it('comments, replies (with a resolve action) and revisions', () => {
    expect(ok('comments')).toEqual({
      content: 'Java comment',
      author: true,
      created: true,
      reply: 'Java reply',
      action: 'resolve',
      listed: 1,
      resolved: true,
      replies: 2,
      updated: 'Java comment edited',
    })
    expect(ok('revisions')).toEqual({ count: 2, size: 300 * 1024 - 1, modifiedTime: true, kind: 'drive#revisionList' })
  })

  it('follows changes from a start page token and creates a shared drive by requestId', () => {
    expect(ok('changes')).toEqual({ kind: 'drive#startPageToken', sawCreate: true, newStart: true })
    expect(ok('drives')).toEqual({
      name: 'Java Team',
      kind: 'drive#drive',
      again: { code: 409, reason: 'duplicate', detailsCode: 409 },
      listed: true,
      createdTime: true,
      fileDriveId: true,
      filesInDrive: 1,
    })
  })

  it('gets errors as GoogleJsonResponseException with code and reason; trashes, deletes, empties trash', () => {
    expect(ok('errors')).toEqual({
      missing: { code: 404, reason: 'notFound', detailsCode: 404 },
      aboutNoFields: { code: 400, reason: 'required', detailsCode: 400 },
      ownerWithoutTransfer: { code: 403, reason: 'forbidden', detailsCode: 403 },
      badQuery: { code: 400, reason: 'invalid', detailsCode: 400 },
    })
    const notFound = { code: 404, reason: 'notFound', detailsCode: 404 }
    expect(ok('trash')).toEqual({ trashed: true, deleted: notFound, emptied: notFound })
  })
})
