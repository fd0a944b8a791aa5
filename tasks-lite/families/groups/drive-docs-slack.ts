import type { Family } from '../common.ts'
import { driveSlackContractAnswer } from '../dds/drive-slack-contract-answer.ts'
import { docsSlackDmVenue } from '../dds/docs-slack-dm-venue.ts'
import { slackPinFinal } from '../dds/slack-pin-final.ts'
import { slackReminderDeadline } from '../dds/slack-reminder-deadline.ts'
import { slackScheduleLocal } from '../dds/slack-schedule-local.ts'
import { slackUsergroupRotation } from '../dds/slack-usergroup-rotation.ts'
import { driveSharedDriveMove } from '../dds/drive-shared-drive-move.ts'
import { slackDocsFixFigure } from '../dds/slack-docs-fix-figure.ts'
import { docsNumberedSteps } from '../dds/docs-numbered-steps.ts'
import { docsTermsUpdate } from '../docs/docs-terms-update.ts'
import { driveCommentResolve } from '../docs/drive-comment-resolve.ts'
import { driveRestoreVersion } from '../docs/drive-restore-version.ts'
import { driveExportMarkdown } from '../docs/drive-export-markdown.ts'
import { docsApplySuggestions } from '../docs/docs-apply-suggestions.ts'
import { docsSuggestionAnswer } from '../docs/docs-suggestion-answer.ts'

/** The drive-docs-slack task families, in a stable order (their oracles: oracles/groups/drive-docs-slack.ts). */
export const driveDocsSlackFamilies: Family[] = [
  driveSlackContractAnswer,
  docsSlackDmVenue,
  slackPinFinal,
  slackReminderDeadline,
  slackScheduleLocal,
  slackUsergroupRotation,
  driveSharedDriveMove,
  slackDocsFixFigure,
  docsNumberedSteps,
  docsTermsUpdate,
  driveCommentResolve,
  driveRestoreVersion,
  driveExportMarkdown,
  docsApplySuggestions,
  docsSuggestionAnswer,
]
