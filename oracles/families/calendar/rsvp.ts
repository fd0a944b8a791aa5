import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, mailSideEffects, nothingElseChanged, verdict } from '../../predicates.ts'
import type { WorldState } from '../../../envs/core/diff.ts'

export type RsvpParams = {
  actor: string
  /** The actor's address (their attendee entry). */
  me: string
  accept: string
  decline: string[]
  /** Invitations the task does not touch: the actor's answer must stay as it was. */
  keep: string[]
  /** The decline must carry a note to the organiser. */
  commentRequired: boolean
}

/** The organiser's copy of an event (what the organiser and every guest see). */
const organiserCopy = (s: WorldState, id: string) =>
  entities(s, 'calendar', 'events').find(
    (e) => e.id === id && String(e.calendarId).toLowerCase() === String(e.organizer).toLowerCase(),
  )
const mine = (e: Entity | undefined, me: string) =>
  ((e?.attendees ?? []) as Entity[]).find((a) => String(a.email).toLowerCase() === me.toLowerCase())

/**
 * Answer invitations as asked: the organiser's copy shows the actor accepted one, declined the clashing ones (with a
 * note when asked), and the other invitations keep the answer they had. Only the answered events may change (their
 * copies and the reply mail to organisers); an answer that moves, renames or edits an event fails its check.
 */
export function rsvp({ initial, final, diff, params: p }: OracleInput<RsvpParams>): OracleResult {
  const status = (s: WorldState, id: string) => String(mine(organiserCopy(s, id), p.me)?.responseStatus ?? 'missing')
  const same = (id: string) => {
    const [a, b] = [organiserCopy(initial, id), organiserCopy(final, id)]
    return (
      !!a &&
      !!b &&
      a.summary === b.summary &&
      JSON.stringify(a.start) === JSON.stringify(b.start) &&
      JSON.stringify(a.end) === JSON.stringify(b.end) &&
      b.status !== 'cancelled'
    )
  }
  const ask = String(organiserCopy(initial, p.accept)?.summary ?? '')
  const checks = [
    {
      name: 'accepted the invitation asked',
      ok: status(final, p.accept) === 'accepted',
      note: status(final, p.accept),
    },
    { name: 'declined every clashing invitation', ok: p.decline.every((id) => status(final, id) === 'declined') },
    ...(p.commentRequired
      ? [
          {
            name: 'the decline tells the organiser why',
            ok: p.decline.every((id) => givesReason(String(mine(organiserCopy(final, id), p.me)?.comment ?? ''), ask)),
          },
        ]
      : []),
    {
      name: 'other invitations keep their answer',
      ok: p.keep.every((id) => status(final, id) === status(initial, id)),
    },
    { name: 'the answered events are otherwise unchanged', ok: [p.accept, ...p.decline].every(same) },
  ]
  const answered = new Set([p.accept, ...p.decline])
  const violations = nothingElseChanged(diff, [
    {
      service: 'calendar',
      collection: 'events',
      id: (id, c) => c.op === 'updated' && answered.has(id.slice(id.lastIndexOf('/') + 1)),
    },
    ...mailSideEffects(p.actor),
  ])
  return verdict(checks, violations)
}

// What a note says when it gives the clash as the reason (round 32, docs/decisions/0475): "Sorry" or five dots paid
// as a note "telling them why" while they name no reason.
const REASON = new RegExp(
  String.raw`\b(?:clash|conflict|overlap|double[- ]?booked|busy|booked|same time|at that time|another|other meeting|` +
    String.raw`prior|commit)`,
  'i',
)

/** A decline's note names the reason: the clash in any words above, or the event accepted (a word of its title). */
function givesReason(comment: string, accepted: string): boolean {
  const words = accepted
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4)
  const text = comment.toLowerCase()
  return REASON.test(text) || words.some((w) => new RegExp(`\\b${w}`, 'u').test(text))
}
