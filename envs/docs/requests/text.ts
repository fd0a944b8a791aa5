import { createRequire } from 'node:module'
import type * as Re2Module from 're2js'
import { bad } from '../errors.ts'
import { deleteRange, insertElement, insertText, insertionPoint, normalize } from '../model/edit.ts'
import { parasIn, splitEls } from '../model/locate.ts'
import { allTabs, segmentsOf, shiftDelete, shiftInsert, type Seg } from '../model/segment.ts'
import { defaultSectionStyle } from '../model/defaults.ts'
import { charge } from '../model/work.ts'
import type { Obj, Para } from '../model/types.ts'
import { kixId, pointOf, rangeOf, type Ctx, type Loc, type RangeIn } from './common.ts'

type At = { location?: Loc; endOfSegmentLocation?: { tabId?: string; segmentId?: string } }

/** insertText: text at a location; newlines create paragraphs. */
export function insertTextReq(ctx: Ctx, r: At & { text?: string }) {
  const { seg, index } = pointOf(ctx, r)
  const text = sanitize(r.text ?? '')
  insertText(seg, index, text)
  return {}
}

/**
 * Control characters other than newline, tab and U+000B
 * (a line break inside a paragraph) are dropped; CR/LF become a newline.
 */
const sanitize = (t: string) => t.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000c\u000e-\u001f\u007f]/g, '')

/** deleteContentRange. */
export function deleteContentRangeReq(ctx: Ctx, r: { range?: RangeIn }) {
  if (!r.range) throw bad('The range must be specified.')
  const { seg } = rangeOf(ctx, r.range, true)
  deleteRange(seg, r.range.startIndex ?? 0, r.range.endIndex ?? 0)
  return {}
}

/** replaceAllText over every segment of the selected tabs; matches never span paragraphs or non-text elements. */
export function replaceAllTextReq(
  ctx: Ctx,
  r: {
    replaceText?: string
    containsText?: { text?: string; matchCase?: boolean; searchByRegex?: boolean }
    tabsCriteria?: { tabIds?: string[] }
  },
) {
  const find = r.containsText?.text ?? ''
  if (find === '') throw bad('The containsText text should not be empty.')
  const replace = sanitize(r.replaceText ?? '')
  const finder = r.containsText?.searchByRegex ? re2Finder(find, !!r.containsText?.matchCase) : literalFinder(find, r)
  const ids = r.tabsCriteria?.tabIds
  const tabs = allTabs(ctx.doc).filter((t) => !ids || ids.length === 0 || ids.includes(t.props.tabId))
  if (ids)
    for (const id of ids)
      if (!tabs.some((t) => t.props.tabId === id)) throw bad(`The tab with ID ${id} does not exist.`)
  let count = 0
  for (const tab of tabs) for (const seg of segmentsOf(tab)) count += replaceInSeg(seg, finder, replace)
  return { replaceAllText: count > 0 ? { occurrencesChanged: count } : {} }
}

/** Every match in a paragraph's text, left to right, as [offset, length]. */
type Finder = (text: string) => [number, number][]

function literalFinder(find: string, r: { containsText?: { matchCase?: boolean } }): Finder {
  let pattern: RegExp
  try {
    pattern = new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), r.containsText?.matchCase ? 'gu' : 'giu')
  } catch {
    throw bad(`Invalid regular expression: ${find}`)
  }
  return (text) => [...text.matchAll(pattern)].map((m) => [m.index, m[0].length])
}

/**
 * Google evaluates `searchByRegex` patterns with RE2, so they run on re2js (RE2's syntax and its linear-time
 * matching): no backreferences or lookarounds, and no pattern can make a request backtrack for minutes.
 */
type Re2 = typeof Re2Module
let re2: Re2 | undefined
/** re2js (~260 KB, kept out of the bundles) loads on the first regex search, not with the server. */
const loadRe2 = () => (re2 ??= createRequire(import.meta.url)('re2js') as Re2)

