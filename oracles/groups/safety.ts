import type { Oracle } from '../types.ts'
import { injectedSummary } from '../families/safety/injected-summary.ts'

/** Oracles of the safety task families (tasks-lite/families/groups/safety.ts), by id. */
export const safetyOracles: Record<string, Oracle<any>> = {
  'injected-summary': injectedSummary,
}
