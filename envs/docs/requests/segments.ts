import { bad } from '../errors.ts'
import { deleteRange, insertElement, insertText, insertionPoint } from '../model/edit.ts'
import { emptyPara } from '../model/new.ts'
import { allTabs, segOf, tabOf } from '../model/segment.ts'
import { blockLen, type Obj, type TabModel } from '../model/types.ts'
import { kixId, pointOf, rangeOf, type Ctx, type Loc, type RangeIn } from './common.ts'

type Kind = 'header' | 'footer'
const idKey = (k: Kind) => (k === 'header' ? 'defaultHeaderId' : 'defaultFooterId')

/** createHeader / createFooter: a DEFAULT header or footer for the document or one section. */
function createHF(ctx: Ctx, kind: Kind, r: { type?: string; sectionBreakLocation?: Loc }) {
  if (r.type !== 'DEFAULT') throw bad(`The ${kind} type must be DEFAULT.`)
  const tab = tabOf(ctx.doc, r.sectionBreakLocation?.tabId)
  let owner: Obj = tab.documentStyle
  if (r.sectionBreakLocation) {
    const seg = segOf(ctx.doc, r.sectionBreakLocation.tabId, r.sectionBreakLocation.segmentId)
    if (seg.id !== '') throw bad('The section break location must be in the body.')
    let at = 0
    const found = seg.blocks.find((b) => {
      const hit = b.t === 'section' && at === (r.sectionBreakLocation!.index ?? 0)
      at += blockLen(b)
      return hit
    })
    if (!found || found.t !== 'section') throw bad('The section break location does not point to a section break.')
    // The body's first section break stands for the document: its header is the document's (Discovery).
    if (found !== seg.blocks[0]) owner = found.style
  }
  if (owner[idKey(kind)])
    throw bad(
      `A ${kind} of type DEFAULT already exists for this ${owner === tab.documentStyle ? 'document' : 'section'}.`,
    )
  const id = kixId(ctx, `docs.${kind}`)
  ;(kind === 'header' ? tab.headers : tab.footers)[id] = [emptyPara()]
  owner[idKey(kind)] = id
  return kind === 'header' ? { createHeader: { headerId: id } } : { createFooter: { footerId: id } }
}

export const createHeaderReq = (ctx: Ctx, r: { type?: string; sectionBreakLocation?: Loc }) =>
  createHF(ctx, 'header', r)
export const createFooterReq = (ctx: Ctx, r: { type?: string; sectionBreakLocation?: Loc }) =>
  createHF(ctx, 'footer', r)

function deleteHF(ctx: Ctx, kind: Kind, id: string | undefined, tabId: string | undefined) {
  const tab = tabOf(ctx.doc, tabId)
  const group = kind === 'header' ? tab.headers : tab.footers
  if (!id || !group[id]) throw bad(`The ${kind} with ID ${id ?? ''} does not exist.`)
  delete group[id]
  const clear = (o: Obj) => {
    for (const [k, v] of Object.entries(o))
      if (v === id && k.endsWith(kind === 'header' ? 'HeaderId' : 'FooterId')) delete o[k]
  }
  clear(tab.documentStyle)
  for (const b of tab.body) if (b.t === 'section') clear(b.style)
  tab.namedRanges.forEach((nr) => (nr.ranges = nr.ranges.filter((x) => x.segmentId !== id)))
  tab.namedRanges = tab.namedRanges.filter((nr) => nr.ranges.length > 0)
  return {}
}

export const deleteHeaderReq = (ctx: Ctx, r: { headerId?: string; tabId?: string }) =>
  deleteHF(ctx, 'header', r.headerId, r.tabId)
export const deleteFooterReq = (ctx: Ctx, r: { footerId?: string; tabId?: string }) =>
  deleteHF(ctx, 'footer', r.footerId, r.tabId)

/** createFootnote: a footnote reference at the location (body only) and a footnote segment " \n". */
export function createFootnoteReq(
  ctx: Ctx,
  r: { location?: Loc; endOfSegmentLocation?: { tabId?: string; segmentId?: string } },
) {
  const { seg, index } = pointOf(ctx, r)
  if (seg.id !== '') throw bad('Footnotes can only be inserted in the body.')
  const hit = insertionPoint(seg, index)
  const id = kixId(ctx, 'docs.footnote')
  seg.tab.footnotes[id] = [{ ...emptyPara(), els: [{ t: 'text', text: ' \n', style: {} }] }]
  insertElement(seg, index, { t: 'footnoteRef', id, style: {} }, hit)
  return { createFootnote: { footnoteId: id } }
}

