import type { Oracle } from '../types.ts'
import { onboarding } from '../families/cross-app/onboarding.ts'
import { onboardingMovedStart } from '../families/onboarding-moved-start.ts'
import { incidentPostmortem } from '../families/incident-postmortem.ts'
import { customerEscalation } from '../families/customer-escalation.ts'
import { offsitePlanning } from '../families/offsite-planning.ts'
import { quarterClose } from '../families/quarter-close.ts'

/** Oracles of the cross-app task families (tasks-lite/families/groups/cross-app.ts), by id. */
export const crossAppOracles: Record<string, Oracle<any>> = {
  onboarding,
  'onboarding-moved-start': onboardingMovedStart,
  'incident-postmortem': incidentPostmortem,
  'customer-escalation': customerEscalation,
  'offsite-planning': offsitePlanning,
  'quarter-close': quarterClose,
}
