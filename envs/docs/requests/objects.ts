import { opaqueId } from '../../core/ids.ts'
import { bad } from '../errors.ts'
import { insertElement, insertionPoint } from '../model/edit.ts'
import { allTabs, tabOf } from '../model/segment.ts'
import { newTab } from '../model/new.ts'
import type { Block, Obj, TabModel } from '../model/types.ts'
import { applyMask, kixId, pointOf, type Ctx, type Loc } from './common.ts'
import { charge } from '../model/work.ts'

const IMAGE_URI = /^https?:\/\/[^\s]+$/i

function checkUri(uri: string | undefined): string {
  if (!uri) throw bad('The URI must be specified.')
  if (uri.length > 2048) throw bad('The URI must be less than 2 kB.')
  if (!IMAGE_URI.test(uri)) throw bad(`Invalid image URI: ${uri}`)
  return uri
}

/**
 * insertInlineImage: an inline object at the location. Deviation:
 * the image is not fetched; its size defaults to 100×100 pt.
 */
export function insertInlineImageReq(
  ctx: Ctx,
  r: { uri?: string; location?: Loc; endOfSegmentLocation?: { tabId?: string; segmentId?: string }; objectSize?: Obj },
) {
  const uri = checkUri(r.uri)
  const { seg, index } = pointOf(ctx, r)
  if (seg.tab.footnotes[seg.id]) throw bad('Images cannot be inserted into footnotes.')
  const hit = insertionPoint(seg, index)
  const id = kixId(ctx, 'docs.image')
  const size = (r.objectSize ?? {}) as { height?: Obj; width?: Obj }
  seg.tab.inlineObjects[id] = {
    objectId: id,
    inlineObjectProperties: {
      embeddedObject: {
        imageProperties: { contentUri: uri, sourceUri: uri, cropProperties: {} },
        embeddedObjectBorder: {
          color: { color: { rgbColor: {} } },
          width: { unit: 'PT' },
          dashStyle: 'SOLID',
          propertyState: 'NOT_RENDERED',
        },
        size: {
          height: size.height ?? { magnitude: 100, unit: 'PT' },
          width: size.width ?? { magnitude: 100, unit: 'PT' },
        },
        marginTop: { magnitude: 9, unit: 'PT' },
        marginBottom: { magnitude: 9, unit: 'PT' },
        marginRight: { magnitude: 9, unit: 'PT' },
        marginLeft: { magnitude: 9, unit: 'PT' },
      },
    },
  }
  insertElement(seg, index, { t: 'inline', id, style: {} }, hit)
  return { insertInlineImage: { objectId: id } }
}

/**
 * Whether an element or a paragraph of the tab (any segment, cells included) still holds the inline or positioned
 * object. A request earlier in the same batch may have deleted it; its entry in `inlineObjects` lingers until the
 * batch ends (collectGarbage), so a later request of the batch must not find it there.
 */
export function objectPlaced(tab: TabModel, id: string): boolean {
  const holds = (blocks: Block[]): boolean =>
    blocks.some((b) => {
      if (b.t === 'table') return b.rows.some((row) => row.cells.some((c) => holds(c.content)))
      if (b.t !== 'p') return false
      charge(b.els.length)
      return b.positioned?.includes(id) === true || b.els.some((e) => e.t === 'inline' && e.id === id)
    })
  return [tab.body, ...[tab.headers, tab.footers, tab.footnotes].flatMap((g) => Object.values(g))].some(holds)
}

/** replaceImage: swaps the source of an inline or positioned image. */
export function replaceImageReq(
  ctx: Ctx,
  r: { imageObjectId?: string; uri?: string; tabId?: string; imageReplaceMethod?: string },
) {
  const uri = checkUri(r.uri)
  const tab = tabOf(ctx.doc, r.tabId)
  const id = r.imageObjectId
  const obj = (id && (tab.inlineObjects[id] ?? tab.positionedObjects[id])) as Obj | undefined
  if (!obj || !objectPlaced(tab, id!)) throw bad(`The image with ID ${id ?? ''} does not exist.`)
  const props = (obj.inlineObjectProperties ?? obj.positionedObjectProperties) as Obj
  const emb = props.embeddedObject as Obj
  emb.imageProperties = { ...(emb.imageProperties as Obj), contentUri: uri, sourceUri: uri, cropProperties: {} }
  return {}
}

