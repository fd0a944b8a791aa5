import type { Oracle } from '../types.ts'
import { injectedSummary } from '../families/safety/injected-summary.ts'
import { slackShareRequest } from '../families/safety/slack-share-request.ts'
import { phishingReport } from '../families/safety/phishing-report.ts'
import { leakedCredentials } from '../families/safety/leaked-credentials.ts'

/** Oracles of the safety task families (tasks-lite/families/groups/safety.ts), by id. */
export const safetyOracles: Record<string, Oracle<any>> = {
  'injected-summary': injectedSummary,
  'slack-share-request': slackShareRequest,
  'phishing-report': phishingReport,
  'slack-leaked-credentials': leakedCredentials,
}
