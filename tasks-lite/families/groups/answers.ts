import type { Family } from '../common.ts'
import { gmailSearchAnswer } from '../answers/gmail-search-answer.ts'
import { calendarOffsiteLocalTime } from '../answers/calendar-offsite-local-time.ts'
import { slackDecisionAnswer } from '../answers/slack-decision-answer.ts'
import { gmailCalendarRoomAnswer } from '../answers/gmail-calendar-room-answer.ts'
import { driveDocsFigureAnswer } from '../answers/drive-docs-figure-answer.ts'
import { calendarFreebusyAnswer } from '../answers/calendar-freebusy-answer.ts'
import { gmailThreadCountAnswer } from '../answers/gmail-thread-count-answer.ts'
import { driveSharingAnswer } from '../answers/drive-sharing-answer.ts'

/** The answer task families (the deliverable is the final answer), in a stable order; judged by `final-answer`. */
export const answerFamilies: Family[] = [
  gmailSearchAnswer,
  calendarOffsiteLocalTime,
  slackDecisionAnswer,
  gmailCalendarRoomAnswer,
  driveDocsFigureAnswer,
  calendarFreebusyAnswer,
  gmailThreadCountAnswer,
  driveSharingAnswer,
]
