import { z } from 'zod'
import type { Db } from '../core/db.ts'
import { newDocument } from './model/new.ts'
import { segEnd, segOf } from './model/segment.ts'
import { findPara, paraText, parasIn } from './model/locate.ts'
import { clone, type DocModel } from './model/types.ts'
import { applyRequests, checkRequests, finishRequests, runRequests, segmentContainers } from './requests/apply.ts'
import { withBlockIndex } from './model/block-index.ts'
import { withWorkBudget } from './model/work.ts'
import { applySeedSuggestions, SeedSuggestion } from './seed-suggestions.ts'

// Seed documents: a compact block notation built into the real model through batchUpdate's handlers.

const Style = z.enum([
  'TITLE',
  'SUBTITLE',
  'HEADING_1',
  'HEADING_2',
  'HEADING_3',
  'HEADING_4',
  'HEADING_5',
  'HEADING_6',
  'NORMAL_TEXT',
])
/** One block of seeded content: a paragraph (string or styled), a list, or a table of plain cells. */
const Block = z.union([
  z.string(),
  z
    .object({
      text: z.string(),
      style: Style.optional(),
      bold: z.boolean().optional(),
      italic: z.boolean().optional(),
      link: z.string().optional(),
    })
    .strict(),
  z.object({ bullets: z.array(z.string()).min(1), numbered: z.boolean().optional() }).strict(),
  z.object({ table: z.array(z.array(z.string())).min(1) }).strict(),
])
const SeedDoc = z
  .object({
    /** Keep an existing Drive file's id (seeded by Drive as a Google Doc); omit to create the file here. */
    id: z.string().optional(),
    title: z.string().optional(),
    owner: z.string().optional(),
    parentId: z.string().optional(),
    content: z.array(Block).default([]),
    namedRanges: z.array(z.object({ name: z.string().min(1), text: z.string().min(1) }).strict()).optional(),
    /** Raw batchUpdate requests applied after the content (anything the blocks cannot express). */
    requests: z.array(z.record(z.string(), z.unknown())).optional(),
    /** Pending suggestions by named authors, applied last (see seed-suggestions.ts). */
    suggestions: z.array(SeedSuggestion).optional(),
  })
  .strict()
export const docsSeedSchema = z
  .object({ documents: z.array(SeedDoc).default([]) })
  .strict()
  .default({ documents: [] })
export type DocsSeed = z.output<typeof docsSeedSchema>
export type SeedBlock = z.output<typeof Block>

/** Builds a document model from seed blocks through the same request handlers batchUpdate uses. */
export type BuildExtra = {
  namedRanges?: { name: string; text: string }[]
  requests?: Record<string, unknown>[]
  /** Authors resolved to emails. */
  suggestions?: (SeedSuggestion & { author: string })[]
  /**
   * Work the blocks may take (model/work.ts units; unbounded when absent, as seeding is): past it `WorkExhausted`
   * is thrown. An uploaded document's import passes one (docs/decisions/0401).
   */
  budget?: number
}

