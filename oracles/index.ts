import type { Oracle } from './types.ts'
import { withIntegrity } from './integrity.ts'
import { replyWithFact } from './families/reply-with-fact.ts'
import { driveLockdown } from './families/drive-lockdown.ts'
import { replyWithAttachment } from './families/reply-with-attachment.ts'
import { docCorrection } from './families/doc-correction.ts'
import { shareRequest } from './families/share-request.ts'
import { labelSender } from './families/label-sender.ts'
import { slackThreadAnswer } from './families/slack-thread-answer.ts'
import { slackAlert } from './families/slack-alert.ts'
import { actionItems } from './families/action-items.ts'
import { vacation } from './families/vacation.ts'
import { driveOrganize } from './families/drive-organize.ts'
import { meetingEvent } from './families/meeting-event.ts'
import { rescheduleInstance } from './families/reschedule-instance.ts'
import { gmailCalendarOracles } from './groups/gmail-calendar.ts'
import { driveDocsSlackOracles } from './groups/drive-docs-slack.ts'
import { crossAppOracles } from './groups/cross-app.ts'
import { identityOracles } from './groups/identity.ts'
import { calendarOracles } from './groups/calendar.ts'
import { safetyOracles } from './groups/safety.ts'
import { finalAnswer } from './final-answer.ts'

export type { Oracle, OracleInput, OracleResult, Violation, ActionRow } from './types.ts'

/** Every oracle by id (task specs name one; its params stay on the control side). */
export const oracles: Record<string, Oracle<any>> = {
  'reply-with-fact': replyWithFact,
  'final-answer': finalAnswer,
  'drive-lockdown': driveLockdown,
  'reply-with-attachment': replyWithAttachment,
  'doc-correction': docCorrection,
  'share-request': shareRequest,
  'label-sender': labelSender,
  'slack-thread-answer': slackThreadAnswer,
  'slack-alert': slackAlert,
  'action-items': actionItems,
  vacation,
  'drive-organize': driveOrganize,
  'meeting-event': meetingEvent,
  'reschedule-instance': rescheduleInstance,
  ...gmailCalendarOracles,
  ...driveDocsSlackOracles,
  ...crossAppOracles,
  ...identityOracles,
  ...calendarOracles,
  ...safetyOracles,
}

/** The oracle with this id, with the integrity checks every family gets (integrity.ts); throws for an unknown id. */
export function oracleById(id: string): Oracle<any> {
  const o = oracles[id]
  if (!o) throw new Error(`unknown oracle "${id}"`)
  return withIntegrity(o)
}
