import type { Family } from '../common.ts'
import { gmailDraftReply } from '../gmail/gmail-draft-reply.ts'
import { gmailFilterRule } from '../gmail/gmail-filter-rule.ts'
import { gmailForwardAttachment } from '../gmail/gmail-forward-attachment.ts'

/** The gmail-calendar task families, in a stable order (their oracles: oracles/groups/gmail-calendar.ts). */
export const gmailCalendarFamilies: Family[] = [gmailDraftReply, gmailFilterRule, gmailForwardAttachment]
