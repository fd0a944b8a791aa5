import type { DocModel, TabModel } from '../model/types.ts'
import { blocksHtml, renderHtml } from './html.ts'
import { NOT_XML, tabsInOrder, xmlEscape as esc } from './xml.ts'
import { writeZip } from './zip.ts'

/**
 * An EPUB 3 book of a document, Drive's `application/epub+zip` export: one XHTML chapter per tab (a document with
 * one tab is one chapter), a navigation document listing them, and the package document naming the file as its
 * identifier and the world's clock as its modification time.
 */
export function renderEpub(doc: DocModel, title: string, fileId: string, atMs: number): Buffer {
  const tabs = tabsInOrder(doc.tabs)
  const chapters = tabs.map((tab, i) => ({
    href: `tab${i + 1}.xhtml`,
    title: tabs.length > 1 ? tab.props.title || `Tab ${i + 1}` : title || 'Untitled document',
    xhtml: chapter(tab, title),
  }))
  const modified = new Date(atMs).toISOString().replace(/\.\d+Z$/, 'Z')
  return writeZip(
    [
      { name: 'mimetype', data: Buffer.from('application/epub+zip'), stored: true },
      { name: 'META-INF/container.xml', data: Buffer.from(CONTAINER) },
      { name: 'OEBPS/content.opf', data: Buffer.from(opf(title, fileId, modified, chapters)) },
      { name: 'OEBPS/nav.xhtml', data: Buffer.from(nav(title, chapters)) },
      ...chapters.map((c) => ({ name: `OEBPS/${c.href}`, data: Buffer.from(c.xhtml) })),
    ],
    atMs,
  )
}

/** The HTML and ZIP exports' page, zipped: Drive's `application/zip` export (the title, spaces dropped, `.html`). */
export function renderHtmlZip(doc: DocModel, title: string, atMs: number): Buffer {
  const name = title.replace(/[\s/\\:*?"<>|\u0000-\u001f]/g, '') || 'Untitleddocument'
  return writeZip([{ name: `${namePrefix(name, 250)}.html`, data: Buffer.from(renderHtml(doc, title), 'utf8') }], atMs)
}

/**
 * The longest start of `name` within `bytes` bytes of UTF-8, never cutting a surrogate pair. A zip entry name
 * holds at most 65,535 bytes and a file system's 255; a title of 70,000 characters made the export a 500.
 * Deviation: Drive's own cut of a long title is not known; names of up to 250 bytes are kept whole.
 */
function namePrefix(name: string, bytes: number): string {
  if (Buffer.byteLength(name, 'utf8') <= bytes) return name
  let used = 0
  let end = 0
  for (const ch of name) {
    used += Buffer.byteLength(ch, 'utf8')
    if (used > bytes) break
    end += ch.length
  }
  return name.slice(0, end)
}

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n'
const XHTML = 'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"'
const CONTAINER =
  `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>` +
  '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'

type Chapter = { href: string; title: string; xhtml: string }

const opf = (title: string, fileId: string, modified: string, chapters: Chapter[]) =>
  `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">` +
  '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">' +
  `<dc:identifier id="uid">urn:workspace-gym:file:${esc(fileId)}</dc:identifier>` +
  `<dc:title>${esc(title || 'Untitled document')}</dc:title><dc:language>en</dc:language>` +
  `<meta property="dcterms:modified">${modified}</meta></metadata><manifest>` +
  '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' +
  chapters.map((c, i) => `<item id="c${i + 1}" href="${c.href}" media-type="application/xhtml+xml"/>`).join('') +
  `</manifest><spine>${chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join('')}</spine></package>`

const nav = (title: string, chapters: Chapter[]) =>
  `${XML}<!DOCTYPE html>\n<html ${XHTML}><head><title>${esc(title)}</title></head><body>` +
  `<nav epub:type="toc" id="toc"><ol>` +
  chapters.map((c) => `<li><a href="${c.href}">${esc(c.title)}</a></li>`).join('') +
  '</ol></nav></body></html>'

/** A tab as an XHTML chapter: the HTML export's markup made well-formed XML, footnotes after the text. */
function chapter(tab: TabModel, title: string): string {
  let body = blocksHtml(tab.body, tab)
  const notes = Object.entries(tab.footnotes)
  if (notes.length)
    body += `<hr>${notes.map(([id, c]) => `<div id="ftnt-${esc(id)}">${blocksHtml(c, tab)}</div>`).join('')}`
  // Deviation: images are left out. EPUB allows no remote images, and the world holds no image bytes to pack.
  const xhtml = body
    .replace(/<img [^>]*>/g, '')
    .replace(/<(br|hr)([^>]*)>/g, '<$1$2/>')
    .replace(NOT_XML, '')
  return `${XML}<!DOCTYPE html>\n<html ${XHTML}><head><title>${esc(title)}</title></head><body>${xhtml}</body></html>`
}
