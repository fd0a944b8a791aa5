import type { Oracle } from '../types.ts'
import { draftReply } from '../families/gmail/draft-reply.ts'
import { filterRule } from '../families/gmail/filter-rule.ts'
import { forwardAttachment } from '../families/gmail/forward-attachment.ts'

/** Oracles of the gmail-calendar task families (tasks-lite/families/groups/gmail-calendar.ts), by id. */
export const gmailCalendarOracles: Record<string, Oracle<any>> = {
  'gmail-draft-reply': draftReply,
  'gmail-filter-rule': filterRule,
  'gmail-forward-attachment': forwardAttachment,
}
