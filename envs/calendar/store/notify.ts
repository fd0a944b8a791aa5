import type { Db } from '../../core/db.ts'
import { nowMs } from '../../core/clock.ts'
import { expandGroupAddresses } from '../../core/groups.ts'
import { deliverInternalMail } from '../../gmail/deliver.ts'
import { invitationMail, type MailKind, type SharedParts } from '../invites/mail.ts'
import type { EventRow } from '../schema.ts'
import { findCalendar } from './access.ts'
import { usersByEmail } from './users.ts'
import { dataOf, recurrenceOf, resolved, timeOf } from './events.ts'

export type SendUpdates = 'all' | 'externalOnly' | 'none'

/**
 * Sends invitation, update, cancellation or reply mails about an event through Gmail's internal delivery
 * (only world users have inboxes). `externalOnly` reaches guests outside the world's domain, who have no
 * inbox here, so it delivers nothing.
 */
export function notify(
  db: Db,
  row: EventRow,
  kind: MailKind,
  recipients: string[],
  sendUpdates: SendUpdates,
  replier?: { email: string; responseStatus: string },
): void {
  if (sendUpdates !== 'all') return
  const d = dataOf(row)
  // findUserByEmail reads every world user per call; the users cannot change while this runs, so they are read once.
  const users = usersByEmail(db)
  const organizer = { email: row.organizerEmail, name: row.organizerName ?? users(row.organizerEmail)?.name }
  const attendees = (d.attendees ?? []).map((a) => ({
    email: a.email,
    name: a.displayName,
    responseStatus: a.responseStatus,
  }))
  const meet = (d.conferenceData as { entryPoints?: { uri?: string }[] } | undefined)?.entryPoints?.[0]?.uri
  const start = resolved(timeOf(row.start))
  const end = resolved(timeOf(row.end))
  const recurrence = recurrenceOf(row)
  const recurrenceId = row.originalStart ? resolved(timeOf(row.originalStart)) : undefined
  const htmlLink = `https://www.google.com/calendar/event?eid=${Buffer.from(`${row.id} ${row.calendarId}`).toString('base64url')}`
  // The clock does not move within a request: one read for every recipient's mail (none without a recipient).
  let now: number | undefined
  // Every recipient's mail differs only in the recipient and their zone: the invitation part and "when" are shared.
  const shared: SharedParts = { when: new Map() }
  for (const to of expandGroupAddresses(db, recipients)) {
    const user = users(to)
    if (!user) continue
    const mail = invitationMail(
      {
        kind,
        summary: typeof d.summary === 'string' ? d.summary : '(No title)',
        description: d.description as string | undefined,
        location: d.location as string | undefined,
        start,
        end,
        recipientZone: findCalendar(db, user.email)?.timeZone ?? user.timeZone,
        recipient: { email: user.email, name: user.name },
        organizer,
        attendees,
        replier: replier ? { ...replier, name: users(replier.email)?.name } : undefined,
        iCalUID: row.iCalUID,
        sequence: row.sequence,
        recurrence,
        recurrenceId,
        htmlLink,
        meetLink: meet,
        nowMs: (now ??= nowMs(db)),
      },
      shared,
    )
    const method = kind === 'cancel' ? 'CANCEL' : kind === 'reply' ? 'REPLY' : 'REQUEST'
    const sender = kind === 'reply' ? replier!.email : organizer.email
    deliverInternalMail(db, {
      from: { name: users(sender)?.name ?? sender, email: 'calendar-notification@google.com' },
      to: [user.email],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: [
        { filename: 'invite.ics', mimeType: `text/calendar; method=${method}`, data: Buffer.from(mail.ics) },
      ],
      headers: { 'Reply-To': sender },
    })
  }
}

/** Guests who get mail about the organizer's changes: attendees other than the organizer. */
export const guestsOf = (row: EventRow) =>
  (dataOf(row).attendees ?? []).map((a) => a.email.toLowerCase()).filter((e) => e !== row.organizerEmail.toLowerCase())
