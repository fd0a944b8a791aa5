/**
 * The task corpus as data: every family's instances (seeds 1..PER_FAMILY), each with its computed tier and stored
 * split, and the index (`tasks-lite/index.jsonl`) that pins them by hash. Generation is pure and takes about a second,
 * so the corpus is regenerated rather than committed (docs/decisions/0130-corpus-on-disk.md).
 */
import { createHash } from 'node:crypto'
import { TaskSpec, type TaskInput } from '../gym/task.ts'
import { families, type Family } from './families/index.ts'
import { splitOf } from './splits.ts'

/** Instances per family in the committed index. */
export const PER_FAMILY = 36

const VOLUME_POINTS = { none: 0, light: 1, medium: 2, heavy: 3 } as const

/**
 * Difficulty from measurable parameters (documented in docs/authoring-tasks.md): haystack volume (0-3), distractors
 * (near misses beyond two: +1), calls in the reference (>= 6: +1, >= 10: +2) and apps involved (2: +1, >= 3: +2).
 * easy <= 2 < medium <= 4 < hard.
 */
export function tierOf(t: Pick<TaskSpec, 'world' | 'nearMisses' | 'reference' | 'services'>): TaskSpec['difficulty'] {
  const apps = new Set(t.services.map((s) => (s === 'docs' ? 'drive' : s))).size
  const score =
    VOLUME_POINTS[t.world?.volume ?? 'none'] +
    (t.nearMisses.length > 2 ? 1 : 0) +
    (t.reference.length >= 10 ? 2 : t.reference.length >= 6 ? 1 : 0) +
    (apps >= 3 ? 2 : apps === 2 ? 1 : 0)
  return score <= 2 ? 'easy' : score <= 4 ? 'medium' : 'hard'
}

/** One instance of a family: parsed, with its tier and split. */
export function instance(f: Family, seed: number): TaskSpec {
  const t = TaskSpec.parse(f.generate(seed) satisfies TaskInput)
  return { ...t, difficulty: tierOf(t), split: splitOf(f.id, t.id) }
}

/** Every instance of every family (seeds 1..perFamily), in family order then seed order. */
export function generateAll(perFamily = PER_FAMILY): TaskSpec[] {
  return families.flatMap((f) => Array.from({ length: perFamily }, (_, i) => instance(f, i + 1)))
}

/** The family with this id, if any. */
export function familyById(id: string): Family | undefined {
  return families.find((f) => f.id === id)
}

/** sha256 of a task's canonical JSON (what `tasks:generate` writes, minus indentation). */
export function taskHash(t: TaskSpec): string {
  return createHash('sha256').update(JSON.stringify(t)).digest('hex')
}

/** One line of tasks-lite/index.jsonl. */
export function indexEntry(t: TaskSpec) {
  const f = familyById(t.family)
  return {
    id: t.id,
    family: t.family,
    split: t.split,
    tier: t.difficulty,
    services: t.services,
    multiApp: f?.multiApp ?? new Set(t.services).size > 1,
    safety: t.safetyCritical,
    answerTask: t.tags.includes('answer'),
    volume: t.world?.volume ?? 'none',
    referenceCalls: t.reference.length,
    sha256: taskHash(t),
  }
}
export type IndexEntry = ReturnType<typeof indexEntry>

/** The index file's text for these tasks. */
export function indexText(tasks: TaskSpec[]): string {
  return tasks.map((t) => JSON.stringify(indexEntry(t))).join('\n') + '\n'
}
