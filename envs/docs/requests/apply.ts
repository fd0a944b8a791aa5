import { invalid, RequestError } from '../errors.ts'
import { docsSchemas } from '../api/schemas.gen.ts'
import { allTabs, segmentsOf } from '../model/segment.ts'
import { withBlockIndex } from '../model/block-index.ts'
import { charge, withWorkBudget, WorkExhausted } from '../model/work.ts'
import { contentLen, type Block, type DocModel } from '../model/types.ts'
import type { Ctx } from './common.ts'
import * as text from './text.ts'
import * as style from './style.ts'
import * as tables from './tables.ts'
import * as segs from './segments.ts'
import * as objects from './objects.ts'

type Handler = (ctx: Ctx, r: any) => Record<string, unknown>

/** Every request kind of the discovery Request schema → its handler. */
export const HANDLERS: Record<string, Handler> = {
  insertText: text.insertTextReq,
  deleteContentRange: text.deleteContentRangeReq,
  replaceAllText: text.replaceAllTextReq,
  insertPageBreak: text.insertPageBreakReq,
  insertSectionBreak: text.insertSectionBreakReq,
  insertPerson: text.insertPersonReq,
  insertRichLink: text.insertRichLinkReq,
  insertDate: text.insertDateReq,
  updateTextStyle: style.updateTextStyleReq,
  updateParagraphStyle: style.updateParagraphStyleReq,
  createParagraphBullets: style.createParagraphBulletsReq,
  deleteParagraphBullets: style.deleteParagraphBulletsReq,
  updateDocumentStyle: style.updateDocumentStyleReq,
  updateNamedStyle: style.updateNamedStyleReq,
  updateSectionStyle: style.updateSectionStyleReq,
  insertTable: tables.insertTableReq,
  insertTableRow: tables.insertTableRowReq,
  insertTableColumn: tables.insertTableColumnReq,
  deleteTableRow: tables.deleteTableRowReq,
  deleteTableColumn: tables.deleteTableColumnReq,
  mergeTableCells: tables.mergeTableCellsReq,
  unmergeTableCells: tables.unmergeTableCellsReq,
  updateTableCellStyle: tables.updateTableCellStyleReq,
  updateTableColumnProperties: tables.updateTableColumnPropertiesReq,
  updateTableRowStyle: tables.updateTableRowStyleReq,
  pinTableHeaderRows: tables.pinTableHeaderRowsReq,
  createHeader: segs.createHeaderReq,
  createFooter: segs.createFooterReq,
  deleteHeader: segs.deleteHeaderReq,
  deleteFooter: segs.deleteFooterReq,
  createFootnote: segs.createFootnoteReq,
  createNamedRange: segs.createNamedRangeReq,
  deleteNamedRange: segs.deleteNamedRangeReq,
  replaceNamedRangeContent: segs.replaceNamedRangeContentReq,
  insertInlineImage: objects.insertInlineImageReq,
  replaceImage: objects.replaceImageReq,
  deletePositionedObject: objects.deletePositionedObjectReq,
  addDocumentTab: objects.addDocumentTabReq,
  deleteTab: objects.deleteTabReq,
  updateDocumentTabProperties: objects.updateDocumentTabPropertiesReq,
}

type Issues = { issues: { path: PropertyKey[]; message: string }[] }
type RequestSchema = { safeParse(v: unknown): { success: boolean; error?: Issues } }
const schemaOf = (kind: string) => {
  const name = `${kind[0]!.toUpperCase()}${kind.slice(1)}Request`
  return (docsSchemas() as Record<string, unknown>)[name] as RequestSchema | undefined
}

/** Checks the shape of `requests` as Google's JSON decoder does: one known kind per request, well-typed fields. */
export function checkRequests(requests: unknown): { kind: string; body: Record<string, unknown> }[] {
  if (requests === undefined) return []
  if (!Array.isArray(requests))
    throw invalid(
      `Invalid value at 'requests' (type.googleapis.com/google.apps.docs.v1.Request), ${JSON.stringify(requests)}`,
    )
  return requests.map((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r))
      throw invalid(
        `Invalid value at 'requests[${i}]' (type.googleapis.com/google.apps.docs.v1.Request), ${JSON.stringify(r)}`,
      )
    const keys = Object.keys(r)
    for (const k of keys)
      if (!Object.hasOwn(HANDLERS, k))
        throw invalid(`Invalid JSON payload received. Unknown name "${k}" at 'requests[${i}]': Cannot find field.`)
    if (keys.length === 0) throw invalid(`Invalid requests[${i}]: Exactly one kind of request must be set.`)
    if (keys.length > 1)
      throw invalid(`Invalid JSON payload received. Oneof field 'request' is already set. Cannot set '${keys[1]}'`)
    const kind = keys[0]!
    const body = (r as Record<string, unknown>)[kind]
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw invalid(
        `Invalid value at 'requests[${i}].${kind}' (type.googleapis.com/google.apps.docs.v1.${kind[0]!.toUpperCase()}${kind.slice(1)}Request), ${JSON.stringify(body)}`,
      )
    const parsed = schemaOf(kind)?.safeParse(body)
    if (parsed && !parsed.success) {
      const issue = parsed.error!.issues[0]!
      const value = issue.path.reduce<unknown>(
        (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
        body,
      )
      throw invalid(
        `Invalid value at 'requests[${i}].${[kind, ...issue.path.map(String)].join('.')}', ${JSON.stringify(value) ?? 'null'}`,
      )
    }
    return { kind, body: body as Record<string, unknown> }
  })
}

/**
 * The work one batchUpdate may do (model/work.ts units: about 0.1–0.5 µs each). Deviation: Docs documents no such
 * bound; a batch past it is refused whole (400), so that one caller cannot hold the single server thread for long
 * (docs/decisions/0377). Realistic batches use a small fraction of it; a paste of 100,000 lines uses about 4.4 M.
 */
