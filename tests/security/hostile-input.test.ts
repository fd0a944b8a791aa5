import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Hostile input from an agent under training that the robustness sweeps did not send (docs/decisions/0387): each
// answers the API's own 4xx, never a 500.

const related = (meta: string, media = 'hello', boundary = 'bnd') =>
  `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${meta}\r\n` +
  `--${boundary}\r\nContent-Type: text/plain\r\n\r\n${media}\r\n--${boundary}--`

describe('drive.files.create uploads: metadata', () => {
  test('multipart and resumable metadata of the wrong types answer 400, not 500', async () => {
    const h = harness('demo')
    const headers = { 'content-type': 'multipart/related; boundary=bnd' }
    for (const meta of ['{"parents":[{"a":1}]}', '{"name":{"x":1}}', '{"name":"a","appProperties":[1]}']) {
      const multipart = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart', {
        body: related(meta),
        headers,
      })
      expect(multipart.status, `${meta}: ${multipart.text}`).toBe(400)
      expect(multipart.body.error.code).toBe(400)
      const resumable = await h.call('POST', '/upload/drive/v3/files?uploadType=resumable', {
        body: meta,
        headers: { 'content-type': 'application/json' },
      })
      expect(resumable.status, `${meta}: ${resumable.text}`).toBe(400)
    }
    // Good metadata still makes the file.
    const ok = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart', {
      body: related('{"name":"fine.txt"}'),
      headers,
    })
    expect(ok.body).toMatchObject({ kind: 'drive#file', name: 'fine.txt' })
  })
})
