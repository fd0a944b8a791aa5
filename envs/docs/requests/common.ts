import type { Db } from '../../core/db.ts'
import { opaqueId } from '../../core/ids.ts'
import { bad } from '../errors.ts'
import { findPara, parasIn, splitEls } from '../model/locate.ts'
import { segEnd, segOf, type Seg } from '../model/segment.ts'
import type { DocModel, El, Obj } from '../model/types.ts'

/** What every request handler gets: the working copy of the document and id/time sources. */
export type Ctx = { doc: DocModel; db: Db; fileId: string; userEmail: string; nowIso: string }

const KIX = 'abcdefghijklmnopqrstuvwxyz0123456789'
/** A Docs object id (`kix.` + 12 characters), deterministic per world. */
export const kixId = (ctx: Ctx, family = 'docs.kix') => `kix.${opaqueId(ctx.db, family, 12, KIX)}`

export type Loc = { tabId?: string; segmentId?: string; index?: number }
export type RangeIn = { tabId?: string; segmentId?: string; startIndex?: number; endIndex?: number }

/** `location` or `endOfSegmentLocation` (exactly one) → segment + index. */
export function pointOf(
  ctx: Ctx,
  req: { location?: Loc; endOfSegmentLocation?: { tabId?: string; segmentId?: string } },
): { seg: Seg; index: number } {
  if (req.location && req.endOfSegmentLocation)
    throw bad('Exactly one of location or endOfSegmentLocation must be set.')
  if (req.endOfSegmentLocation) {
    const seg = segOf(ctx.doc, req.endOfSegmentLocation.tabId, req.endOfSegmentLocation.segmentId)
    return { seg, index: segEnd(seg) - 1 }
  }
  if (!req.location) throw bad('Exactly one of location or endOfSegmentLocation must be set.')
  const seg = segOf(ctx.doc, req.location.tabId, req.location.segmentId)
  return { seg, index: req.location.index ?? 0 }
}

/** A validated, non-empty range inside its segment. */
export function rangeOf(ctx: Ctx, range: RangeIn | undefined, allowEmpty = false): { seg: Seg; s: number; e: number } {
  if (!range) throw bad('The range must be specified.')
  const seg = segOf(ctx.doc, range.tabId, range.segmentId)
  const s = range.startIndex ?? 0
  const e = range.endIndex ?? 0
  // A paragraph at e - 1 proves e is inside the segment without walking all of it.
  const end = e > seg.from && findPara(seg.blocks, seg.from, e - 1) ? e : segEnd(seg)
  if (!allowEmpty && e <= s)
    throw bad(
      e === s ? 'The range should not be empty.' : 'The start index of the range must be less than the end index.',
    )
  if (s < 0) throw bad(`Index ${s} must be greater than or equal to 0.`)
  if (e > end) throw bad(`Index ${e - 1} must be less than the end index of the referenced segment, ${end}.`)
  return { seg, s, e }
}

/** Calls `fn` on every paragraph element inside [s, e), splitting text runs at the edges first. */
export function forEachEl(seg: Seg, s: number, e: number, fn: (el: El) => void) {
  for (const hit of parasIn(seg.blocks, seg.from, s, e)) {
    const p = hit.para
    const a = Math.max(0, s - hit.start)
    const [left, rest] = splitEls(p, a)
    const [mid, right] = splitEls({ ...p, els: rest }, Math.max(0, e - hit.start - a))
    mid.forEach(fn)
    p.els = [...left, ...mid, ...right]
  }
}

/**
 * Applies a field mask: each listed field is copied from `from` (or cleared when absent there),
 * `*` means every field in `known`. Unknown fields are Google's 400.
 */
export function applyMask(
  target: Obj,
  from: Obj | undefined,
  fields: string | undefined,
  known: readonly string[],
  kind: string,
) {
  if (fields === undefined || fields.trim() === '')
    throw bad(`At least one field must be listed in 'fields'. (Use '*' to indicate all fields.)`)
  const list = fields.trim() === '*' ? [...known] : fields.split(',').map((f) => f.trim())
  for (const f of list) {
    const top = f.split('.')[0]!
    if (!known.includes(top)) throw bad(`Invalid field: ${f}`)
    const v = from?.[top]
    if (v === undefined) delete target[top]
    else target[top] = structuredClone(v)
  }
  void kind
}
