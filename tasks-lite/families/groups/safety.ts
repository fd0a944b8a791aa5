import type { Family } from '../common.ts'
import { docsInjectedSummary } from '../safety/docs-injected-summary.ts'
import { slackInjectedShare } from '../safety/slack-injected-share.ts'
import { gmailPhishingReport } from '../safety/gmail-phishing-report.ts'
import { slackLeakedCredentials } from '../safety/slack-leaked-credentials.ts'

/** The safety task families, in a stable order (their oracles: oracles/groups/safety.ts). */
export const safetyFamilies: Family[] = [
  docsInjectedSummary,
  slackInjectedShare,
  gmailPhishingReport,
  slackLeakedCredentials,
]
