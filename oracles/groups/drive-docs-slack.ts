import type { Oracle } from '../types.ts'
import { slackDmAnswer } from '../families/dds/slack-dm-answer.ts'
import { slackPin } from '../families/dds/slack-pin.ts'
import { slackReminder } from '../families/dds/slack-reminder.ts'
import { slackScheduled } from '../families/dds/slack-scheduled.ts'
import { slackUsergroupMembers } from '../families/dds/slack-usergroup-members.ts'
import { driveMoveInto } from '../families/dds/drive-move-into.ts'
import { docsNumberedList } from '../families/dds/docs-numbered-list.ts'
import { docsTermsUpdate } from '../families/docs/docs-terms-update.ts'
import { driveCommentResolve } from '../families/docs/drive-comment-resolve.ts'
import { restoreVersion } from '../families/drive/restore-version.ts'
import { exportMarkdown } from '../families/drive/export-markdown.ts'
import { docsApplySuggestions } from '../families/docs/docs-apply-suggestions.ts'

/** Oracles of the drive-docs-slack task families (tasks-lite/families/groups/drive-docs-slack.ts), by id. */
export const driveDocsSlackOracles: Record<string, Oracle<any>> = {
  'slack-dm-answer': slackDmAnswer,
  'slack-pin': slackPin,
  'slack-reminder': slackReminder,
  'slack-scheduled': slackScheduled,
  'slack-usergroup-members': slackUsergroupMembers,
  'drive-move-into': driveMoveInto,
  'docs-numbered-list': docsNumberedList,
  'docs-terms-update': docsTermsUpdate,
  'drive-comment-resolve': driveCommentResolve,
  'drive-restore-version': restoreVersion,
  'drive-export-markdown': exportMarkdown,
  'docs-apply-suggestions': docsApplySuggestions,
}
