import { describe, expect, test, vi } from 'vitest'
import PDFDocument from 'pdfkit'
import { harness } from '../../envs/core/testing/harness.ts'

// Drive's export of a Doc whose content batchUpdate accepted but a renderer could choke on: never a 500, and a
// bounded amount of work (asserted by what the PDF renderer measures, never by timing).

const DOC = '1SualoSl_jgWOy1mgYBc_k5veqX3xeZ8w' // "Q4 Product Roadmap" of the demo seed
const PDF = 'application/pdf'
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

async function styled(textStyle: object, fields: string) {
  const h = harness('demo')
  const res = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
    json: { requests: [{ updateTextStyle: { range: { startIndex: 1, endIndex: 5 }, textStyle, fields } }] },
  })
  expect(res.status).toBe(200)
  return h
}

describe('drive.files.export of a Google Doc', () => {
  test.each([
    ['a negative font size', { fontSize: { magnitude: -1, unit: 'PT' } }, 'fontSize'],
    ['a font size of 1e308', { fontSize: { magnitude: 1e308, unit: 'PT' } }, 'fontSize'],
    [
      'colour channels outside 0..1',
      { foregroundColor: { color: { rgbColor: { red: -1, blue: 7 } } } },
      'foregroundColor',
    ],
  ])('renders a run with %s as PDF and Word', async (_, textStyle, fields) => {
    const h = await styled(textStyle, fields)
    for (const mimeType of [PDF, DOCX]) {
      const res = await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=${encodeURIComponent(mimeType)}`)
      expect(res.status, `${mimeType}: ${res.text.slice(0, 200)}`).toBe(200)
      expect(res.headers.get('content-type')).toContain(mimeType)
    }
  })

  test('measures a 20,000-character word in a bounded number of characters, not once per line', async () => {
    const h = harness('demo')
    const word = 'x'.repeat(20_000)
    const ins = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
      json: { requests: [{ insertText: { text: word, location: { index: 1 } } }] },
    })
    expect(ins.status).toBe(200)
    let measured = 0
    const proto = PDFDocument.prototype as unknown as { widthOfString: (s: string, o?: object) => number }
    const real = proto.widthOfString
    const spy = vi.spyOn(proto, 'widthOfString').mockImplementation(function (this: unknown, s, o) {
      measured += s.length
      return real.call(this, s, o)
    })
    try {
      const res = await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=${encodeURIComponent(PDF)}`)
      expect(res.status).toBe(200)
      expect(res.text.startsWith('%PDF')).toBe(true)
    } finally {
      spy.mockRestore()
    }
    // Re-measuring the rest of the word after each of its ~220 lines costs millions of characters (~110 per one
    // of the word); in pieces of 1,000 it is a few per character.
    expect(measured).toBeGreaterThan(word.length)
    expect(measured).toBeLessThan(30 * word.length)
  })
})

// Same seed, same requests: the same bytes, whatever the machine's clock says (docx stamped it twice before).
describe('drive.files.export to Word is deterministic', () => {
  test('two worlds of one seed export byte-identical .docx after the same requests', async () => {
    const exportBytes = async (machineTime: number) => {
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(machineTime)
      try {
        const h = await styled({ bold: true }, 'bold')
        const path = `/drive/v3/files/${DOC}/export?mimeType=${encodeURIComponent(DOCX)}`
        const res = await h.app.request(path, { headers: { authorization: `Bearer ${h.google()}` } })
        expect(res.status).toBe(200)
        return Buffer.from(await res.arrayBuffer())
      } finally {
        vi.useRealTimers()
      }
    }
    const a = await exportBytes(Date.UTC(2029, 0, 1))
    const b = await exportBytes(Date.UTC(2033, 6, 9, 11, 12, 13))
    expect(a.subarray(0, 2).toString()).toBe('PK')
    expect(b.equals(a)).toBe(true)
  })
})