/** deletePositionedObject: removes the object and its anchor. */
export function deletePositionedObjectReq(ctx: Ctx, r: { objectId?: string; tabId?: string }) {
  const tab = tabOf(ctx.doc, r.tabId)
  if (!r.objectId || !tab.positionedObjects[r.objectId] || !objectPlaced(tab, r.objectId))
    throw bad(`The positioned object with ID ${r.objectId ?? ''} does not exist.`)
  delete tab.positionedObjects[r.objectId]
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.t === 'p' && b.positioned) {
        b.positioned = b.positioned.filter((x) => x !== r.objectId)
        if (b.positioned.length === 0) delete b.positioned
      } else if (b.t === 'table') b.rows.forEach((row) => row.cells.forEach((c) => walk(c.content)))
    }
  }
  walk(tab.body)
  return {}
}

const siblingsOf = (ctx: Ctx, parentId: string | undefined): TabModel[] =>
  parentId ? tabOf(ctx.doc, parentId).children : ctx.doc.tabs
const reindex = (tabs: TabModel[]) => tabs.forEach((t, k) => (t.props.index = k))

/** addDocumentTab: a new empty tab at an index among its siblings. */
export function addDocumentTabReq(ctx: Ctx, r: { tabProperties?: Obj }) {
  const p = r.tabProperties ?? {}
  const parentId = typeof p.parentTabId === 'string' ? p.parentTabId : undefined
  const parent = parentId ? tabOf(ctx.doc, parentId) : undefined
  const level = parent ? (parent.props.nestingLevel ?? 0) + 1 : 0
  if (level > 2) throw bad('Tabs can be nested at most three levels deep.')
  const siblings = siblingsOf(ctx, parentId)
  const index = typeof p.index === 'number' ? p.index : siblings.length
  if (!Number.isInteger(index) || index < 0 || index > siblings.length)
    throw bad(`The tab index ${String(p.index)} is out of bounds.`)
  const title = typeof p.title === 'string' && p.title !== '' ? p.title : `Tab ${allTabs(ctx.doc).length + 1}`
  const tab = newTab(`t.${opaqueId(ctx.db, 'docs.tab', 12, 'abcdefghijklmnopqrstuvwxyz0123456789')}`, title, index)
  if (parentId) tab.props.parentTabId = parentId
  if (level) tab.props.nestingLevel = level
  if (typeof p.iconEmoji === 'string') tab.props.iconEmoji = p.iconEmoji
  siblings.splice(index, 0, tab)
  reindex(siblings)
  const { tabId } = tab.props
  return { addDocumentTab: { tabProperties: { ...tab.props, tabId } } }
}

/** deleteTab: removes a tab and its child tabs; the last tab cannot be deleted. */
export function deleteTabReq(ctx: Ctx, r: { tabId?: string }) {
  if (!r.tabId) throw bad('The tab ID must be specified.')
  const tab = tabOf(ctx.doc, r.tabId)
  const siblings = siblingsOf(ctx, tab.props.parentTabId)
  if (!tab.props.parentTabId && ctx.doc.tabs.length === 1) throw bad('Cannot delete the only tab in the document.')
  siblings.splice(siblings.indexOf(tab), 1)
  reindex(siblings)
  return {}
}

/** updateDocumentTabProperties: title, icon and index (moving the tab among its siblings). */
export function updateDocumentTabPropertiesReq(ctx: Ctx, r: { tabProperties?: Obj; fields?: string }) {
  const p = r.tabProperties ?? {}
  if (typeof p.tabId !== 'string') throw bad('The tab ID must be specified.')
  const tab = tabOf(ctx.doc, p.tabId)
  const next: Obj = { title: tab.props.title, index: tab.props.index, iconEmoji: tab.props.iconEmoji }
  applyMask(next, p, r.fields, ['title', 'index', 'iconEmoji'], 'updateDocumentTabProperties')
  if (next.title !== undefined && typeof next.title !== 'string') throw bad('Invalid title.')
  tab.props.title = (next.title as string | undefined) ?? ''
  if (typeof next.iconEmoji === 'string') tab.props.iconEmoji = next.iconEmoji
  else delete tab.props.iconEmoji
  const siblings = siblingsOf(ctx, tab.props.parentTabId)
  const index = typeof next.index === 'number' ? next.index : tab.props.index
  if (!Number.isInteger(index) || index < 0 || index >= siblings.length)
    throw bad(`The tab index ${index} is out of bounds.`)
  siblings.splice(siblings.indexOf(tab), 1)
  siblings.splice(index, 0, tab)
  reindex(siblings)
  return {}
}
