import { blockLen, type Block, type DocModel, type El, type ElSug, type TabModel } from './types.ts'
import type { Obj } from './types.ts'
import type { ViewMode } from './suggest.ts'

// Model → wire (Document resource). Indices are computed here; zero values are omitted as proto3
// JSON does (so the body's section break has only `endIndex: 1`).

const idx = (start: number, end: number): Obj =>
  start === 0 ? { endIndex: end } : { startIndex: start, endIndex: end }

/**
 * `{ ...idx(start, end), [key]: value }` without the spread: in Node 20's V8 a literal that starts with a spread gets a
 * hidden class of its own each time, and every reader of it (JSON.stringify, the dumps) then misses its caches
 * (docs/decisions/0446). The same keys in the same order.
 */
function indexed(start: number, end: number, key: string, value: unknown): Obj {
  const o = idx(start, end)
  o[key] = value
  return o
}

/** The wire fields of a suggestion mark (SUGGESTIONS_INLINE only: the previews carry no marks). */
function sugFields(sug: ElSug | undefined): { ids: Obj; styles: Obj } {
  const ids: Obj = {}
  const styles: Obj = {}
  if (sug?.ins?.length) ids.suggestedInsertionIds = [...sug.ins]
  if (sug?.del?.length) ids.suggestedDeletionIds = [...sug.del]
  if (sug?.ts)
    styles.suggestedTextStyleChanges = Object.fromEntries(
      Object.entries(sug.ts).map(([id, change]) => [
        id,
        {
          textStyle: change,
          textStyleSuggestionState: Object.fromEntries(Object.keys(change).map((k) => [`${k}Suggested`, true])),
        },
      ]),
    )
  return { ids, styles }
}

function elementToWire(e: El, start: number): Obj {
  const w = plainElementToWire(e, start)
  if (!e.sug) return w
  const { ids, styles } = sugFields(e.sug)
  if (e.t === 'text') {
    w.textRun = { content: e.text, ...ids, textStyle: e.style, ...styles }
    return w
  }
  const key = Object.keys(w).find((k) => k !== 'startIndex' && k !== 'endIndex')!
  w[key] = { ...ids, ...(w[key] as Obj), ...styles }
  return w
}

function plainElementToWire(e: El, start: number): Obj {
  const end = start + (e.t === 'text' ? e.text.length : 1)
  const style = e.style
  switch (e.t) {
    case 'text':
      return indexed(start, end, 'textRun', { content: e.text, textStyle: style })
    case 'pageBreak':
      return indexed(start, end, 'pageBreak', { textStyle: style })
    case 'columnBreak':
      return indexed(start, end, 'columnBreak', { textStyle: style })
    case 'horizontalRule':
      return indexed(start, end, 'horizontalRule', { textStyle: style })
    case 'inline':
      return indexed(start, end, 'inlineObjectElement', { inlineObjectId: e.id, textStyle: style })
    case 'footnoteRef':
      return indexed(start, end, 'footnoteReference', { footnoteId: e.id, footnoteNumber: '', textStyle: style })
    case 'person':
      return indexed(start, end, 'person', { personId: e.id, personProperties: e.props, textStyle: style })
    case 'richLink':
      return indexed(start, end, 'richLink', { richLinkId: e.id, richLinkProperties: e.props, textStyle: style })
    case 'date':
      return indexed(start, end, 'dateElement', { dateId: e.id, dateElementProperties: e.props, textStyle: style })
    case 'autoText':
      return indexed(start, end, 'autoText', { type: e.kind, textStyle: style })
  }
}

const defaultCellStyle = (): Obj => ({
  rowSpan: 1,
  columnSpan: 1,
  backgroundColor: {},
  paddingLeft: { magnitude: 5, unit: 'PT' },
  paddingRight: { magnitude: 5, unit: 'PT' },
  paddingTop: { magnitude: 5, unit: 'PT' },
  paddingBottom: { magnitude: 5, unit: 'PT' },
  borderLeft: cellBorder(),
  borderRight: cellBorder(),
  borderTop: cellBorder(),
  borderBottom: cellBorder(),
  contentAlignment: 'TOP',
})
const cellBorder = (): Obj => ({
  color: { color: { rgbColor: {} } },
  width: { magnitude: 1, unit: 'PT' },
  dashStyle: 'SOLID',
})

