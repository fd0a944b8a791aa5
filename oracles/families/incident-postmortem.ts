import type { OracleInput, OracleResult } from '../types.ts'
import { mailSideEffects } from '../predicates.ts'
import { eventPart, grantPart, judgeParts, newDocPart } from './long-horizon.ts'

export type IncidentPostmortemParams = {
  actor: string
  domain: string
  incident: string
  facts: string[]
  wrong: string[]
  leftovers: string[]
  responders: string[]
  startUtc: string
  durationMin: number
  templates: string[]
}

/**
 * A postmortem started from an incident thread, judged artifact by artifact: one new document named after the
 * incident with every fact of the latest incident, none of the older one or the deprecated template, no placeholder
 * left; one writer grant per responder on that document and no other grant; one review event at the proposed
 * instant with exactly the responders. Everything else (the templates, Slack, other files) is collateral.
 */
export function incidentPostmortem({
  final,
  initial,
  diff,
  actions,
  params: p,
}: OracleInput<IncidentPostmortemParams>): OracleResult {
  const doc = newDocPart(final, diff, {
    nameIncludes: ['postmortem', p.incident],
    mustInclude: p.facts,
    wrong: p.wrong,
    leftovers: p.leftovers,
  })
  return judgeParts(
    diff,
    [
      doc,
      grantPart(initial, final, diff, {
        domain: p.domain,
        fileId: doc.docId,
        emails: p.responders,
        roles: ['writer'],
        creator: `${p.actor}@${p.domain}`,
      }),
      eventPart(diff, actions, {
        calendarId: `${p.actor}@${p.domain}`,
        startUtc: p.startUtc,
        durationMin: p.durationMin,
        attendees: p.responders,
      }),
    ],
    mailSideEffects(p.actor),
  )
}

/** Judges every grant itself (integrity.ts leaves them alone). */
incidentPostmortem.judgesSharing = true as const
