import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gzipSync } from 'node:zlib'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'
import { LIMITS } from '../../server/app.ts'

// What Google's front ends accept from the official Java client (tests/sdk/java-drive.test.ts), over a socket and
// in process: gzip-encoded request bodies, POST + X-HTTP-Method-Override, and Drive's /download/ media paths.
describe('Google front-end request forms', () => {
  let server: SdkServer
  let auth: Record<string, string>
  beforeAll(async () => {
    server = await startSdkServer('demo')
    auth = { authorization: `Bearer ${server.tokens[0]!.googleToken!}` }
  })
  afterAll(async () => server?.close())
  const json = { 'content-type': 'application/json; charset=UTF-8' }

  it('decodes a Content-Encoding: gzip JSON body', async () => {
    const body = gzipSync(JSON.stringify({ name: 'zipped.txt', mimeType: 'text/plain' }))
    const res = await fetch(`${server.url}drive/v3/files?fields=name,mimeType`, {
      method: 'POST',
      headers: { ...auth, ...json, 'content-encoding': 'gzip' },
      body,
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ name: 'zipped.txt', mimeType: 'text/plain' })
  })

  it('decodes a gzip multipart upload and refuses a body that is not gzip', async () => {
    const boundary = 'xyz'
    const multipart = [
      `--${boundary}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ name: 'z.bin' })}\r\n`,
      `--${boundary}\r\ncontent-type: application/octet-stream\r\n\r\nhello gzip\r\n--${boundary}--\r\n`,
    ].join('')
    const res = await fetch(`${server.url}upload/drive/v3/files?uploadType=multipart&fields=name,size`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/related; boundary=${boundary}`, 'content-encoding': 'gzip' },
      body: gzipSync(multipart),
    })
    expect(await res.json()).toEqual({ name: 'z.bin', size: '10' })
    const bad = await fetch(`${server.url}drive/v3/files`, {
      method: 'POST',
      headers: { ...auth, ...json, 'content-encoding': 'gzip' },
      body: '{"name":"plain"}',
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason).toBe(
      'badRequest',
    )
    // A small body that inflates past the JSON limit is refused as an oversized one.
    const bomb = gzipSync(Buffer.alloc(LIMITS.jsonBytes + 1, 32))
    const big = await fetch(`${server.url}drive/v3/files`, {
      method: 'POST',
      headers: { ...auth, ...json, 'content-encoding': 'gzip' },
      body: bomb,
    })
    expect(bomb.length).toBeLessThan(LIMITS.jsonBytes)
    expect(big.status).toBe(413)
  })

  it('takes POST with X-HTTP-Method-Override: PATCH as a PATCH, over a socket and in process', async () => {
    const made = (await (
      await fetch(`${server.url}drive/v3/files`, {
        method: 'POST',
        headers: { ...auth, ...json },
        body: JSON.stringify({ name: 'before' }),
      })
    ).json()) as { id: string }
    const patch = (name: string) => ({
      method: 'POST',
      headers: { ...auth, ...json, 'x-http-method-override': 'PATCH' },
      body: JSON.stringify({ name }),
    })
    const res = await fetch(`${server.url}drive/v3/files/${made.id}?fields=name`, patch('after'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ name: 'after' })
    const app = (await import('../../server/app.ts')).createAgentApp(server.worlds)
    const local = await app.request(`/drive/v3/files/${made.id}?fields=name`, patch('again'))
    expect(await local.json()).toEqual({ name: 'again' })
  })

  it('serves Drive media under /download/drive/v3 (useMediaDownloadService)', async () => {
    const made = (await (
      await fetch(`${server.url}upload/drive/v3/files?uploadType=media`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: 'download me',
      })
    ).json()) as { id: string }
    const res = await fetch(`${server.url}download/drive/v3/files/${made.id}?alt=media`, { headers: auth })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('download me')
    const anon = await fetch(`${server.url}download/drive/v3/files/${made.id}?alt=media`)
    expect(anon.status).toBe(401)
  })
})
