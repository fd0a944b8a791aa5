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
  return (['light', 'medium', 'none', 'heavy', 'light', 'medium', 'light', 'medium'] as const)[(seed - 1) % 8]!
}

/**
 * Frames an instruction with who the agent acts as, in one of several styles chosen by `r` (true context, never the
 * answer), so instances whose facts live only in the world still read differently.
 */
export function persona(r: Rng, who: { name: string; email: string }, org: string, text: string): string {
  return r.pick([
    () => `You are ${who.name} at ${org}. ${text}`,
    () => `${text} (You're signed in as ${who.email}.)`,
    () => `[${org}, acting as ${who.name}] ${text}`,
    () => `Acting for ${who.name.split(' ')[0]} (${who.email}): ${text}`,
  ])()
}