function re2Finder(find: string, matchCase: boolean): Finder {
  if (/\\[1-9]|\(\?<?[=!]/.test(find))
    throw bad(`Invalid regular expression: ${find} (backreferences and lookarounds are not supported).`)
  const { RE2JS } = loadRe2()
  let re: ReturnType<typeof RE2JS.compile>
  try {
    re = RE2JS.compile(find, matchCase ? 0 : RE2JS.CASE_INSENSITIVE)
  } catch {
    throw bad(`Invalid regular expression: ${find}`)
  }
  return (text) => {
    const out: [number, number][] = []
    const m = re.matcher(text)
    while (m.find()) out.push([m.start(), m.end() - m.start()])
    return out
  }
}

function replaceInSeg(seg: Seg, find: Finder, replace: string): number {
  let count = 0
  const hits = parasIn(seg.blocks, seg.from, seg.from, Number.MAX_SAFE_INTEGER).reverse()
  for (const hit of hits) {
    // Non-text elements read as U+FFFC so that no match crosses them; the newline ends the paragraph.
    charge(hit.para.els.length)
    const text = hit.para.els.map((e) => (e.t === 'text' ? e.text : '\uFFFC')).join('')
    const body = text.endsWith('\n') ? text.slice(0, -1) : text
    charge(body.length / 8)
    const matches = find(body).filter(([at, len]) => len > 0 && !body.slice(at, at + len).includes('\uFFFC'))
    for (const [at, len] of matches.reverse()) {
      const s = hit.start + at
      const e = s + len
      replaceSpan(seg, hit.para, at, len, replace)
      shiftDelete(seg, s, e)
      shiftInsert(seg, s, replace.length)
      count++
    }
  }
  return count
}

function replaceSpan(seg: Seg, p: Para, offset: number, len: number, replace: string) {
  const [left, rest] = splitEls(p, offset)
  const [mid, right] = splitEls({ ...p, els: rest }, len)
  const style = structuredClone(mid[0]?.style ?? {})
  p.els = [...left, ...(replace ? [{ t: 'text' as const, text: replace.replace(/\n/g, ' '), style }] : []), ...right]
  normalize(p)
  void seg
}

/** insertPageBreak: a page break followed by a newline (body only, not inside tables or footnotes). */
export function insertPageBreakReq(ctx: Ctx, r: At) {
  const { seg, index } = pointOf(ctx, r)
  if (seg.id !== '') throw bad('Page breaks can only be inserted in the body.')
  const hit = insertionPoint(seg, index)
  if (hit.container !== seg.blocks) throw bad('Page breaks cannot be inserted inside a table.')
  insertElement(seg, index, { t: 'pageBreak', style: {} }, hit)
  insertText(seg, index + 1, '\n')
  return {}
}

/** insertSectionBreak: a newline, then a section break that starts a new section. */
export function insertSectionBreakReq(ctx: Ctx, r: At & { sectionType?: string }) {
  const { seg, index } = pointOf(ctx, r)
  if (seg.id !== '') throw bad('Section breaks can only be inserted in the body.')
  if (!r.sectionType || r.sectionType === 'SECTION_TYPE_UNSPECIFIED') throw bad('The section type must be specified.')
  const hit = insertionPoint(seg, index)
  if (hit.container !== seg.blocks) throw bad('Section breaks cannot be inserted inside a table.')
  insertText(seg, index, '\n', hit)
  const at = hitAfterNewline(seg, index + 1)
  seg.blocks.splice(at, 0, { t: 'section', style: { ...defaultSectionStyle(), sectionType: r.sectionType } })
  shiftInsert(seg, index + 1, 1)
  return {}
}

/** Position in the body container of the block that starts at `index`. */
function hitAfterNewline(seg: Seg, index: number): number {
  const hit = insertionPoint(seg, index)
  return hit.i
}

/** insertPerson: a person chip (email required). */
export function insertPersonReq(ctx: Ctx, r: At & { personProperties?: { email?: string; name?: string } }) {
  const email = r.personProperties?.email
  if (!email) throw bad('The person email must be specified.')
  const { seg, index } = pointOf(ctx, r)
  const props: Obj = { email }
  if (r.personProperties?.name) props.name = r.personProperties.name
  insertElement(seg, index, { t: 'person', id: kixId(ctx, 'docs.person'), props, style: {} })
  return {}
}

/** insertRichLink: a smart chip for a Google resource URI. */
export function insertRichLinkReq(
  ctx: Ctx,
  r: At & { richLinkProperties?: { uri?: string; title?: string; mimeType?: string } },
) {
  const uri = r.richLinkProperties?.uri
  if (!uri || !/^https:\/\/(docs|drive|calendar|www)\.google\.com\//.test(uri))
    throw bad('The rich link URI must be a link to a Google Drive file, Calendar event or Google resource.')
  const { seg, index } = pointOf(ctx, r)
  const props: Obj = { uri, title: r.richLinkProperties?.title ?? uri }
  if (r.richLinkProperties?.mimeType) props.mimeType = r.richLinkProperties.mimeType
  insertElement(seg, index, { t: 'richLink', id: kixId(ctx, 'docs.richlink'), props, style: {} })
  return {}
}

/** insertDate: a date chip; defaults to the world clock's now. */
export function insertDateReq(ctx: Ctx, r: At & { dateElementProperties?: Obj }) {
  const { seg, index } = pointOf(ctx, r)
  const given = r.dateElementProperties ?? {}
  const ts = typeof given.timestamp === 'string' ? given.timestamp : ctx.nowIso
  if (Number.isNaN(Date.parse(ts))) throw bad(`Invalid timestamp: ${ts}`)
  const props: Obj = {
    dateFormat: 'DATE_FORMAT_MONTH_DAY_YEAR_ABBREVIATED',
    timeFormat: 'TIME_FORMAT_DISABLED',
    locale: 'en',
    timeZoneId: 'UTC',
    ...given,
    timestamp: ts,
  }
  props.displayText ??= new Date(ts).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })
  insertElement(seg, index, { t: 'date', id: kixId(ctx, 'docs.date'), props, style: {} })
  return {}
}