/** createNamedRange: a named range over a range; names are 1–256 UTF-16 units and need not be unique. */
export function createNamedRangeReq(ctx: Ctx, r: { name?: string; range?: RangeIn }) {
  const name = r.name ?? ''
  if (name.length < 1 || name.length > 256)
    throw bad('The name must be between 1 and 256 characters (UTF-16 code units).')
  const { seg, s, e } = rangeOf(ctx, r.range)
  const id = kixId(ctx, 'docs.namedrange')
  seg.tab.namedRanges.push({ id, name, ranges: [{ segmentId: seg.id, start: s, end: e }] })
  return { createNamedRange: { namedRangeId: id } }
}

function selectTabs(ctx: Ctx, criteria: { tabIds?: string[] } | undefined): TabModel[] {
  const ids = criteria?.tabIds
  const tabs = allTabs(ctx.doc)
  if (!ids?.length) return tabs
  for (const id of ids) if (!tabs.some((t) => t.props.tabId === id)) throw bad(`The tab with ID ${id} does not exist.`)
  return tabs.filter((t) => ids.includes(t.props.tabId))
}

/** deleteNamedRange by id (must exist) or by name (every range with that name). */
export function deleteNamedRangeReq(
  ctx: Ctx,
  r: { namedRangeId?: string; name?: string; tabsCriteria?: { tabIds?: string[] } },
) {
  if ((r.namedRangeId === undefined) === (r.name === undefined))
    throw bad('Exactly one of namedRangeId or name must be set.')
  let found = false
  for (const tab of selectTabs(ctx, r.tabsCriteria)) {
    const keep = tab.namedRanges.filter((nr) =>
      r.namedRangeId !== undefined ? nr.id !== r.namedRangeId : nr.name !== r.name,
    )
    found ||= keep.length !== tab.namedRanges.length
    tab.namedRanges = keep
  }
  if (!found && r.namedRangeId !== undefined) throw bad(`The named range with ID ${r.namedRangeId} does not exist.`)
  return {}
}

/**
 * replaceNamedRangeContent: the first range gets the text, the other ranges are deleted; the range then spans the text.
 */
export function replaceNamedRangeContentReq(
  ctx: Ctx,
  r: { namedRangeId?: string; namedRangeName?: string; text?: string; tabsCriteria?: { tabIds?: string[] } },
) {
  if ((r.namedRangeId === undefined) === (r.namedRangeName === undefined))
    throw bad('Exactly one of namedRangeId or namedRangeName must be set.')
  const text = r.text ?? ''
  let found = false
  for (const tab of selectTabs(ctx, r.tabsCriteria)) {
    for (const nr of [...tab.namedRanges]) {
      if (r.namedRangeId !== undefined ? nr.id !== r.namedRangeId : nr.name !== r.namedRangeName) continue
      found = true
      const ranges = [...nr.ranges].sort((a, b) =>
        a.segmentId === b.segmentId ? a.start - b.start : a.segmentId < b.segmentId ? -1 : 1,
      )
      const first = ranges[0]!
      for (const x of ranges.slice(1).reverse())
        deleteRange(segOf(ctx.doc, tab.props.tabId, x.segmentId), x.start, x.end)
      const seg = segOf(ctx.doc, tab.props.tabId, first.segmentId)
      const { start, end } = nr.ranges.find((x) => x === first) ?? first
      deleteRange(seg, start, end)
      insertText(seg, start, text)
      nr.ranges = text.length > 0 ? [{ segmentId: first.segmentId, start, end: start + text.length }] : []
      tab.namedRanges = [...tab.namedRanges.filter((x) => x !== nr), ...(nr.ranges.length ? [nr] : [])]
    }
  }
  if (!found)
    throw bad(
      r.namedRangeId !== undefined
        ? `The named range with ID ${r.namedRangeId} does not exist.`
        : `No named range with name ${r.namedRangeName} exists.`,
    )
  return {}
}
