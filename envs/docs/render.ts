import type { Db } from '../core/db.ts'
import { nowMs } from '../core/clock.ts'
import { docTitle } from '../drive/docs-bridge.ts'
import { deleteDocumentRow, loadDocument, saveDocument } from './store/documents.ts'
import { newDocument } from './model/new.ts'
import type { DocModel } from './model/types.ts'
import { baseView } from './model/suggest.ts'
import { plainText } from './render/text.ts'
import { renderHtml } from './render/html.ts'
import { renderMarkdown } from './render/markdown.ts'
import { renderRtf } from './render/rtf.ts'
import { renderOdt } from './render/odt.ts'
import { renderEpub, renderHtmlZip } from './render/epub.ts'
import { buildDocument, type SeedBlock } from './build.ts'
import { MAX_BATCH_WORK } from './requests/apply.ts'
import { WorkExhausted } from './model/work.ts'
import { badRequest } from '../core/errors/google.ts'
import type { SeedSuggestion } from './seed-suggestions.ts'

export { blocksFromUpload, IMPORTABLE } from './convert.ts'
export { SeedSuggestion } from './seed-suggestions.ts'
export type { SeedBlock as ImportedBlock } from './build.ts'

// The Drive ↔ Docs bridge, Docs side: Drive's files.export renders documents through here, and
// Drive's files.create/copy make document content through initEmptyDocument/copyDocumentContent, and
// uploads converted to a Google Doc through blocksFromUpload/importDocument.

export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
export const ODT = 'application/vnd.oasis.opendocument.text'
/** Every format Drive exports a Google Doc to (its `exportLinks`); `text/x-markdown` is `text/markdown`'s alias. */
export const EXPORT_FORMATS = [
  'text/plain',
  'text/html',
  'text/markdown',
  'text/x-markdown',
  'application/rtf',
  DOCX,
  'application/pdf',
  ODT,
  'application/epub+zip',
  'application/zip',
] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
/**
 * A Doc's `exportLinks` (the File field), in the order Drive lists them, with each link's `exportFormat`: the
 * agent port serves these URLs too (`/feeds/download/documents/export/Export`), for clients that follow them.
 */
export const EXPORT_LINK_FORMATS: readonly (readonly [ExportFormat, string])[] = [
  ['application/rtf', 'rtf'],
  [ODT, 'odt'],
  ['text/html', 'html'],
  ['application/pdf', 'pdf'],
  ['text/x-markdown', 'markdown'],
  ['text/markdown', 'markdown'],
  ['application/epub+zip', 'epub'],
  ['application/zip', 'zip'],
  [DOCX, 'docx'],
  ['text/plain', 'txt'],
]
/** Formats renderDocument (sync) produces; docx and pdf need renderDocumentAsync. */
export const SYNC_FORMATS: readonly ExportFormat[] = [
  'text/plain',
  'text/html',
  'text/markdown',
  'text/x-markdown',
  'application/rtf',
  ODT,
  'application/epub+zip',
  'application/zip',
]

/** Renders `model`, which callers pass as baseView(stored): exports show no pending suggestions (decision 0280). */
function syncRender(model: DocModel, title: string, format: ExportFormat, db: Db, fileId: string): Buffer | undefined {
  switch (format) {
    // Drive's text/plain export starts with a BOM and uses CRLF line ends.
    case 'text/plain':
      return Buffer.from(`\ufeff${plainText(model).replace(/\n/g, '\r\n')}`, 'utf8')
    case 'text/html':
      return Buffer.from(renderHtml(model, title), 'utf8')
    case 'text/markdown':
    case 'text/x-markdown':
      return Buffer.from(renderMarkdown(model), 'utf8')
    case 'application/rtf':
      return Buffer.from(renderRtf(model), 'latin1')
    // The zip formats are dated by the world's clock, as the Word export is.
    case ODT:
      return renderOdt(model, title, nowMs(db))
    case 'application/epub+zip':
      return renderEpub(model, title, fileId, nowMs(db))
    case 'application/zip':
      return renderHtmlZip(model, title, nowMs(db))
    default:
      return undefined
  }
}

