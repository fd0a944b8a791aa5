import { bad } from '../errors.ts'
import { deleteRange, NORMALIZE_COST } from '../model/edit.ts'
import { charge } from '../model/work.ts'
import { parasIn } from '../model/locate.ts'
import { BULLET_PRESETS, listForPreset } from '../model/lists.ts'
import { allTabs, tabOf } from '../model/segment.ts'
import { blockLen, type Obj } from '../model/types.ts'
import { applyMask, forEachEl, kixId, rangeOf, type Ctx, type RangeIn } from './common.ts'

export const TEXT_FIELDS = [
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'smallCaps',
  'backgroundColor',
  'foregroundColor',
  'fontSize',
  'weightedFontFamily',
  'baselineOffset',
  'link',
] as const
export const PARA_FIELDS = [
  'headingId',
  'namedStyleType',
  'alignment',
  'lineSpacing',
  'direction',
  'spacingMode',
  'spaceAbove',
  'spaceBelow',
  'borderBetween',
  'borderTop',
  'borderBottom',
  'borderLeft',
  'borderRight',
  'indentFirstLine',
  'indentStart',
  'indentEnd',
  'tabStops',
  'keepLinesTogether',
  'keepWithNext',
  'avoidWidowAndOrphan',
  'shading',
  'pageBreakBefore',
] as const
const NAMED = [
  'NORMAL_TEXT',
  'TITLE',
  'SUBTITLE',
  'HEADING_1',
  'HEADING_2',
  'HEADING_3',
  'HEADING_4',
  'HEADING_5',
  'HEADING_6',
]

/** updateTextStyle over a range (every element in it, newlines included). */
export function updateTextStyleReq(ctx: Ctx, r: { range?: RangeIn; textStyle?: Obj; fields?: string }) {
  const { seg, s, e } = rangeOf(ctx, r.range)
  const link = r.textStyle?.link as Obj | undefined
  if (link && !link.url && !link.bookmarkId && !link.headingId && !link.tabId && !link.bookmark && !link.heading)
    throw bad('The link must have a URL, a bookmark, a heading or a tab.')
  const probe: Obj = {}
  applyMask(probe, r.textStyle, r.fields, TEXT_FIELDS, 'updateTextStyle')
  forEachEl(seg, s, e, (el) => applyMask(el.style, r.textStyle, r.fields, TEXT_FIELDS, 'updateTextStyle'))
  for (const hit of parasIn(seg.blocks, seg.from, s, e)) normalizeRuns(hit.para)
  return {}
}

function normalizeRuns(p: { els: { t: string; style: Obj; text?: string; sug?: unknown }[] }) {
  charge(NORMALIZE_COST * p.els.length)
  const out: typeof p.els = []
  for (const e of p.els) {
    const last = out[out.length - 1]
    const same =
      last?.t === 'text' &&
      JSON.stringify(last.style) === JSON.stringify(e.style) &&
      JSON.stringify(last.sug ?? null) === JSON.stringify(e.sug ?? null)
    if (e.t === 'text' && same) last!.text += e.text!
    else out.push(e)
  }
  p.els = out
}

/** updateParagraphStyle on every paragraph overlapping the range. */
export function updateParagraphStyleReq(ctx: Ctx, r: { range?: RangeIn; paragraphStyle?: Obj; fields?: string }) {
  const { seg, s, e } = rangeOf(ctx, r.range, true)
  const nst = r.paragraphStyle?.namedStyleType
  if (nst !== undefined && !NAMED.includes(String(nst))) throw bad(`Invalid value for namedStyleType: ${String(nst)}`)
  if (r.paragraphStyle?.headingId !== undefined && r.fields?.split(',').some((f) => f.trim() === 'headingId'))
    throw bad('headingId is read-only.')
  for (const hit of parasIn(seg.blocks, seg.from, s, e)) {
    applyMask(hit.para.style, r.paragraphStyle, r.fields, PARA_FIELDS, 'updateParagraphStyle')
    const type = String(hit.para.style.namedStyleType ?? 'NORMAL_TEXT')
    hit.para.style.namedStyleType ??= 'NORMAL_TEXT'
    hit.para.style.direction ??= 'LEFT_TO_RIGHT'
    if (type.startsWith('HEADING_') || type === 'TITLE' || type === 'SUBTITLE')
      hit.para.style.headingId ??= `h.${kixId(ctx, 'docs.heading').slice(4)}`
    else delete hit.para.style.headingId
  }
  return {}
}

/** createParagraphBullets: one new list; leading tabs set the nesting level and are removed. */
export function createParagraphBulletsReq(ctx: Ctx, r: { range?: RangeIn; bulletPreset?: string }) {
  const { seg, s, e } = rangeOf(ctx, r.range, true)
  const preset = r.bulletPreset ?? ''
  if (!BULLET_PRESETS.includes(preset))
    throw bad(`Invalid bullet preset: ${preset || 'BULLET_GLYPH_PRESET_UNSPECIFIED'}`)
  const listId = kixId(ctx, 'docs.list')
  seg.tab.lists[listId] = listForPreset(preset)
  // Right to left so that removing tabs does not move paragraphs still to be handled.
  for (const hit of parasIn(seg.blocks, seg.from, s, e).reverse()) {
    const first = hit.para.els[0]
    const tabs = first?.t === 'text' ? (/^\t*/.exec(first.text)?.[0].length ?? 0) : 0
    hit.para.bullet = { listId, ...(tabs > 0 ? { nestingLevel: Math.min(tabs, 8) } : {}), textStyle: {} }
    if (tabs > 0) deleteRange(seg, hit.start, hit.start + tabs)
  }
  return {}
}

