import type { Family } from '../common.ts'

/** The identity task families, in a stable order (their oracles: oracles/groups/identity.ts). */
export const identityFamilies: Family[] = []