/**
 * Renders a Google Doc (a file without a content row reads as empty) in a text format, synchronously.
 * Throws for docx/pdf, whose libraries are asynchronous: use renderDocumentAsync for those.
 */
export function renderDocument(db: Db, fileId: string, format: ExportFormat): Buffer {
  const out = syncRender(baseView(loadDocument(db, fileId).model), docTitle(db, fileId) ?? '', format, db, fileId)
  if (!out) throw new Error(`renderDocument: ${format} is asynchronous; use renderDocumentAsync`)
  return out
}

/**
 * Renders in any export format. Reads the world synchronously before the first await, so it is
 * safe to call from a handler (do not call it inside world.tx).
 */
export function renderDocumentAsync(db: Db, fileId: string, format: ExportFormat): Promise<Buffer> {
  const model = baseView(loadDocument(db, fileId).model)
  const title = docTitle(db, fileId) ?? ''
  const sync = syncRender(model, title, format, db, fileId)
  if (sync) return Promise.resolve(sync)
  // docx and pdfkit (with its fonts) are loaded on the first export, not at server start.
  const createdMs = nowMs(db)
  if (format === DOCX) return import('./render/docx.ts').then((m) => m.renderDocx(model, title, createdMs))
  return import('./render/pdf.ts').then((m) => m.renderPdf(model, title, createdMs))
}

/** Stores an empty document for a new Google Doc file (Drive's files.create). */
export function initEmptyDocument(db: Db, fileId: string, title: string): void {
  void title
  saveDocument(db, fileId, newDocument(), 0)
}

/**
 * Stores a new Google Doc's content converted from an upload (blocks from blocksFromUpload) or seeded as Drive
 * text, with seeded suggestions (authors resolved to emails); returns its text without pending suggestions.
 */
export function importDocument(
  db: Db,
  fileId: string,
  blocks: readonly SeedBlock[],
  suggestions: (SeedSuggestion & { author: string })[] = [],
): string {
  const model = buildDocument(db, fileId, blocks, { suggestions }, new Date(nowMs(db)).toISOString())
  saveDocument(db, fileId, model, 0)
  return plainText(baseView(model))
}

/**
 * `importDocument` of an upload converted to a Google Doc (an agent's bytes): building its blocks may take the work
 * of one batchUpdate (MAX_BATCH_WORK, about 35,000 short paragraphs); past that, 400 and nothing is stored.
 * Deviation (unverified wording): Drive imports up to the 1.02 million-character cap; its error past a limit is not
 * recorded (docs/decisions/0401).
 */
export function importUpload(db: Db, fileId: string, blocks: readonly SeedBlock[]): string {
  let model: DocModel
  try {
    model = buildDocument(db, fileId, blocks, { budget: MAX_BATCH_WORK }, new Date(nowMs(db)).toISOString())
  } catch (e) {
    if (e instanceof WorkExhausted) throw badRequest(IMPORT_TOO_LARGE, 'badContent')
    throw e
  }
  saveDocument(db, fileId, model, 0)
  return plainText(baseView(model))
}

/** Drive's answer to an upload whose import would take more than one batchUpdate's work. */
export const IMPORT_TOO_LARGE =
  'The uploaded content has too many paragraphs to be converted to a Google Docs document.'

/** Copies document content to a new file (Drive's files.copy of a Google Doc). */
export function copyDocumentContent(db: Db, fromFileId: string, toFileId: string): void {
  saveDocument(db, toFileId, loadDocument(db, fromFileId).model, 0)
}

/** Plain text of a document, for Drive's full-text index. */
export function documentPlainText(db: Db, fileId: string): string {
  return plainText(baseView(loadDocument(db, fileId).model))
}

/** Drops a document's content when Drive deletes its file for good (files.delete / emptyTrash). */
export function forgetDocument(db: Db, fileId: string): void {
  deleteDocumentRow(db, fileId)
}
