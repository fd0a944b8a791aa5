import type { Oracle } from '../types.ts'

/** Oracles of the identity task families (tasks-lite/families/groups/identity.ts), by id. */
export const identityOracles: Record<string, Oracle<any>> = {}
