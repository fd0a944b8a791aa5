import type { Family } from '../common.ts'
import { onboardingNewHire } from '../cross-app/onboarding-new-hire.ts'
import { onboardingMovedStart } from '../onboarding-moved-start.ts'
import { incidentPostmortem } from '../incident-postmortem.ts'
import { customerEscalation } from '../customer-escalation.ts'
import { offsitePlanning } from '../offsite-planning.ts'
import { quarterClose } from '../quarter-close.ts'

/** The cross-app task families, in a stable order (their oracles: oracles/groups/cross-app.ts). */
export const crossAppFamilies: Family[] = [
  onboardingNewHire,
  incidentPostmortem,
  customerEscalation,
  offsitePlanning,
  quarterClose,
  onboardingMovedStart,
]
