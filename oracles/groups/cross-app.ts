import type { Oracle } from '../types.ts'
import { onboarding } from '../families/cross-app/onboarding.ts'

/** Oracles of the cross-app task families (tasks-lite/families/groups/cross-app.ts), by id. */
export const crossAppOracles: Record<string, Oracle<any>> = {
  onboarding,
}