export const MAX_BATCH_WORK = 8_000_000
/**
 * The most characters a document's stored JSON (model/types.ts) may take: every batchUpdate parses and writes it
 * whole, so this bounds that cost (under 1 s at the limit). Prose of the maximum 1.02 million characters takes
 * about 1.3 M; each paragraph adds about 120 and each differently styled run about 60.
 */
export const MAX_STORED_DOCUMENT = 16_000_000
/** Units each request costs before its own walks (dispatch, validation, reply). */
export const REQUEST_WORK = 100

/**
 * Applies validated requests in order to the working copy; the first failure aborts the whole batch. `budget` bounds
 * the work the requests may do (batchUpdate passes MAX_BATCH_WORK; seeding and tests run unbounded).
 */
export function applyRequests(
  ctx: Ctx,
  requests: { kind: string; body: Record<string, unknown> }[],
  budget = Infinity,
): Record<string, unknown>[] {
  // Each segment's top-level blocks are indexed while the requests run, so that locating an index does not walk
  // every block before it (docs/decisions/0377).
  const replies = withBlockIndex(segmentContainers(ctx.doc), () =>
    withWorkBudget(budget, () => runRequests(ctx, requests)),
  )
  finishRequests(ctx.doc)
  return replies
}

/** Each segment's top-level block list, every tab's: the containers `withBlockIndex` indexes. */
export function segmentContainers(doc: DocModel): Block[][] {
  return allTabs(doc).flatMap((tab) => segmentsOf(tab).map((seg) => seg.blocks))
}

/**
 * Runs requests in order on the working copy, charging each to the running work budget; the caller indexes the
 * blocks and sets the budget. A failing request aborts the run with a 400 naming it; running out of work does too,
 * unless `rawExhausted`, when `WorkExhausted` is thrown as it is (document imports answer it in their own words).
 */
export function runRequests(
  ctx: Ctx,
  requests: { kind: string; body: Record<string, unknown> }[],
  rawExhausted = false,
): Record<string, unknown>[] {
  return requests.map(({ kind, body }, i) => {
    try {
      charge(REQUEST_WORK)
      return HANDLERS[kind]!(ctx, body)
    } catch (err) {
      if (err instanceof RequestError) throw invalid(`Invalid requests[${i}].${kind}: ${err.message}`)
      if (err instanceof WorkExhausted && !rawExhausted)
        throw invalid(
          `Invalid requests[${i}].${kind}: The batch needs more work than one batchUpdate may do; send its requests in several smaller batches.`,
        )
      throw err
    }
  })
}

/** What ends every run of requests: unreferenced footnotes and objects dropped, the length cap checked. */
export function finishRequests(doc: DocModel): void {
  collectGarbage(doc)
  const length = documentLength(doc)
  // Deviation (unverified wording): Docs holds at most 1.02 million characters; past it the batch is refused whole.
  if (length > MAX_DOCUMENT_LENGTH)
    throw invalid(`The document would be ${length} characters long, past the maximum of ${MAX_DOCUMENT_LENGTH}.`)
}

/**
 * The most characters a document holds, every tab and segment counted (Google's documented 1.02 million). It also
 * bounds what one export renders: the single-threaded server would otherwise spend minutes on a Word export of a
 * document that batchUpdate grew past any real one.
 */
export const MAX_DOCUMENT_LENGTH = 1_020_000

/** A document's length in UTF-16 units over every tab's body, headers, footers and footnotes. */
function documentLength(doc: DocModel): number {
  let n = 0
  for (const tab of allTabs(doc)) {
    n += contentLen(tab.body)
    for (const g of [tab.headers, tab.footers, tab.footnotes])
      for (const blocks of Object.values(g)) n += contentLen(blocks)
  }
  return n
}

/**
 * Drops footnotes and inline objects whose reference elements were deleted, positioned objects whose paragraph was,
 * and named ranges in those footnotes.
 * Deletes of content, table rows, columns and tables drop a footnote with its reference at once (model/edit.ts), so a
 * later request of the same batch cannot address it; this pass catches any other way a reference goes.
 */
function collectGarbage(doc: DocModel) {
  for (const tab of allTabs(doc)) {
    const used = new Set<string>()
    const walk = (blocks: Block[]) => {
      for (const b of blocks) {
        if (b.t === 'p') {
          for (const e of b.els) if (e.t === 'inline' || e.t === 'footnoteRef') used.add(e.id)
          for (const id of b.positioned ?? []) used.add(id)
        }
        if (b.t === 'table') b.rows.forEach((r) => r.cells.forEach((c) => walk(c.content)))
      }
    }
    walk(tab.body)
    for (const g of [tab.headers, tab.footers, tab.footnotes]) Object.values(g).forEach(walk)
    for (const id of Object.keys(tab.footnotes)) if (!used.has(id)) delete tab.footnotes[id]
    for (const id of Object.keys(tab.inlineObjects)) if (!used.has(id)) delete tab.inlineObjects[id]
    // A positioned object goes with the paragraph it is anchored to.
    for (const id of Object.keys(tab.positionedObjects)) if (!used.has(id)) delete tab.positionedObjects[id]
    // A named range inside a dropped footnote goes with it (as deleteHeader/deleteFooter drop theirs).
    const live = (seg: string) => seg === '' || seg in tab.footnotes || seg in tab.headers || seg in tab.footers
    tab.namedRanges.forEach((nr) => (nr.ranges = nr.ranges.filter((r) => live(r.segmentId))))
    tab.namedRanges = tab.namedRanges.filter((nr) => nr.ranges.length > 0)
  }
}