/** deleteParagraphBullets: removes bullets, keeping the visual indent as Google does. */
export function deleteParagraphBulletsReq(ctx: Ctx, r: { range?: RangeIn }) {
  const { seg, s, e } = rangeOf(ctx, r.range, true)
  for (const hit of parasIn(seg.blocks, seg.from, s, e)) {
    const b = hit.para.bullet
    if (!b) continue
    const level = (((seg.tab.lists[b.listId]?.listProperties as Obj | undefined)?.nestingLevels as Obj[] | undefined) ??
      [])[b.nestingLevel ?? 0]
    if (level?.indentStart) hit.para.style.indentStart = level.indentStart
    if (level?.indentFirstLine) hit.para.style.indentFirstLine = level.indentFirstLine
    delete hit.para.bullet
  }
  return {}
}

const DOC_FIELDS = [
  'background',
  'defaultHeaderId',
  'defaultFooterId',
  'evenPageHeaderId',
  'evenPageFooterId',
  'firstPageHeaderId',
  'firstPageFooterId',
  'useFirstPageHeaderFooter',
  'useEvenPageHeaderFooter',
  'pageNumberStart',
  'marginTop',
  'marginBottom',
  'marginRight',
  'marginLeft',
  'pageSize',
  'marginHeader',
  'marginFooter',
  'useCustomHeaderFooterMargins',
  'flipPageOrientation',
  'documentFormat',
]
const READ_ONLY_DOC = [
  'defaultHeaderId',
  'defaultFooterId',
  'evenPageHeaderId',
  'evenPageFooterId',
  'firstPageHeaderId',
  'firstPageFooterId',
]

/** updateDocumentStyle (header/footer ids are read-only here: use createHeader/createFooter). */
export function updateDocumentStyleReq(ctx: Ctx, r: { documentStyle?: Obj; fields?: string; tabId?: string }) {
  const tab = tabOf(ctx.doc, r.tabId)
  const fields = r.fields === '*' ? DOC_FIELDS.filter((f) => !READ_ONLY_DOC.includes(f)).join(',') : r.fields
  for (const f of fields?.split(',') ?? [])
    if (READ_ONLY_DOC.includes(f.trim())) throw bad(`The field ${f.trim()} is read-only.`)
  applyMask(tab.documentStyle, r.documentStyle, fields, DOC_FIELDS, 'updateDocumentStyle')
  return {}
}

/** updateNamedStyle: changes one of the nine named styles of every selected tab. */
export function updateNamedStyleReq(
  ctx: Ctx,
  r: { namedStyle?: Obj; fields?: string; tabsCriteria?: { tabIds?: string[] } },
) {
  const type = String(r.namedStyle?.namedStyleType ?? '')
  if (!NAMED.includes(type)) throw bad(`Invalid namedStyleType: ${type || 'NAMED_STYLE_TYPE_UNSPECIFIED'}`)
  const ids = r.tabsCriteria?.tabIds
  for (const tab of allTabs(ctx.doc).filter((t) => !ids?.length || ids.includes(t.props.tabId))) {
    const style = tab.namedStyles.find((n) => n.namedStyleType === type)!
    const list = (r.fields ?? '').split(',').map((f) => f.trim())
    if (!r.fields) throw bad(`At least one field must be listed in 'fields'. (Use '*' to indicate all fields.)`)
    for (const f of list) {
      const [head, ...rest] = f.split('.')
      if (f === '*') {
        style.textStyle = structuredClone(r.namedStyle?.textStyle ?? {})
        style.paragraphStyle = structuredClone(r.namedStyle?.paragraphStyle ?? {})
      } else if (head === 'textStyle' || head === 'paragraphStyle') {
        const target = (style[head] ??= {}) as Obj
        applyMask(
          target,
          r.namedStyle?.[head] as Obj | undefined,
          rest.length ? rest.join('.') : '*',
          head === 'textStyle' ? TEXT_FIELDS : PARA_FIELDS,
          'updateNamedStyle',
        )
      } else throw bad(`Invalid field: ${f}`)
    }
  }
  return {}
}

const SECTION_FIELDS = [
  'columnProperties',
  'columnSeparatorStyle',
  'contentDirection',
  'marginTop',
  'marginBottom',
  'marginRight',
  'marginLeft',
  'marginHeader',
  'marginFooter',
  'sectionType',
  'defaultHeaderId',
  'defaultFooterId',
  'firstPageHeaderId',
  'firstPageFooterId',
  'evenPageHeaderId',
  'evenPageFooterId',
  'useFirstPageHeaderFooter',
  'pageNumberStart',
  'flipPageOrientation',
]

/** updateSectionStyle on every section break whose section overlaps the range (body only). */
export function updateSectionStyleReq(ctx: Ctx, r: { range?: RangeIn; sectionStyle?: Obj; fields?: string }) {
  const { seg, s, e } = rangeOf(ctx, r.range)
  if (seg.id !== '') throw bad('Section styles can only be updated in the body.')
  let at = 0
  let current = -1
  const hitSections = new Set<number>()
  seg.blocks.forEach((b, k) => {
    if (b.t === 'section') current = k
    const len = blockLen(b)
    if (at < e && at + len > s) hitSections.add(current)
    at += len
  })
  for (const k of hitSections) {
    const b = seg.blocks[k]
    if (b?.t === 'section') applyMask(b.style, r.sectionStyle, r.fields, SECTION_FIELDS, 'updateSectionStyle')
  }
  return {}
}
