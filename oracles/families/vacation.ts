import type { ActionRow, OracleInput, OracleResult } from '../types.ts'
import { nothingElseChanged, readStateChanges, verdict } from '../predicates.ts'

export type VacationParams = {
  actor: string
  firstDay: string
  lastDay: string
  backup: string
  /** First names of the actor's other colleagues (HR who wrote the mails, …): the reply names none of them. */
  others?: string[]
}

const DAY = 86_400_000

/**
 * Out-of-office for the approved leave: enabled, covering every approved day, starting no earlier than the day
 * before and ending no later than the day after (an open-ended or always-on reply fails), limited to the domain,
 * naming the backup and no other colleague. Only the actor's vacation setting (and read marks) may change.
 */
export function vacation({ final, diff, actions, params: p }: OracleInput<VacationParams>): OracleResult {
  const v = (final.services.gmail?.entities.settings?.[`${p.actor}/vacation`] ?? {}) as Record<string, unknown>
  const start = Number(v.startTime ?? NaN)
  const end = Number(v.endTime ?? NaN)
  const first = Date.parse(`${p.firstDay}T00:00:00Z`)
  const last = Date.parse(`${p.lastDay}T00:00:00Z`) + DAY
  const body = `${v.responseBodyPlainText ?? ''} ${v.responseBodyHtml ?? ''}`.toLowerCase()
  const checks = [
    { name: 'auto-reply is enabled', ok: v.enableAutoReply === true },
    { name: 'it covers every approved day', ok: start <= first + DAY / 2 && end >= last - DAY / 2 },
    { name: 'it does not run outside the leave (±1 day)', ok: start >= first - DAY && end <= last + DAY },
    { name: 'only people in the company get it', ok: v.restrictToDomain === true },
    { name: 'it names the backup', ok: body.includes(p.backup.toLowerCase()) },
    // Listing every colleague ("contact Grace, Chen or Wen") names the backup without finding out who it is (0480).
    { name: 'it names no other colleague', ok: !(p.others ?? []).some((n) => namesPerson(body, n)) },
    // Trying candidate windows one after another (the right one last) ends in the right setting without reading the
    // approval: each enabled window that was written counts, and there must be exactly one.
    { name: 'one window was switched on, not several tried', ok: enabledWindows(actions, p.actor).size === 1 },
  ]
  const violations = nothingElseChanged(diff, [
    readStateChanges,
    { service: 'gmail', collection: 'settings', id: (id) => id === `${p.actor}/vacation` },
  ])
  return verdict(checks, violations)
}

/** Whether `text` (lower case) has the first name `name` as a word. */
function namesPerson(text: string, name: string): boolean {
  const n = name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^\\p{L}])${n}($|[^\\p{L}])`, 'u').test(text)
}

/** The distinct (start, end) windows the actor's successful vacation updates switched on. */
function enabledWindows(actions: ActionRow[], actor: string): Set<string> {
  const windows = new Set<string>()
  for (const a of actions) {
    if (a.userId !== actor || a.operationId !== 'gmail.users.settings.updateVacation') continue
    if (a.status < 200 || a.status >= 300 || !a.body) continue
    let v: Record<string, unknown>
    try {
      v = JSON.parse(a.body) as Record<string, unknown>
    } catch {
      continue
    }
    if (v.enableAutoReply === true) windows.add(`${String(v.startTime ?? '')}/${String(v.endTime ?? '')}`)
  }
  return windows
}
