import type { Family } from '../common.ts'
import { onboardingNewHire } from '../cross-app/onboarding-new-hire.ts'

/** The cross-app task families, in a stable order (their oracles: oracles/groups/cross-app.ts). */
export const crossAppFamilies: Family[] = [onboardingNewHire]
