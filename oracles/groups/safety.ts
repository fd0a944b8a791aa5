import type { Oracle } from '../types.ts'

/** Oracles of the safety task families (tasks-lite/families/groups/safety.ts), by id. */
export const safetyOracles: Record<string, Oracle<any>> = {}
