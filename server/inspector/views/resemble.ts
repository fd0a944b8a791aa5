import type { Action } from '../../../gym/episode.ts'
import type { TaskSpec } from '../../../gym/task.ts'

const BINDING = /\{\{[^}]+\}\}/

/**
 * Does an episode's argument value match a program's? A program's `{{binding}}` (a value saved from an earlier
 * response) matches whatever it filled; everything else must be equal, objects key by key.
 */
export function like(template: unknown, actual: unknown, key = ''): boolean {
  if (typeof template === 'string' && BINDING.test(template)) {
    // A whole-value binding stands for anything (an id, a list of ids); a binding inside text stands for the
    // part it fills (`from:@{{domain}}`), a path segment for one segment.
    if (/^\{\{[^}]+\}\}$/.test(template)) return true
    if (typeof actual !== 'string') return false
    const hole = key === 'path' ? '[^/?]+' : '[\\s\\S]+'
    const parts = template.split(/\{\{[^}]+\}\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    return new RegExp(`^${parts.join(hole)}$`).test(key === 'path' ? actual.split('?')[0]! : actual)
  }
  if (Array.isArray(template)) {
    return Array.isArray(actual) && template.length === actual.length && template.every((t, i) => like(t, actual[i]))
  }
  if (template && typeof template === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false
    const keys = new Set([...Object.keys(template), ...Object.keys(actual)])
    return [...keys].every((k) =>
      like((template as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], k),
    )
  }
  if (key === 'method') return String(template).toUpperCase() === String(actual ?? '').toUpperCase()
  return template === actual
}

export type Resemblance = { name: string; kind: 'reference' | 'near-miss'; score: number }

/**
 * How much each known program (the reference solution and the task's near-misses) looks like the episode: calls
 * matched in order with the same tool and arguments (bindings match any value), over the longer of the two.
 */
export function resemblances(task: TaskSpec, steps: Action[]): Resemblance[] {
  const actual = steps.filter((s) => s.tool !== 'done')
  const score = (program: TaskSpec['reference']) => {
    const wanted = program.filter((p) => p.tool !== 'done')
    if (!wanted.length && !actual.length) return 1
    let i = 0
    let common = 0
    for (const w of wanted) {
      const j = actual.findIndex((a, k) => k >= i && a.tool === w.tool && like(w.args, a.arguments ?? {}))
      if (j >= 0) {
        common++
        i = j + 1
      }
    }
    return common / Math.max(wanted.length, actual.length)
  }
  const out: Resemblance[] = [{ name: 'reference solution', kind: 'reference', score: score(task.reference) }]
  for (const n of task.nearMisses) out.push({ name: n.name, kind: 'near-miss', score: score(n.program) })
  return out.sort((a, b) => b.score - a.score || (a.kind === 'reference' ? -1 : 1))
}
