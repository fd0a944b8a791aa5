import type { Action } from '../../../gym/episode.ts'
import type { TaskSpec } from '../../../gym/task.ts'

/** A program step or an episode step reduced to what identifies the call: tool, method and path. */
function signature(tool: string, args: Record<string, unknown>): string {
  if (tool === 'http_request') return `${String(args.method ?? '').toUpperCase()} ${String(args.path ?? '').split('?')[0]}`
  return tool
}

/** `{{binding}}` segments of a program's path match any segment of an episode's path. */
function matches(template: string, actual: string): boolean {
  const t = template.split('/')
  const a = actual.split('/')
  return t.length === a.length && t.every((seg, i) => seg === a[i] || /\{\{[^}]+\}\}/.test(seg))
}

export type Resemblance = { name: string; kind: 'reference' | 'near-miss'; score: number }

/**
 * How much each known program (the reference solution and the task's near-misses) looks like the episode:
 * the share of calls the two have in common (matched in order, ignoring `done`), over the longer of the two.
 */
export function resemblances(task: TaskSpec, steps: Action[]): Resemblance[] {
  const actual = steps.filter((s) => s.tool !== 'done').map((s) => signature(s.tool, s.arguments ?? {}))
  const score = (program: TaskSpec['reference']) => {
    const wanted = program.filter((p) => p.tool !== 'done').map((p) => signature(p.tool, p.args))
    if (!wanted.length && !actual.length) return 1
    let i = 0
    let common = 0
    for (const w of wanted) {
      const j = actual.findIndex((a, k) => k >= i && matches(w, a))
      if (j >= 0) { common++; i = j + 1 }
    }
    return common / Math.max(wanted.length, actual.length)
  }
  const out: Resemblance[] = [{ name: 'reference solution', kind: 'reference', score: score(task.reference) }]
  for (const n of task.nearMisses) out.push({ name: n.name, kind: 'near-miss', score: score(n.program) })
  return out.sort((a, b) => b.score - a.score)
}
