import type { Obj } from './types.ts'

// Bullet presets → the nine nesting levels Google creates for a new list.

const GLYPHS: Record<string, string[]> = {
  BULLET_DISC_CIRCLE_SQUARE: ['●', '○', '■'],
  BULLET_DIAMONDX_ARROW3D_SQUARE: ['❖', '➢', '■'],
  BULLET_CHECKBOX: ['☐', '☐', '☐'],
  BULLET_ARROW_DIAMOND_DISC: ['➔', '◆', '●'],
  BULLET_STAR_CIRCLE_SQUARE: ['★', '○', '■'],
  BULLET_ARROW3D_CIRCLE_SQUARE: ['➢', '○', '■'],
  BULLET_LEFTTRIANGLE_DIAMOND_DISC: ['◀', '◆', '●'],
  BULLET_DIAMONDX_HOLLOWDIAMOND_SQUARE: ['❖', '◇', '■'],
  BULLET_DIAMOND_CIRCLE_SQUARE: ['◆', '○', '■'],
}
const NUMBERED: Record<string, [string, string][]> = {
  NUMBERED_DECIMAL_ALPHA_ROMAN: [
    ['DECIMAL', '%0.'],
    ['ALPHA', '%1.'],
    ['ROMAN', '%2.'],
  ],
  NUMBERED_DECIMAL_ALPHA_ROMAN_PARENS: [
    ['DECIMAL', '%0)'],
    ['ALPHA', '%1)'],
    ['ROMAN', '%2)'],
  ],
  NUMBERED_DECIMAL_NESTED: [
    ['DECIMAL', '%0.'],
    ['DECIMAL', '%0.%1.'],
    ['DECIMAL', '%0.%1.%2.'],
  ],
  NUMBERED_UPPERALPHA_ALPHA_ROMAN: [
    ['UPPER_ALPHA', '%0.'],
    ['ALPHA', '%1.'],
    ['ROMAN', '%2.'],
  ],
  NUMBERED_UPPERROMAN_UPPERALPHA_DECIMAL: [
    ['UPPER_ROMAN', '%0.'],
    ['UPPER_ALPHA', '%1.'],
    ['DECIMAL', '%2.'],
  ],
  NUMBERED_ZERODECIMAL_ALPHA_ROMAN: [
    ['ZERO_DECIMAL', '%0.'],
    ['ALPHA', '%1.'],
    ['ROMAN', '%2.'],
  ],
}

export const BULLET_PRESETS = [...Object.keys(GLYPHS), ...Object.keys(NUMBERED)]

/** The List resource for a preset. */
export function listForPreset(preset: string): Obj {
  const levels: Obj[] = []
  for (let n = 0; n < 9; n++) {
    const level: Obj = {
      bulletAlignment: 'START',
      indentFirstLine: { magnitude: 18 + 36 * n, unit: 'PT' },
      indentStart: { magnitude: 36 + 36 * n, unit: 'PT' },
      textStyle: { underline: false },
      startNumber: 1,
    }
    const g = GLYPHS[preset]
    if (g) level.glyphSymbol = g[n % 3]
    else {
      const [type, fmt] = NUMBERED[preset]![n % 3]!
      level.glyphType = type
      level.glyphFormat = fmt.replaceAll(/%(\d)/g, (_, d: string) => `%${Number(d) + n - (n % 3)}`)
    }
    if (g) level.glyphFormat = `%${n}`
    levels.push(level)
  }
  return { listProperties: { nestingLevels: levels } }
}

/** Whether a list is ordered (its first level has a glyph type rather than a symbol). */
export function isOrdered(list: Obj | undefined): boolean {
  const first = ((list?.listProperties as Obj | undefined)?.nestingLevels as Obj[] | undefined)?.[0]
  return !!first?.glyphType && first.glyphType !== 'NONE' && first.glyphType !== 'GLYPH_TYPE_UNSPECIFIED'
}
