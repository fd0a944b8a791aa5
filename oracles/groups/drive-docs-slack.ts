import type { Oracle } from '../types.ts'
import { slackDmAnswer } from '../families/dds/slack-dm-answer.ts'
import { slackPin } from '../families/dds/slack-pin.ts'

/** Oracles of the drive-docs-slack task families (tasks-lite/families/groups/drive-docs-slack.ts), by id. */
export const driveDocsSlackOracles: Record<string, Oracle<any>> = {
  'slack-dm-answer': slackDmAnswer,
  'slack-pin': slackPin,
}
