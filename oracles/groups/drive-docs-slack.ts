import type { Oracle } from '../types.ts'

/** Oracles of the drive-docs-slack task families (tasks-lite/families/groups/drive-docs-slack.ts), by id. */
export const driveDocsSlackOracles: Record<string, Oracle<any>> = {}
