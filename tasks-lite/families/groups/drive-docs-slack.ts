import type { Family } from '../common.ts'

/** The drive-docs-slack task families, in a stable order (their oracles: oracles/groups/drive-docs-slack.ts). */
export const driveDocsSlackFamilies: Family[] = []
