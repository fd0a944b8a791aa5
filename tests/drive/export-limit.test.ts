import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { EXPORT_LIMIT_BYTES } from '../../envs/drive/routes/files.ts'

// files.export returns at most 10 MB ("the exported content is limited to 10MB"): past it Drive answers 403
// exportSizeLimitExceeded, while the Doc's exportLinks download (no such cap) still gives the bytes.
const DOC = '1SualoSl_jgWOy1mgYBc_k5veqX3xeZ8w' // "Q4 Product Roadmap" of the demo seed

describe('drive.files.export size limit', () => {
  test('an export over the limit is 403 exportSizeLimitExceeded; the export link still downloads it', async () => {
    const h = harness('demo')
    expect((await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/plain`)).status).toBe(200)
    const chunk = 'lorem ipsum '.repeat(500_000) // 6,000,000 characters: two stay under the 8 MiB request limit
    for (let i = 0; i < 2; i++) {
      const res = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
        json: { requests: [{ insertText: { text: chunk, location: { index: 1 } } }] },
      })
      expect(res.status, res.text.slice(0, 200)).toBe(200)
    }
    const refused = await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/plain`)
    expect(refused.status).toBe(403)
    expect(refused.body.error.errors[0]).toMatchObject({
      reason: 'exportSizeLimitExceeded',
      message: 'This file is too large to be exported.',
    })
    const linked = await h.call('GET', `/feeds/download/documents/export/Export?id=${DOC}&exportFormat=txt`)
    expect(linked.status).toBe(200)
    expect(Buffer.byteLength(linked.text)).toBeGreaterThan(EXPORT_LIMIT_BYTES)
  }, 120_000)
})
