// Google's defaults for a new document, as the real API returns them (specs/parity/gdoc/document_create.json).
import type { Obj } from './types.ts'

/** DocumentStyle of a new document. */
export const defaultDocumentStyle = (): Obj => ({
  'background': { 'color': {} },
  'pageNumberStart': 1,
  'marginTop': { 'magnitude': 72, 'unit': 'PT' },
  'marginBottom': { 'magnitude': 72, 'unit': 'PT' },
  'marginRight': { 'magnitude': 72, 'unit': 'PT' },
  'marginLeft': { 'magnitude': 72, 'unit': 'PT' },
  'pageSize': { 'height': { 'magnitude': 792, 'unit': 'PT' }, 'width': { 'magnitude': 612, 'unit': 'PT' } },
  'marginHeader': { 'magnitude': 36, 'unit': 'PT' },
  'marginFooter': { 'magnitude': 36, 'unit': 'PT' },
  'useCustomHeaderFooterMargins': true,
  'documentFormat': { 'documentMode': 'PAGES' },
})

/** The nine named styles of a new document. */
export const defaultNamedStyles = (): Obj[] => [
  {
    'namedStyleType': 'NORMAL_TEXT',
    'textStyle': {
      'bold': false,
      'italic': false,
      'underline': false,
      'strikethrough': false,
      'smallCaps': false,
      'backgroundColor': {},
      'foregroundColor': { 'color': { 'rgbColor': {} } },
      'fontSize': { 'magnitude': 11, 'unit': 'PT' },
      'weightedFontFamily': { 'fontFamily': 'Arial', 'weight': 400 },
      'baselineOffset': 'NONE',
    },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'alignment': 'START',
      'lineSpacing': 115,
      'direction': 'LEFT_TO_RIGHT',
      'spacingMode': 'COLLAPSE_LISTS',
      'spaceAbove': { 'unit': 'PT' },
      'spaceBelow': { 'unit': 'PT' },
      'borderBetween': { 'color': {}, 'width': { 'unit': 'PT' }, 'padding': { 'unit': 'PT' }, 'dashStyle': 'SOLID' },
      'borderTop': { 'color': {}, 'width': { 'unit': 'PT' }, 'padding': { 'unit': 'PT' }, 'dashStyle': 'SOLID' },
      'borderBottom': { 'color': {}, 'width': { 'unit': 'PT' }, 'padding': { 'unit': 'PT' }, 'dashStyle': 'SOLID' },
      'borderLeft': { 'color': {}, 'width': { 'unit': 'PT' }, 'padding': { 'unit': 'PT' }, 'dashStyle': 'SOLID' },
      'borderRight': { 'color': {}, 'width': { 'unit': 'PT' }, 'padding': { 'unit': 'PT' }, 'dashStyle': 'SOLID' },
      'indentFirstLine': { 'unit': 'PT' },
      'indentStart': { 'unit': 'PT' },
      'indentEnd': { 'unit': 'PT' },
      'keepLinesTogether': false,
      'keepWithNext': false,
      'avoidWidowAndOrphan': true,
      'shading': { 'backgroundColor': {} },
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'HEADING_1',
    'textStyle': { 'fontSize': { 'magnitude': 20, 'unit': 'PT' } },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'magnitude': 20, 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 6, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'HEADING_2',
    'textStyle': { 'bold': false, 'fontSize': { 'magnitude': 16, 'unit': 'PT' } },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'magnitude': 18, 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 6, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'HEADING_3',
    'textStyle': {
      'bold': false,
      'foregroundColor': { 'color': { 'rgbColor': { 'red': 0.2627451, 'green': 0.2627451, 'blue': 0.2627451 } } },
      'fontSize': { 'magnitude': 14, 'unit': 'PT' },
    },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'magnitude': 16, 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 4, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'HEADING_4',
    'textStyle': {
      'foregroundColor': { 'color': { 'rgbColor': { 'red': 0.4, 'green': 0.4, 'blue': 0.4 } } },
      'fontSize': { 'magnitude': 12, 'unit': 'PT' },
    },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'magnitude': 14, 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 4, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'HEADING_5',
    'textStyle': {
      'foregroundColor': { 'color': { 'rgbColor': { 'red': 0.4, 'green': 0.4, 'blue': 0.4 } } },
      'fontSize': { 'magnitude': 11, 'unit': 'PT' },
    },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'magnitude': 12, 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 4, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'HEADING_6',
    'textStyle': {
      'italic': true,
      'foregroundColor': { 'color': { 'rgbColor': { 'red': 0.4, 'green': 0.4, 'blue': 0.4 } } },
      'fontSize': { 'magnitude': 11, 'unit': 'PT' },
    },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'magnitude': 12, 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 4, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'TITLE',
    'textStyle': { 'fontSize': { 'magnitude': 26, 'unit': 'PT' } },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 3, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
  {
    'namedStyleType': 'SUBTITLE',
    'textStyle': {
      'italic': false,
      'foregroundColor': { 'color': { 'rgbColor': { 'red': 0.4, 'green': 0.4, 'blue': 0.4 } } },
      'fontSize': { 'magnitude': 15, 'unit': 'PT' },
      'weightedFontFamily': { 'fontFamily': 'Arial', 'weight': 400 },
    },
    'paragraphStyle': {
      'namedStyleType': 'NORMAL_TEXT',
      'direction': 'LEFT_TO_RIGHT',
      'spaceAbove': { 'unit': 'PT' },
      'spaceBelow': { 'magnitude': 16, 'unit': 'PT' },
      'keepLinesTogether': true,
      'keepWithNext': true,
      'pageBreakBefore': false,
    },
  },
]

/** SectionStyle of the body's leading section break. */
export const defaultSectionStyle = (): Obj => ({
  'columnSeparatorStyle': 'NONE',
  'contentDirection': 'LEFT_TO_RIGHT',
  'sectionType': 'CONTINUOUS',
})
