import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { google } from 'googleapis'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'
import { readZip } from '../../envs/docs/render/zip.ts'
import { renderOdt } from '../../envs/docs/render/odt.ts'
import { renderEpub } from '../../envs/docs/render/epub.ts'
import { engine } from './engine.ts'

// Drive's export of a Google Doc to the zip formats (OpenDocument Text, EPUB, zipped HTML), through the official
// Node client, read back by the Python libraries readers use (Debian's python3-odf and python3-ebooklib,
// tests/docs/python/read_exports.py).
const PYTHON = process.env.WSGYM_PYTHON ?? '/usr/bin/python3'
const probe = spawnSync(PYTHON, ['-c', 'import odf.opendocument, ebooklib.epub'], { encoding: 'utf8' })
const missing = probe.status === 0 ? '' : 'python3-odf or python3-ebooklib is not installed'
const run = promisify(execFile)

const ODT = 'application/vnd.oasis.opendocument.text'
const EPUB = 'application/epub+zip'
const ZIP = 'application/zip'
const DOC = '1SualoSl_jgWOy1mgYBc_k5veqX3xeZ8w' // "Q4 Product Roadmap" of the demo seed

let server: SdkServer
let dir: string
const drive = () => google.drive({ version: 'v3', auth: server.auth(), rootUrl: server.url })
const docs = () => google.docs({ version: 'v1', auth: server.auth(), rootUrl: server.url })

async function exported(mimeType: string, fileId = DOC): Promise<{ bytes: Buffer; type: string }> {
  const res = await drive().files.export({ fileId, mimeType }, { responseType: 'arraybuffer' })
  // gaxios hands a fetch Headers object (of its own fetch) or, in older versions, a plain object.
  const headers = res.headers as unknown as { get?: (name: string) => string | null } & Record<string, string>
  const type = typeof headers.get === 'function' ? headers.get('content-type') : headers['content-type']
  return { bytes: Buffer.from(res.data as ArrayBuffer), type: String(type) }
}

async function read(kind: 'odt' | 'epub', bytes: Buffer): Promise<any> {
  const file = join(dir, `doc.${kind}`)
  writeFileSync(file, bytes)
  const script = join(import.meta.dirname, 'python', 'read_exports.py')
  return JSON.parse((await run(PYTHON, [script, kind, file], { encoding: 'utf8', timeout: 60_000 })).stdout)
}

/** A document with what each format must carry: a heading, styles, a link, lists, a merged table, a footnote. */
async function writeSample(): Promise<string> {
  const created = await docs().documents.create({ requestBody: { title: 'Board <pack> & notes' } })
  const id = created.data.documentId!
  const text = 'Agenda\nBudget  up 4% see site\nFirst\nSecond\n'
  const at = (part: string) => ({ startIndex: 1 + text.indexOf(part), endIndex: 1 + text.indexOf(part) + part.length })
  await docs().documents.batchUpdate({
    documentId: id,
    requestBody: {
      requests: [
        { insertText: { location: { index: 1 }, text } },
        {
          updateParagraphStyle: {
            range: at('Agenda'),
            paragraphStyle: { namedStyleType: 'HEADING_1' },
            fields: 'namedStyleType',
          },
        },
        { updateTextStyle: { range: at('Budget'), textStyle: { bold: true }, fields: 'bold' } },
        {
          updateTextStyle: {
            range: at('site'),
            textStyle: { link: { url: 'https://example.com/?a=1&b=2' } },
            fields: 'link',
          },
        },
        { createParagraphBullets: { range: at('First\nSecond'), bulletPreset: 'NUMBERED_DECIMAL_ALPHA_ROMAN' } },
        { insertTable: { rows: 2, columns: 2, endOfSegmentLocation: {} } },
      ],
    },
  })
  const body = (await docs().documents.get({ documentId: id })).data.body!.content!
  const table = body.find((b) => b.table)!
  const cell = (r: number, c: number) => table.table!.tableRows![r]!.tableCells![c]!.content![0]!.startIndex!
  await docs().documents.batchUpdate({
    documentId: id,
    requestBody: {
      requests: [
        { insertText: { location: { index: cell(1, 1) }, text: 'Q' } },
        { insertText: { location: { index: cell(1, 0) }, text: 'Widget' } },
        { insertText: { location: { index: cell(0, 1) }, text: 'Qty' } },
        { insertText: { location: { index: cell(0, 0) }, text: 'Name' } },
        {
          mergeTableCells: {
            tableRange: {
              tableCellLocation: { tableStartLocation: { index: table.startIndex! }, rowIndex: 0, columnIndex: 0 },
              rowSpan: 1,
              columnSpan: 2,
            },
          },
        },
        { createFootnote: { location: { index: at('Agenda').endIndex } } },
      ],
    },
  })
  return id
}

