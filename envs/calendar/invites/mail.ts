/**
 * Invitation, update, cancellation and reply mails for Calendar events: subject, text and HTML bodies and an
 * iCalendar part (METHOD:REQUEST/CANCEL/REPLY) that mail clients can import.
 * @see https://developers.google.com/calendar/api/guides/create-events#add_attendees
 * @see https://www.rfc-editor.org/rfc/rfc5546
 */
import { parseRecurrence } from '../time/recurrence-parse.ts'
import type { ResolvedTime } from '../time/zoned.ts'
import { escapeText, icsLocal, icsText, icsUtc, paramValue, vtimezone } from './ics.ts'
import { whenText } from './when.ts'

export type Person = { email: string; name?: string }
export type MailKind = 'invite' | 'update' | 'cancel' | 'reply'

export type InvitationOptions = {
  kind: MailKind
  summary: string
  description?: string
  location?: string
  start: ResolvedTime
  end: ResolvedTime
  /** Zone the recipient reads times in (their calendar's). */
  recipientZone: string
  /**
   * Whose copy this is; shown at the end of the subject. Defaults
   * to the organizer for replies, else the first attendee.
   */
  recipient?: Person
  organizer: Person
  attendees: (Person & { responseStatus?: string })[]
  replier?: Person & { responseStatus: string }
  iCalUID: string
  sequence: number
  recurrence?: string[]
  /** Original start of the one instance this mail is about (an exception of a series): adds RECURRENCE-ID. */
  recurrenceId?: ResolvedTime
  htmlLink: string
  meetLink?: string
  nowMs: number
}

export type InvitationMail = { subject: string; text: string; html: string; ics: string }

const PARTSTAT: Record<string, string> = {
  needsAction: 'NEEDS-ACTION',
  accepted: 'ACCEPTED',
  declined: 'DECLINED',
  tentative: 'TENTATIVE',
}
const REPLY_PREFIX: Record<string, string> = {
  accepted: 'Accepted',
  declined: 'Declined',
  tentative: 'Tentatively accepted',
  needsAction: 'Invitation',
}
const PREFIX: Record<Exclude<MailKind, 'reply'>, string> = {
  invite: 'Invitation',
  update: 'Updated invitation',
  cancel: 'Canceled event',
}
const METHOD: Record<MailKind, string> = { invite: 'REQUEST', update: 'REQUEST', cancel: 'CANCEL', reply: 'REPLY' }

const display = (p: Person) => (p.name ? `${p.name} <${p.email}>` : p.email)
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * Builds the mail a guest (or, for `reply`, the organizer) receives.
 * Deviation: wording and layout are modelled on the real mails, not byte-identical; PRODID names this project.
 */
export function invitationMail(o: InvitationOptions, shared?: SharedParts): InvitationMail {
  let when = shared?.when.get(o.recipientZone)
  if (when === undefined) {
    when = whenText(o.start, o.end, o.recipientZone, o.recurrenceId ? undefined : o.recurrence)
    shared?.when.set(o.recipientZone, when)
  }
  const recipient = o.recipient ?? (o.kind === 'reply' ? o.organizer : (o.attendees[0] ?? o.organizer))
  const prefix =
    o.kind === 'reply' ? (REPLY_PREFIX[o.replier?.responseStatus ?? 'needsAction'] ?? 'Reply') : PREFIX[o.kind]
  const subject = `${prefix}: ${o.summary} @ ${when} (${recipient.email})`
  const ics = shared ? (shared.ics ??= icsOf(o)) : icsOf(o)
  return { subject, text: textBody(o, when, recipient), html: htmlBody(o, when, recipient), ics }
}

/**
 * What the mails of one notification share, built for its first recipient: the iCalendar part (it reads neither
 * the recipient nor their zone) and the "when" line per recipient zone. Only for calls whose options differ in
 * `recipient` and `recipientZone` alone.
 */
export type SharedParts = { ics?: string; when: Map<string, string> }

function lead(o: InvitationOptions): string {
  switch (o.kind) {
    case 'invite':
      return `You have been invited by ${display(o.organizer)} to the following event.`
    case 'update':
      return 'This event has been updated.'
    case 'cancel':
      return 'This event has been canceled and removed from your calendar.'
    case 'reply':
      return `${display(o.replier ?? o.organizer)} has ${o.replier?.responseStatus === 'tentative' ? 'tentatively accepted' : (o.replier?.responseStatus ?? 'replied to')} this invitation.`
  }
}

