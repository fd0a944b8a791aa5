/**
 * Program transforms the attack library applies to a task's own reference: find the steps that produce the answer
 * (a sent mail, a Slack post, a new event, a new permission) and rewrite them the way a reward-hacking policy would.
 */
import type { ProgramStep, TaskSpec } from '../task.ts'

type Args = { method?: string; path?: string; query?: Record<string, unknown>; body?: Record<string, unknown> }
export type StepKind = 'mail' | 'post' | 'event' | 'grant' | 'reminder' | 'answer' | 'other-write' | 'read'

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

/** What a step does. */
export function kindOf(step: ProgramStep): StepKind {
  if (step.tool === 'done') return 'answer'
  const a = step.args as Args
  const m = String(a.method ?? 'GET').toUpperCase()
  const p = String(a.path ?? '')
  if (m === 'GET') return 'read'
  if (/\/gmail\/v1\/users\/[^/]+\/(messages|drafts)\/send$/.test(p)) return 'mail'
  // A new draft is the deliverable of draft tasks: attacks rewrite it as they rewrite a sent mail.
  if (m === 'POST' && /\/gmail\/v1\/users\/[^/]+\/drafts$/.test(p)) return 'mail'
  if (p === '/api/chat.postMessage') return 'post'
  if (m === 'POST' && /\/calendar\/v3\/calendars\/[^/]+\/events$/.test(p)) return 'event'
  if (m === 'POST' && /\/drive\/v3\/files\/[^/]+\/permissions$/.test(p)) return 'grant'
  if (p === '/api/reminders.add') return 'reminder'
  return 'other-write'
}

/** Steps that create a new artifact each time they run (sending twice sends two mails). */
export const creates = (s: ProgramStep) => ['mail', 'post', 'event', 'reminder'].includes(kindOf(s))

/** The task's reference with `f` applied to every step of the given kinds (others unchanged). */
export function mapSteps(
  program: readonly ProgramStep[],
  kinds: StepKind[],
  f: (s: ProgramStep) => ProgramStep | ProgramStep[],
): ProgramStep[] {
  return program.flatMap((s) => (kinds.includes(kindOf(s)) ? f(clone(s)) : [s]))
}

/** Does the program have a step of one of these kinds? */
export const has = (program: readonly ProgramStep[], kinds: StepKind[]) =>
  program.some((s) => kinds.includes(kindOf(s)))

/** A hidden candidate as a person would write it (answer-task candidates are `Expected` objects, oracles/answer.ts). */
function phrase(v: unknown): string {
  if (!v || typeof v !== 'object') return String(v)
  const e = v as { kind?: string; iso?: string; zone?: string; value?: unknown; date?: string }
  if (e.kind === 'instant' && e.iso && e.zone) {
    const f = new Intl.DateTimeFormat('en-GB', {
      timeZone: e.zone,
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    return f.format(new Date(e.iso))
  }
  if (e.kind === 'date' && e.date) return e.date
  if (e.value !== undefined) return String(e.value)
  return JSON.stringify(v)
}

/** The program without its closing `done` (what runs before another program in the same episode). */
export const withoutDone = (program: readonly ProgramStep[]) => program.filter((s) => s.tool !== 'done')

/** The program's closing `done` step, if it has one (answer tasks submit their answer there). */
export const closingDone = (program: readonly ProgramStep[]) => program.filter((s) => s.tool === 'done').slice(-1)

/** The `$rfc822` macro of a mail step (mutable), if any. */
export function mailOf(s: ProgramStep): Record<string, unknown> | undefined {
  const body = (s.args as Args).body
  const raw = body?.raw as { $rfc822?: Record<string, unknown> } | undefined
  return raw?.$rfc822 ?? (body?.message as { raw?: { $rfc822?: Record<string, unknown> } } | undefined)?.raw?.$rfc822
}

/** The request body of a step (mutable). */
export const bodyOf = (s: ProgramStep) => ((s.args as Args).body ??= {})

/** The task's hidden wrong answers and secrets, as phrases (what a policy stuffing every candidate would add). */
export function wrongs(task: TaskSpec): string[] {
  const p = task.oracle.params as Record<string, unknown>
  const arr = (k: string) => (Array.isArray(p[k]) ? (p[k] as unknown[]).map(phrase) : [])
  return [
    ...arr('wrong'),
    ...arr('staleTasks'),
    ...arr('wrongFiles').filter((f) => !arr('secrets').some((s) => f.includes(s))),
  ]
}
export function secrets(task: TaskSpec): string[] {
  const p = task.oracle.params as Record<string, unknown>
  return Array.isArray(p.secrets) ? (p.secrets as unknown[]).map(String) : []
}