export function buildDocument(
  db: Db,
  fileId: string,
  blocks: readonly SeedBlock[],
  extra: BuildExtra = {},
  nowIso = new Date(0).toISOString(),
): DocModel {
  const ctx = { doc: newDocument(), db, fileId, userEmail: '', nowIso }
  // The blocks' own requests are built here, well-formed by construction: only the seed's raw `requests` are checked
  // against the request schemas (zod); the rest go straight to the handlers batchUpdate uses. They run inside one
  // block index, and the document is finished (garbage, length cap) once after the last block: per block, both
  // walked the whole document, and a 40 KB text upload of 20,000 lines held the server a minute (0401).
  const asRequests = (reqs: Record<string, Record<string, unknown>>[]) =>
    reqs.map((r) => {
      const kind = Object.keys(r)[0]!
      return { kind, body: r[kind]! }
    })
  const run = (reqs: Record<string, Record<string, unknown>>[]) => runRequests(ctx, asRequests(reqs), true)
  const end = () => segEnd(segOf(ctx.doc, undefined, undefined)) - 1
  const body = () => ctx.doc.tabs[0]!.body
  /** Adds paragraphs with `text` at the end; returns the index where the text starts. */
  const addText = (text: string): number => {
    const at = end()
    const last = findPara(body(), 0, at)!
    const fill = last.para.els.length === 1 && last.offset === 0
    const keep = { style: clone(last.para.style), bullet: last.para.bullet && clone(last.para.bullet) }
    run([{ insertText: { location: { index: at }, text: fill ? text : `\n${text}` } }])
    const start = fill ? at : at + 1
    if (!fill) {
      // The paragraph before keeps its own style; new paragraphs start as plain NORMAL_TEXT.
      const prev = findPara(body(), 0, at)!.para
      prev.style = keep.style
      if (keep.bullet) prev.bullet = keep.bullet
    }
    for (const hit of parasIn(body(), 0, start, start + text.length + 1)) {
      hit.para.style = { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT' }
      delete hit.para.bullet
    }
    return start
  }
  const addBlock = (b: SeedBlock) => {
    if (typeof b === 'string' || 'text' in b) {
      const p = typeof b === 'string' ? { text: b } : b
      const start = addText(p.text)
      const range = { startIndex: start, endIndex: start + p.text.length + 1 }
      if ('style' in p && p.style)
        run([
          { updateParagraphStyle: { range, paragraphStyle: { namedStyleType: p.style }, fields: 'namedStyleType' } },
        ])
      if (p.text.length > 0 && ('bold' in p || 'italic' in p || 'link' in p)) {
        const textStyle = { bold: !!p.bold, italic: !!p.italic, ...(p.link ? { link: { url: p.link } } : {}) }
        run([
          {
            updateTextStyle: {
              range: { startIndex: start, endIndex: start + p.text.length },
              textStyle,
              fields: p.link ? 'bold,italic,link' : 'bold,italic',
            },
          },
        ])
      }
    } else if ('bullets' in b) {
      const text = b.bullets.join('\n')
      const start = addText(text)
      run([
        {
          createParagraphBullets: {
            range: { startIndex: start, endIndex: start + text.length },
            bulletPreset: b.numbered ? 'NUMBERED_DECIMAL_ALPHA_ROMAN' : 'BULLET_DISC_CIRCLE_SQUARE',
          },
        },
      ])
    } else {
      const at = end()
      const columns = Math.max(...b.table.map((r) => r.length))
      const keep = clone(findPara(body(), 0, at)!.para)
      run([{ insertTable: { location: { index: at }, rows: b.table.length, columns } }])
      const prev = findPara(body(), 0, at)!.para
      prev.style = keep.style
      if (keep.bullet) prev.bullet = keep.bullet
      const trailing = body()[body().length - 1]
      if (trailing?.t === 'p')
        ((trailing.style = { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT' }), delete trailing.bullet)
      // Cells are filled last to first so that earlier cell indices stay valid.
      const tableStart = at + 1
      for (let r = b.table.length - 1; r >= 0; r--)
        for (let c = columns - 1; c >= 0; c--) {
          const text = b.table[r]![c] ?? ''
          const index = tableStart + 1 + r * (1 + 2 * columns) + 1 + 2 * c + 1
          if (text) run([{ insertText: { location: { index }, text } }])
        }
    }
  }
  withBlockIndex(segmentContainers(ctx.doc), () =>
    withWorkBudget(extra.budget ?? Infinity, () => {
      for (const b of blocks) addBlock(b)
    }),
  )
  finishRequests(ctx.doc)
  for (const nr of extra.namedRanges ?? []) {
    const seg = segOf(ctx.doc, undefined, undefined)
    const hit = parasIn(seg.blocks, 0, 0, Number.MAX_SAFE_INTEGER).find((h) => paraText(h.para).includes(nr.text))
    if (!hit) throw new Error(`named range text not found: ${nr.text}`)
    const startIndex = hit.start + paraText(hit.para).indexOf(nr.text)
    const range = { startIndex, endIndex: startIndex + nr.text.length }
    applyRequests(ctx, asRequests([{ createNamedRange: { name: nr.name, range } }]))
  }
  if (extra.requests?.length) applyRequests(ctx, checkRequests(extra.requests))
  if (extra.suggestions?.length) applySeedSuggestions(ctx, extra.suggestions)
  return ctx.doc
}
