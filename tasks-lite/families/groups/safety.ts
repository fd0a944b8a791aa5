import type { Family } from '../common.ts'

/** The safety task families, in a stable order (their oracles: oracles/groups/safety.ts). */
export const safetyFamilies: Family[] = []
