import type { Gym } from './index.ts'
import { runProgram } from './program.ts'
import type { TaskSpec } from './task.ts'
import type { OracleResult } from '../oracles/types.ts'
import { services } from '../server/registry.ts'
import { registeredOperationIds } from '../server/coverage.ts'

/** Operation ids a task needs that no service registers yet (the task is pending until they land). */
export function missingOperations(task: TaskSpec): string[] {
  const have = new Set(services.flatMap((s) => registeredOperationIds(s)))
  return task.requires.filter((id) => !have.has(id))
}

/** The validation outcome of one task instance. */
export type TaskValidation = {
  id: string
  family: string
  reference: OracleResult
  noop: OracleResult
  nearMisses: { name: string; result: OracleResult }[]
  ok: boolean
  problems: string[]
  /** Set when the task waits for a service method that is not implemented yet (not run, not a failure). */
  pending?: string[]
}

/** Runs reference, no-op and every near miss of a task through fresh episodes and checks the oracle's verdicts. */
export async function validateTask(gym: Gym, task: TaskSpec): Promise<TaskValidation> {
  const missing = missingOperations(task)
  if (missing.length) {
    const none: OracleResult = { reward: 0, passed: false, metrics: {}, violations: [], details: { checks: [] } }
    return { id: task.id, family: task.family, reference: none, noop: none, nearMisses: [], ok: true, problems: [], pending: missing }
  }
  const run = async (program: TaskSpec['reference']) => {
    const ep = gym.reset(task)
    try {
      await runProgram(ep, program)
      return ep.verify()
    } finally {
      ep.close()
    }
  }
  const problems: string[] = []
  const reference = await run(task.reference)
  if (!reference.passed || reference.reward !== 1) problems.push(`reference: passed=${reference.passed} reward=${reference.reward} ${explain(reference)}`)
  const noop = await run([])
  if (noop.passed || noop.reward > 0) problems.push(`no-op: passed=${noop.passed} reward=${noop.reward}`)
  const nearMisses = []
  for (const nm of task.nearMisses) {
    const result = await run(nm.program)
    if (result.passed) problems.push(`near miss "${nm.name}" passed`)
    nearMisses.push({ name: nm.name, result })
  }
  if (task.nearMisses.length < 2) problems.push('fewer than two near misses')
  return { id: task.id, family: task.family, reference, noop, nearMisses, ok: problems.length === 0, problems }
}

function explain(r: OracleResult): string {
  const failed = r.details.checks.filter((c) => !c.ok).map((c) => c.name)
  return [...failed.map((f) => `failed: ${f}`), ...r.violations.map((v) => `${v.kind}: ${v.message}`)].join('; ')
}

/** A per-family table of validation results. */
export function familyTable(results: TaskValidation[]): string {
  const fams = [...new Set(results.map((r) => r.family))].sort()
  const rows = fams.map((f) => {
    const rs = results.filter((r) => r.family === f)
    const nm = rs.flatMap((r) => r.nearMisses)
    const pending = rs.find((r) => r.pending)?.pending
    if (pending) return [f, rs.length, '-', '-', '-', `pending: ${pending.join(', ')} not implemented`]
    return [f, rs.length, rs.filter((r) => r.reference.passed && r.reference.reward === 1).length, rs.filter((r) => !r.noop.passed && r.noop.reward <= 0).length, `${nm.filter((n) => !n.result.passed).length}/${nm.length}`, rs.every((r) => r.ok) ? 'ok' : 'FAIL']
  })
  const head = ['family', 'instances', 'reference ok', 'no-op ok', 'near misses failing', 'status']
  const all = [head, ...rows.map((r) => r.map(String))]
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  return all.map((r, j) => r.map((x, i) => x.padEnd(w[i]!)).join('  ') + (j === 0 ? `\n${w.map((n) => '-'.repeat(n)).join('  ')}` : '')).join('\n')
}
