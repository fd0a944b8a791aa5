/** Shared bits of the answer families (the deliverable is the agent's final text, judged by oracles/answer.ts). */
import type { ProgramStep } from '../../../gym/task.ts'
import { MONTHS } from '../common.ts'
import { doneStep, httpStep } from '../../../gym/program.ts'

export { doneStep }

/** Gmail: list the actor's messages matching `q`. */
export const gmailSearch = (q: string, save: Record<string, string>): ProgramStep =>
  httpStep('GET', '/gmail/v1/users/me/messages', { query: { q } }, save)

/** Gmail: read one message in full. */
export const gmailRead = (id: string, save?: Record<string, string>): ProgramStep =>
  httpStep('GET', `/gmail/v1/users/me/messages/${id}`, { query: { format: 'full' } }, save)

/** A money amount as a person writes it ($12,340.50). */
export const dollars = (v: number) =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

/** An amount with cents in [lo, hi] (cents keep it apart from ids and counts in the same text). */
export const amount = (r: { int(lo: number, hi: number): number }, lo: number, hi: number) =>
  r.int(lo, hi) + (r.int(1, 19) * 5) / 100

/** The English name of month `m` (1-12). */
export const monthName = (m: number) => MONTHS[(m - 1 + 12) % 12]!
