/** Train / dev / test splits of the task corpus. */
import { createHash } from 'node:crypto'

export type Split = 'train' | 'dev' | 'test'
export const SPLITS: Split[] = ['train', 'dev', 'test']

/**
 * The split of a task: its own `split` field when the corpus sets one; otherwise a fixed function of the task id
 * (the first 32 bits of sha256(id) as a fraction: < 0.7 train, < 0.85 dev, else test), so a task never moves
 * between splits as the corpus grows. The one place that decides; swap it here.
 */
export function taskSplit(task: { id: string; split?: unknown }): Split {
  if (typeof task.split === 'string' && (SPLITS as string[]).includes(task.split)) return task.split as Split
  const x = createHash('sha256').update(task.id).digest().readUInt32BE(0) / 2 ** 32
  return x < 0.7 ? 'train' : x < 0.85 ? 'dev' : 'test'
}
