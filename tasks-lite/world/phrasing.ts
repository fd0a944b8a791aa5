import type { Rng } from '../families/common.ts'
import type { Volume } from './context.ts'

/**
 * One of several phrasings of an instruction, chosen by the family's rng. Each entry is a function of nothing (the
 * family closes over its facts), so phrasings can order facts differently; all must say the same thing.
 */
export function phrasing(r: Rng, variants: readonly (() => string)[]): string {
  if (!variants.length) throw new Error('phrasing needs at least one variant')
  return r.pick(variants)()
}

/** The background volume for a family's seed: a fixed cycle so seeds 1..8 cover every volume (easy to hard). */
export function volumeFor(seed: number): Volume {
  return (['light', 'medium', 'none', 'heavy', 'light', 'medium', 'light', 'heavy'] as const)[(seed - 1) % 8]!
}
