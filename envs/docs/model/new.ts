import { defaultDocumentStyle, defaultNamedStyles, defaultSectionStyle } from './defaults.ts'
import type { Block, DocModel, Para, TabModel } from './types.ts'

/** An empty paragraph (just its newline) with NORMAL_TEXT style. */
export const emptyPara = (): Para => ({
  t: 'p',
  els: [{ t: 'text', text: '\n', style: {} }],
  style: { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT' },
})

/** A fresh tab's body: the leading section break and one empty paragraph. */
export const emptyBody = (): Block[] => [{ t: 'section', style: defaultSectionStyle() }, emptyPara()]

export function newTab(tabId: string, title: string, index: number): TabModel {
  return {
    props: { tabId, title, index },
    body: emptyBody(),
    headers: {},
    footers: {},
    footnotes: {},
    lists: {},
    namedRanges: [],
    inlineObjects: {},
    positionedObjects: {},
    documentStyle: defaultDocumentStyle(),
    namedStyles: defaultNamedStyles(),
    children: [],
  }
}

/** A blank document: one tab "Tab 1" (id t.0), as documents.create makes. */
export const newDocument = (): DocModel => ({ tabs: [newTab('t.0', 'Tab 1', 0)] })
