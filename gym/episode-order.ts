import type { ProgramStep } from './task.ts'

/**
 * The order validation runs a task's episodes in when they share request prefixes (gym/shared-prefix.ts): only the
 * last episode's requests can be answered from, so each episode should follow the one it repeats the most of.
 *
 * What an episode will request is known only as it runs (a step may fill its arguments from earlier answers,
 * gym/program-grammar.ts), but its steps as written are known before: `starts`, the steps it begins with as the
 * task's actor (a program, or what an attack runs first). Two episodes whose first k steps are written alike make
 * the same first k requests: from the same start the same requests get the same answers, so the arguments filled
 * from them are the same too. Sorted by their steps as written (element by element, a shorter sequence before the
 * longer ones it begins), the episodes follow a depth-first walk of the trie of those steps, the order in which
 * every episode shares the most with the one before it that such a trie allows. Ties keep the given order.
 *
 * Verdicts do not depend on the order: every episode starts from the task's start (docs/decisions/0339).
 */
export function sharingOrder(starts: readonly (readonly ProgramStep[])[]): number[] {
  const keys = starts.map(requestKeys)
  return keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a]!, keys[b]!) || a - b)
}

/** The steps a program requests with, as written: those before its first `done` (which ends it, program.ts). */
export function requestKeys(program: readonly ProgramStep[]): string[] {
  const keys: string[] = []
  for (const step of program) {
    if (step.tool === 'done') break
    keys.push(JSON.stringify([step.tool, step.args]))
  }
  return keys
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1
  return a.length - b.length
}