/** Structural elements of a container with their indices; footnote numbers are filled by the caller. */
export function contentToWire(blocks: readonly Block[], from: number): Obj[] {
  const out: Obj[] = []
  let at = from
  for (const b of blocks) {
    const len = blockLen(b)
    if (b.t === 'section') out.push(indexed(at, at + len, 'sectionBreak', { sectionStyle: b.style }))
    else if (b.t === 'p') {
      let e = at
      const elements = b.els.map((el) => {
        const w = elementToWire(el, e)
        e += el.t === 'text' ? el.text.length : 1
        return w
      })
      const paragraph: Obj = { elements, paragraphStyle: { ...b.style } }
      if (b.sps) {
        paragraph.suggestedParagraphStyleChanges = Object.fromEntries(
          Object.entries(b.sps).map(([id, c]) => [
            id,
            {
              paragraphStyle: c,
              paragraphStyleSuggestionState: Object.fromEntries(Object.keys(c).map((k) => [`${k}Suggested`, true])),
            },
          ]),
        )
      }
      if (b.bullet) paragraph.bullet = { ...b.bullet, textStyle: b.bullet.textStyle ?? {} }
      if (b.positioned?.length) paragraph.positionedObjectIds = b.positioned
      out.push(indexed(at, at + len, 'paragraph', paragraph))
    } else {
      let r = at + 1
      const tableRows = b.rows.map((row) => {
        const rowStart = r
        r += 1
        const tableCells = row.cells.map((cell) => {
          const cStart = r
          const content = contentToWire(cell.content, r + 1)
          r += 1 + cell.content.reduce((n, x) => n + blockLen(x), 0)
          return Object.assign(idx(cStart, r), { content, tableCellStyle: { ...defaultCellStyle(), ...cell.style } })
        })
        const tableRowStyle = { minRowHeight: { unit: 'PT' }, ...row.style }
        return Object.assign(idx(rowStart, r), { tableCells, tableRowStyle })
      })
      const tableStyle: Obj = { tableColumnProperties: b.colProps }
      out.push(indexed(at, at + len, 'table', { rows: b.rows.length, columns: b.columns, tableRows, tableStyle }))
    }
    at += len
  }
  return out
}

/** The tab's document content in wire form (the fields of DocumentTab). */
export function documentTabToWire(tab: TabModel): Obj {
  const out: Obj = { body: { content: contentToWire(tab.body, 0) } }
  const seg = (group: Record<string, Block[]>, key: string) => {
    const entries = Object.entries(group)
    if (entries.length === 0) return
    out[key] = Object.fromEntries(
      entries.map(([id, blocks]) => [
        id,
        {
          [key === 'footnotes' ? 'footnoteId' : key === 'headers' ? 'headerId' : 'footerId']: id,
          content: contentToWire(blocks, 0),
        },
      ]),
    )
  }
  seg(tab.headers, 'headers')
  seg(tab.footers, 'footers')
  seg(tab.footnotes, 'footnotes')
  out.documentStyle = tab.documentStyle
  out.namedStyles = { styles: tab.namedStyles }
  if (Object.keys(tab.lists).length) out.lists = tab.lists
  if (tab.namedRanges.length) {
    const byName: Record<string, { name: string; namedRanges: Obj[] }> = {}
    for (const nr of tab.namedRanges) {
      const group = (byName[nr.name] ??= { name: nr.name, namedRanges: [] })
      group.namedRanges.push({
        namedRangeId: nr.id,
        name: nr.name,
        ranges: nr.ranges.map((r) => ({
          ...(r.segmentId ? { segmentId: r.segmentId } : {}),
          ...idx(r.start, r.end),
          tabId: tab.props.tabId,
        })),
      })
    }
    out.namedRanges = byName
  }
  if (Object.keys(tab.inlineObjects).length) out.inlineObjects = tab.inlineObjects
  if (Object.keys(tab.positionedObjects).length) out.positionedObjects = tab.positionedObjects
  numberFootnotes(tab, out)
  return out
}

/** Footnote references are numbered 1, 2, … in body order. */
function numberFootnotes(tab: TabModel, out: Obj) {
  if (Object.keys(tab.footnotes).length === 0) return
  let n = 0
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk)
    if (v && typeof v === 'object') {
      const o = v as Obj
      if (o.footnoteReference && typeof o.footnoteReference === 'object')
        (o.footnoteReference as Obj).footnoteNumber = String(++n)
      Object.values(o).forEach(walk)
    }
  }
  walk((out.body as Obj).content)
}

/**
 * TabProperties in wire form (index and nestingLevel 0 omitted like proto3 JSON… except index, which Google writes).
 */
export function tabPropsToWire(tab: TabModel): Obj {
  const p = tab.props
  const out: Obj = { tabId: p.tabId, title: p.title, index: p.index }
  if (p.parentTabId) out.parentTabId = p.parentTabId
  if (p.nestingLevel) out.nestingLevel = p.nestingLevel
  if (p.iconEmoji) out.iconEmoji = p.iconEmoji
  return out
}

export function tabToWire(tab: TabModel): Obj {
  const out: Obj = { tabProperties: tabPropsToWire(tab), documentTab: documentTabToWire(tab) }
  if (tab.children.length) out.childTabs = tab.children.map(tabToWire)
  return out
}

/**
 * The Document resource. Without `includeTabs` the first tab's content fills the legacy fields and
 * `tabs` is absent; with it only `tabs` carries content (the Docs API's tabs contract).
 */
export function documentToWire(
  doc: DocModel,
  meta: { documentId: string; title: string; revisionId: string },
  includeTabs: boolean,
  both = false,
  mode: ViewMode = 'SUGGESTIONS_INLINE',
): Obj {
  const out: Obj = { title: meta.title }
  if (!includeTabs || both) Object.assign(out, documentTabToWire(doc.tabs[0]!))
  out.revisionId = meta.revisionId
  out.suggestionsViewMode = mode
  out.documentId = meta.documentId
  if (includeTabs || both) out.tabs = doc.tabs.map(tabToWire)
  return out
}