beforeAll(async () => {
  server = await startSdkServer('demo')
  dir = mkdtempSync(join(tmpdir(), 'wsgym-export-'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('drive.files.export of a Google Doc to every format Drive lists', () => {
  test('about.exportFormats lists Drive\u2019s ten formats, and each exports with its own content type', async () => {
    const about = await drive().about.get({ fields: 'exportFormats' })
    const formats = about.data.exportFormats!['application/vnd.google-apps.document']!
    expect(formats).toHaveLength(10)
    expect(formats).toEqual(expect.arrayContaining([ODT, EPUB, ZIP, 'text/x-markdown']))
    for (const mimeType of formats) {
      const { bytes, type } = await exported(mimeType)
      expect(bytes.length, mimeType).toBeGreaterThan(0)
      expect(type.split(';')[0], mimeType).toBe(mimeType)
    }
  })

  test('a Doc lists its exportLinks as Drive does, and following one (at this origin) gives the export', async () => {
    const file = await drive().files.get({ fileId: DOC, fields: 'id,exportLinks' })
    const links = file.data.exportLinks!
    expect(Object.keys(links)).toHaveLength(10)
    expect(links[ODT]).toBe(`https://docs.google.com/feeds/download/documents/export/Export?id=${DOC}&exportFormat=odt`)
    const token = (await server.auth().getAccessToken()).token!
    for (const mimeType of [ODT, 'text/plain']) {
      const url = new URL(links[mimeType]!)
      const res = await fetch(new URL(url.pathname + url.search, server.url), {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(res.status, mimeType).toBe(200)
      expect(res.headers.get('content-type')?.split(';')[0]).toBe(mimeType)
      if (mimeType === 'text/plain')
        expect(Buffer.from(await res.arrayBuffer()).equals((await exported(mimeType)).bytes)).toBe(true)
    }
    const anonymous = await fetch(
      new URL(`feeds/download/documents/export/Export?id=${DOC}&exportFormat=txt`, server.url),
    )
    expect(anonymous.status).toBe(401)
    const other = await drive().files.list({
      q: "mimeType != 'application/vnd.google-apps.document'",
      fields: 'files(id,exportLinks)',
    })
    expect(other.data.files!.length).toBeGreaterThan(0)
    for (const f of other.data.files!) expect(f.exportLinks, f.id!).toBeUndefined()
  })

  test('zipped HTML holds one page named after the title, the same page as the text/html export', async () => {
    const zip = readZip((await exported(ZIP)).bytes)
    expect(zip.map((e) => e.name)).toEqual(['Q4ProductRoadmap.html'])
    expect(zip[0]!.data.toString('utf8')).toBe((await exported('text/html')).bytes.toString('utf8'))
  })

  test('the zips start with a stored mimetype entry, as ODF and EPUB readers require', async () => {
    for (const [format, type] of [
      [ODT, ODT],
      [EPUB, EPUB],
    ]) {
      const bytes = (await exported(format!)).bytes
      expect(bytes.readUInt16LE(8), `${format}: method`).toBe(0)
      expect(bytes.toString('latin1', 30, 38)).toBe('mimetype')
      expect(bytes.toString('latin1', 38, 38 + type!.length)).toBe(type)
    }
  })
})

describe.skipIf(missing !== '')(
  `zip exports read back by Python readers${missing ? ` — skipped: ${missing}` : ''}`,
  () => {
    test('odfpy reads the .odt: heading, text, list items, merged table, footnote, link, title', async () => {
      const id = await writeSample()
      const odt = await read('odt', (await exported(ODT, id)).bytes)
      expect(odt.mimetype).toBe(ODT)
      expect(odt.title).toBe('Board <pack> & notes')
      // The heading holds the footnote: its citation "1" and its (new, blank) body.
      expect(odt.headings).toEqual([['1', expect.stringMatching(/^Agenda1\s*$/)]])
      expect(odt.notes).toHaveLength(1)
      // Both spaces are kept (ODF collapses a run of spaces unless counted).
      expect(odt.paragraphs).toContain('Budget  up 4% see site')
      expect(odt.paragraphs).toEqual(expect.arrayContaining(['First', 'Second']))
      expect(odt.listItems).toBe(2)
      expect(odt.cells).toEqual(['NameQty', 'Widget', 'Q'])
      expect(odt.covered).toBe(1)
      expect(odt.links).toEqual(['https://example.com/?a=1&b=2'])
    })

    test('ebooklib reads the .epub: title, the file as identifier, one well-formed chapter with the text', async () => {
      const id = await writeSample()
      const epub = await read('epub', (await exported(EPUB, id)).bytes)
      expect(epub.title).toBe('Board <pack> & notes')
      expect(epub.identifier).toBe(`urn:workspace-gym:file:${id}`)
      const chapter = epub.chapters.find((c: [string, string]) => c[0] === 'tab1.xhtml')
      expect(chapter[1].replace(/\s+/g, ' ')).toMatch(
        /Agenda.*Budget up 4% see site.*First.*Second.*Name.*Qty.*Widget.*Q/,
      )
    })

    test('the same requests give the same bytes (the world clock dates the package)', async () => {
      const [a, b] = [await startSdkServer('demo'), await startSdkServer('demo')]
      try {
        for (const format of [ODT, EPUB, ZIP]) {
          const [x, y] = await Promise.all(
            [a, b].map((s) =>
              google
                .drive({ version: 'v3', auth: s.auth(), rootUrl: s.url })
                .files.export({ fileId: DOC, mimeType: format }, { responseType: 'arraybuffer' }),
            ),
          )
          expect(Buffer.from(x!.data as ArrayBuffer).equals(Buffer.from(y!.data as ArrayBuffer)), format).toBe(true)
        }
      } finally {
        await Promise.all([a.close(), b.close()])
      }
    })
  },
)

describe.skipIf(missing !== '')(`hostile text in zip exports${missing ? ` — skipped: ${missing}` : ''}`, () => {
  test('characters XML cannot hold (C0 controls, lone surrogates) are dropped, the rest kept', async () => {
    const e = engine(['a\u0001b \ud800c\udc00d <&> "q"'])
    const odt = await read('odt', renderOdt(e.ctx.doc, 'T\u0002', Date.UTC(2026, 2, 1)))
    expect(odt.paragraphs).toEqual(['ab cd <&> "q"'])
    expect(odt.title).toBe('T')
    const epub = await read('epub', renderEpub(e.ctx.doc, 'T\u0002', 'f', Date.UTC(2026, 2, 1)))
    expect(epub.chapters.find((c: [string, string]) => c[0] === 'tab1.xhtml')[1].trim()).toBe('ab cd <&> "q"')
  })
})