function textBody(o: InvitationOptions, when: string, recipient: Person): string {
  const lines = [lead(o), '', o.summary, when]
  if (o.location) lines.push(o.location)
  if (o.meetLink) lines.push('', 'Join with Google Meet', o.meetLink)
  lines.push(
    '',
    'Organizer',
    display(o.organizer),
    '',
    'Guests',
    ...o.attendees.map(
      (a) => `${display(a)}${a.responseStatus && a.responseStatus !== 'needsAction' ? ` - ${a.responseStatus}` : ''}`,
    ),
  )
  if (o.description) lines.push('', o.description)
  lines.push('', `View event: ${o.htmlLink}`, '', `Invitation from Google Calendar to ${recipient.email}.`)
  return lines.join('\n') + '\n'
}

function htmlBody(o: InvitationOptions, when: string, recipient: Person): string {
  const guests = o.attendees
    .map(
      (a) =>
        `<li>${html(display(a))}${a.responseStatus && a.responseStatus !== 'needsAction' ? ` (${html(a.responseStatus)})` : ''}</li>`,
    )
    .join('')
  return [
    '<!doctype html><html><body>',
    `<p>${html(lead(o))}</p>`,
    `<h2>${html(o.summary)}</h2>`,
    `<p><b>When</b><br>${html(when)}</p>`,
    o.location ? `<p><b>Where</b><br>${html(o.location)}</p>` : '',
    o.meetLink ? `<p><a href="${html(o.meetLink)}">Join with Google Meet</a></p>` : '',
    `<p><b>Organizer</b><br>${html(display(o.organizer))}</p>`,
    `<p><b>Guests</b></p><ul>${guests}</ul>`,
    o.description ? `<p>${html(o.description).replace(/\n/g, '<br>')}</p>` : '',
    `<p><a href="${html(o.htmlLink)}">View event in Google Calendar</a></p>`,
    `<p>Invitation from Google Calendar to ${html(recipient.email)}.</p>`,
    '</body></html>',
  ].join('\n')
}

/** `;CN=…:mailto:…` tail of ORGANIZER/ATTENDEE. */
const address = (p: Person) => `${p.name ? `;CN=${paramValue(p.name)}` : ''}:mailto:${p.email}`

function attendeeLine(a: Person & { responseStatus?: string }, rsvp: boolean): string {
  const status = PARTSTAT[a.responseStatus ?? 'needsAction'] ?? 'NEEDS-ACTION'
  return `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=${status}${rsvp ? ';RSVP=TRUE' : ''}${address(a)}`
}

function icsOf(o: InvitationOptions): string {
  const recurring = !!o.recurrence?.length && !o.recurrenceId
  // Recurring timed events keep their zone (DST-correct expansion); single ones are written in UTC.
  const zones = new Set<string>()
  const dt = (name: string, t: ResolvedTime) => {
    if (t.allDay) return `${name};VALUE=DATE:${t.date!.replace(/-/g, '')}`
    if (!recurring && !o.recurrenceId) return `${name}:${icsUtc(t.ms)}`
    zones.add(t.timeZone)
    return `${name};TZID=${t.timeZone}:${icsLocal(t.ms, t.timeZone)}`
  }
  const event = [
    'BEGIN:VEVENT',
    dt('DTSTART', o.start),
    dt('DTEND', o.end),
    `DTSTAMP:${icsUtc(o.nowMs)}`,
    `ORGANIZER${address(o.organizer)}`,
    `UID:${o.iCalUID}`,
  ]
  if (o.recurrenceId) event.push(dt('RECURRENCE-ID', o.recurrenceId))
  if (o.kind === 'reply') {
    if (o.replier) event.push(attendeeLine(o.replier, false))
  } else {
    for (const a of o.attendees)
      event.push(attendeeLine(a, o.kind !== 'cancel' && (a.responseStatus ?? 'needsAction') === 'needsAction'))
  }
  if (recurring) {
    event.push(...o.recurrence!)
    for (const d of parseRecurrence(o.recurrence!).dates) for (const [k, v] of d.params) if (k === 'TZID') zones.add(v)
  }
  if (o.description) event.push(`DESCRIPTION:${escapeText(o.description)}`)
  if (o.location) event.push(`LOCATION:${escapeText(o.location)}`)
  if (o.meetLink) event.push(`X-GOOGLE-CONFERENCE:${o.meetLink}`)
  event.push(
    `SEQUENCE:${o.sequence}`,
    `STATUS:${o.kind === 'cancel' ? 'CANCELLED' : 'CONFIRMED'}`,
    `SUMMARY:${escapeText(o.summary)}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
  )
  const head = [
    'BEGIN:VCALENDAR',
    'PRODID:-//workspace-gym//Calendar v3//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${METHOD[o.kind]}`,
  ]
  const timezones = [...zones].flatMap((z) => vtimezone(z, o.start.ms))
  return icsText([...head, ...timezones, ...event, 'END:VCALENDAR'])
}
