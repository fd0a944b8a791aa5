/**
 * Train / dev / test assignment, stored here so it never moves as the corpus grows.
 *
 * - Whole families held out: every instance of a family in HELD_OUT_FAMILIES is `test`, so a model trained on `train`
 *   meets those task kinds for the first time at evaluation. The list spans every service and single- and multi-app
 *   work. A family joins it only when it is added, never later (its instances would leave `train`).
 * - Every other family: a fixed function of the task id (the first 32 bits of sha256(id) as a fraction: < 0.7
 *   train, < 0.85 dev, else test), so held-out seeds of training families exist too.
 */
import { createHash } from 'node:crypto'

export type Split = 'train' | 'dev' | 'test'

export const HELD_OUT_FAMILIES: readonly string[] = [
  'gmail-vacation',
  'drive-organize',
  'slack-usergroup-rotation',
  'docs-numbered-steps',
  'gmail-docs-correction',
  'drive-slack-contract-answer',
  'identity-offboard-leaver',
  'gmail-calendar-meeting',
]

/** The split of one task of a family. */
export function splitOf(family: string, taskId: string): Split {
  if (HELD_OUT_FAMILIES.includes(family)) return 'test'
  const x = createHash('sha256').update(taskId).digest().readUInt32BE(0) / 2 ** 32
  return x < 0.7 ? 'train' : x < 0.85 ? 'dev' : 'test'
}
