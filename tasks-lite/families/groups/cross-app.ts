import type { Family } from '../common.ts'
import { onboardingNewHire } from '../cross-app/onboarding-new-hire.ts'
import { incidentPostmortem } from '../incident-postmortem.ts'

/** The cross-app task families, in a stable order (their oracles: oracles/groups/cross-app.ts). */
export const crossAppFamilies: Family[] = [onboardingNewHire, incidentPostmortem]
// Not registered until they validate: customer-escalation (a secret hidden in the DM's blocks scores 1 under the
// hidden-secret attack) and offsite-planning (appending to every document scores 1 when the world has no other doc).
