import { z } from 'zod'
import { opaqueId } from '../core/ids.ts'
import { normalize } from './model/edit.ts'
import { paraText, parasIn } from './model/locate.ts'
import { segOf } from './model/segment.ts'
import type { DocModel, El, ElSug, Obj } from './model/types.ts'
import { forEachEl, type Ctx } from './requests/common.ts'
import { insertTextReq } from './requests/text.ts'

// Seeded suggestions (the Docs API cannot create them, the real one neither): each names its author and what it
// suggests by the text it touches in the body. docs/decisions/0280-docs-suggestions.md.

const Text = z.string().min(1)
const NamedStyle = z.enum([
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

export const SeedSuggestion = z
  .object({
    /** `suggest.` and lowercase letters/digits, like Google's; generated when omitted. */
    id: z
      .string()
      .regex(/^suggest\.[a-z0-9]{4,}$/)
      .optional(),
    /** A world user (id or email). */
    author: Text,
    /** Which occurrence of the text (1 = first in the body, as the document reads with earlier suggestions). */
    occurrence: z.number().int().min(1).optional(),
    /** Suggests inserting `text` right after (or before) the anchor text. */
    insert: z
      .object({ text: Text, after: Text.optional(), before: Text.optional() })
      .strict()
      .refine((v) => (v.after === undefined) !== (v.before === undefined), 'give exactly one of after/before')
      .optional(),
    /** Suggests deleting this text. */
    delete: Text.optional(),
    /** Suggests replacing `text` with `with` (one suggestion: a deletion and an insertion right after it). */
    replace: z.object({ text: Text, with: Text }).strict().optional(),
    /** Suggests a text style change on this text. */
    textStyle: z
      .object({
        text: Text,
        bold: z.boolean().optional(),
        italic: z.boolean().optional(),
        underline: z.boolean().optional(),
        strikethrough: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** Suggests a named paragraph style for the paragraph holding the text. */
    paragraphStyle: z.object({ text: Text, namedStyleType: NamedStyle }).strict().optional(),
  })
  .strict()
  .refine(
    (s) => [s.insert, s.delete, s.replace, s.textStyle, s.paragraphStyle].filter((v) => v !== undefined).length === 1,
    'give exactly one of insert, delete, replace, textStyle, paragraphStyle',
  )
export type SeedSuggestion = z.output<typeof SeedSuggestion>

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** [start, end) of the n-th occurrence of `text` inside one body paragraph. */
function locate(doc: DocModel, text: string, n: number): { start: number; end: number } {
  const seg = segOf(doc, undefined, undefined)
  let seen = 0
  for (const hit of parasIn(seg.blocks, 0, 0, Number.MAX_SAFE_INTEGER)) {
    const t = paraText(hit.para)
    for (let at = t.indexOf(text); at >= 0; at = t.indexOf(text, at + 1)) {
      if (++seen === n) return { start: hit.start + at, end: hit.start + at + text.length }
    }
  }
  throw new Error(`suggestion text not found${n > 1 ? ` (occurrence ${n})` : ''}: ${text}`)
}

/** Marks every element in [s, e) of the body with `mark` (run edges split; runs re-joined where marks agree). */
function mark(doc: DocModel, s: number, e: number, fn: (sug: ElSug) => ElSug) {
  const seg = segOf(doc, undefined, undefined)
  forEachEl(seg, s, e, (el: El) => {
    el.sug = fn(el.sug ?? {})
  })
  for (const hit of parasIn(seg.blocks, 0, s, e)) normalize(hit.para)
}

const withId = (list: string[] | undefined, id: string) => [...(list ?? []), id]

/** Applies seeded suggestions in order; `author` is already resolved to an email. */
export function applySeedSuggestions(ctx: Ctx, list: readonly (SeedSuggestion & { author: string })[]) {
  const doc = ctx.doc
  for (const s of list) {
    const id = s.id ?? `suggest.${opaqueId(ctx.db, 'docs.suggestion', 12, ID_CHARS)}`
    if (doc.suggestions?.[id]) throw new Error(`suggestion id used twice: ${id}`)
    doc.suggestions = { ...doc.suggestions, [id]: { author: s.author } }
    const n = s.occurrence ?? 1
    const insertAt = (index: number, text: string) => {
      insertTextReq(ctx, { location: { index }, text })
      mark(doc, index, index + text.length, (m) => ({ ...m, ins: withId(m.ins, id) }))
    }
    if (s.delete !== undefined || s.replace) {
      const { start, end } = locate(doc, s.delete ?? s.replace!.text, n)
      mark(doc, start, end, (m) => ({ ...m, del: withId(m.del, id) }))
      if (s.replace) insertAt(end, s.replace.with)
    } else if (s.insert) {
      const { start, end } = locate(doc, (s.insert.after ?? s.insert.before)!, n)
      insertAt(s.insert.after !== undefined ? end : start, s.insert.text)
    } else if (s.textStyle) {
      const { text, ...change } = s.textStyle
      const { start, end } = locate(doc, text, n)
      mark(doc, start, end, (m) => ({ ...m, ts: { ...m.ts, [id]: change as Obj } }))
    } else if (s.paragraphStyle) {
      const { start } = locate(doc, s.paragraphStyle.text, n)
      const seg = segOf(doc, undefined, undefined)
      const para = parasIn(seg.blocks, 0, start, start)[0]!.para
      para.sps = { ...para.sps, [id]: { namedStyleType: s.paragraphStyle.namedStyleType } }
    }
  }
}
