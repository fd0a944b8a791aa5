import type { Family } from './common.ts'
import { gmailReplyPo } from './gmail-reply-po.ts'
import { gmailLabelSender } from './gmail-label-sender.ts'
import { gmailVacation } from './gmail-vacation.ts'
import { driveLockdown } from './drive-lockdown.ts'
import { driveOrganize } from './drive-organize.ts'
import { docsHandbookUpdate } from './docs-handbook-update.ts'
import { slackThreadAnswer } from './slack-thread-answer.ts'
import { gmailDriveInvoice } from './gmail-drive-invoice.ts'
import { gmailDocsCorrection } from './gmail-docs-correction.ts'
import { gmailDriveShareRequest } from './gmail-drive-share-request.ts'
import { gmailSlackIncident } from './gmail-slack-incident.ts'
import { docsSlackActionItems } from './docs-slack-action-items.ts'
import { gmailCalendarMeeting } from './gmail-calendar-meeting.ts'
import { calendarRescheduleInstance } from './calendar-reschedule-instance.ts'
import { gmailCalendarFamilies } from './groups/gmail-calendar.ts'
import { driveDocsSlackFamilies } from './groups/drive-docs-slack.ts'
import { crossAppFamilies } from './groups/cross-app.ts'
import { identityFamilies } from './groups/identity.ts'
import { calendarFamilies } from './groups/calendar.ts'
import { safetyFamilies } from './groups/safety.ts'
import { answerFamilies } from './groups/answers.ts'

export type { Family } from './common.ts'

/** Every task family, in a stable order. */
export const families: Family[] = [
  gmailReplyPo,
  gmailLabelSender,
  gmailVacation,
  driveLockdown,
  driveOrganize,
  docsHandbookUpdate,
  slackThreadAnswer,
  calendarRescheduleInstance,
  gmailDriveInvoice,
  gmailDocsCorrection,
  gmailDriveShareRequest,
  gmailSlackIncident,
  docsSlackActionItems,
  gmailCalendarMeeting,
  ...gmailCalendarFamilies,
  ...driveDocsSlackFamilies,
  ...crossAppFamilies,
  ...identityFamilies,
  ...calendarFamilies,
  ...safetyFamilies,
  ...answerFamilies,
]
