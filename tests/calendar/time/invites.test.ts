import { describe, expect, test } from 'vitest'
import { escapeText, foldLine, icsText, unfoldIcs, vtimezone } from '../../../envs/calendar/invites/ics.ts'
import { type InvitationOptions, invitationMail } from '../../../envs/calendar/invites/mail.ts'
import { whenText } from '../../../envs/calendar/invites/when.ts'
import { resolveEventTime } from '../../../envs/calendar/time/zoned.ts'

const NY = 'America/New_York'
const t = (dateTime: string, timeZone = NY) => resolveEventTime({ dateTime, timeZone }, 'UTC')
const d = (date: string) => resolveEventTime({ date }, NY)

const base: InvitationOptions = {
  kind: 'invite',
  summary: 'Weekly sync',
  start: t('2026-03-09T10:00:00'),
  end: t('2026-03-09T11:00:00'),
  recipientZone: NY,
  organizer: { email: 'org@example.com', name: 'Olga Org' },
  attendees: [
    { email: 'ana@example.com', name: 'Ana' },
    { email: 'bob@example.com', responseStatus: 'accepted' },
  ],
  iCalUID: 'abc123@google.com',
  sequence: 0,
  recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
  htmlLink: 'https://www.google.com/calendar/event?eid=abc',
  nowMs: Date.parse('2026-03-01T12:00:00Z'),
}

/** Content lines of the VEVENT, unfolded. */
const eventLines = (ics: string) => {
  const lines = unfoldIcs(ics)
  return lines.slice(lines.indexOf('BEGIN:VEVENT'), lines.indexOf('END:VEVENT') + 1)
}

describe('invitationMail subjects', () => {
  test.each([
    [{}, 'Invitation: Weekly sync @ Weekly on Monday from 10am to 11am (EDT) (ana@example.com)'],
    [
      { kind: 'update' as const, recipient: { email: 'bob@example.com' } },
      'Updated invitation: Weekly sync @ Weekly on Monday from 10am to 11am (EDT) (bob@example.com)',
    ],
    [
      { kind: 'cancel' as const, recurrence: undefined },
      'Canceled event: Weekly sync @ Mon Mar 9, 2026 10am - 11am (EDT) (ana@example.com)',
    ],
    [
      { kind: 'reply' as const, replier: { email: 'ana@example.com', name: 'Ana', responseStatus: 'accepted' } },
      'Accepted: Weekly sync @ Weekly on Monday from 10am to 11am (EDT) (org@example.com)',
    ],
    [
      { kind: 'reply' as const, replier: { email: 'ana@example.com', responseStatus: 'declined' } },
      'Declined: Weekly sync @ Weekly on Monday from 10am to 11am (EDT) (org@example.com)',
    ],
    [
      { kind: 'reply' as const, replier: { email: 'ana@example.com', responseStatus: 'tentative' } },
      'Tentatively accepted: Weekly sync @ Weekly on Monday from 10am to 11am (EDT) (org@example.com)',
    ],
    [
      { recipientZone: 'Europe/London' },
      'Invitation: Weekly sync @ Weekly on Monday from 2pm to 3pm (GMT) (ana@example.com)',
    ],
  ])('%j', (over, subject) => {
    expect(invitationMail({ ...base, ...over }).subject).toBe(subject)
  })
})

describe('whenText', () => {
  test.each([
    [
      'single timed',
      t('2026-03-09T10:30:00'),
      t('2026-03-09T12:00:00'),
      undefined,
      'Mon Mar 9, 2026 10:30am - 12pm (EDT)',
    ],
    [
      'across midnight',
      t('2026-03-09T22:00:00'),
      t('2026-03-10T01:00:00'),
      undefined,
      'Mon Mar 9, 2026 10pm - Tue Mar 10, 2026 1am (EDT)',
    ],
    ['all-day', d('2026-03-09'), d('2026-03-10'), undefined, 'Mon Mar 9, 2026'],
    ['multi-day all-day', d('2026-03-09'), d('2026-03-12'), undefined, 'Mon Mar 9, 2026 - Wed Mar 11, 2026'],
    [
      'weekdays',
      t('2026-03-09T09:30:00'),
      t('2026-03-09T10:00:00'),
      ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
      'Weekly on weekdays from 9:30am to 10am (EDT)',
    ],
    [
      'daily with count',
      t('2026-03-09T09:00:00'),
      t('2026-03-09T09:15:00'),
      ['RRULE:FREQ=DAILY;COUNT=5'],
      'Daily, 5 times from 9am to 9:15am (EDT)',
    ],
    [
      'monthly last Friday until',
      t('2026-03-27T16:00:00'),
      t('2026-03-27T17:00:00'),
      ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20261231T000000Z'],
      'Monthly on the last Friday, until Dec 31, 2026 from 4pm to 5pm (EDT)',
    ],
    [
      'every 2 weeks',
      t('2026-03-10T09:00:00'),
      t('2026-03-10T10:00:00'),
      ['RRULE:FREQ=WEEKLY;INTERVAL=2'],
      'Every 2 weeks on Tuesday from 9am to 10am (EDT)',
    ],
    ['annual all-day', d('2026-03-09'), d('2026-03-10'), ['RRULE:FREQ=YEARLY'], 'Annually on March 9'],
  ])('%s', (_name, start, end, recurrence, expected) => {
    expect(whenText(start, end, NY, recurrence)).toBe(expected)
  })
})

describe('invitation iCalendar', () => {
  test('is CRLF-terminated, folded at 75 octets, and unfolds to the same content lines', () => {
    const long = 'Ünïcødé 日本語 description, with; specials\\ and\nnewlines '.repeat(8)
    const mail = invitationMail({ ...base, description: long, location: 'Room 1; Floor 2, Building A' })
    expect(mail.ics.endsWith('\r\n')).toBe(true)
    expect(mail.ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const physical of mail.ics.split('\r\n')) expect(Buffer.byteLength(physical, 'utf8')).toBeLessThanOrEqual(75)
    const lines = eventLines(mail.ics)
    expect(lines).toContain(`DESCRIPTION:${escapeText(long)}`)
    expect(lines).toContain('LOCATION:Room 1\\; Floor 2\\, Building A')
    expect(Buffer.from(mail.ics, 'utf8').toString('utf8')).not.toContain('\uFFFD')
  })

  test('a request carries method, UID, sequence, stamp, zoned start, rule, organizer and attendees', () => {
    const mail = invitationMail({ ...base, sequence: 3, meetLink: 'https://meet.google.com/abc-defg-hij' })
    const all = unfoldIcs(mail.ics)
    expect(all.slice(0, 5)).toEqual([
      'BEGIN:VCALENDAR',
      'PRODID:-//workspace-gym//Calendar v3//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:REQUEST',
    ])
    expect(all).toContain('TZID:America/New_York')
    expect(eventLines(mail.ics)).toEqual([
      'BEGIN:VEVENT',
      'DTSTART;TZID=America/New_York:20260309T100000',
      'DTEND;TZID=America/New_York:20260309T110000',
      'DTSTAMP:20260301T120000Z',
      'ORGANIZER;CN=Olga Org:mailto:org@example.com',
      'UID:abc123@google.com',
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Ana:mailto:ana@example.com',
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:bob@example.com',
      'RRULE:FREQ=WEEKLY;BYDAY=MO',
      'X-GOOGLE-CONFERENCE:https://meet.google.com/abc-defg-hij',
      'SEQUENCE:3',
      'STATUS:CONFIRMED',
      'SUMMARY:Weekly sync',
      'TRANSP:OPAQUE',
      'END:VEVENT',
    ])
    expect(all.at(-1)).toBe('END:VCALENDAR')
  })

  test('a single timed event is written in UTC without VTIMEZONE', () => {
    const lines = unfoldIcs(invitationMail({ ...base, recurrence: undefined }).ics)
    expect(lines).toContain('DTSTART:20260309T140000Z')
    expect(lines).toContain('DTEND:20260309T150000Z')
    expect(lines).not.toContain('BEGIN:VTIMEZONE')
  })

  test('all-day events use VALUE=DATE', () => {
    const lines = unfoldIcs(invitationMail({ ...base, start: d('2026-03-09'), end: d('2026-03-10') }).ics)
    expect(lines).toContain('DTSTART;VALUE=DATE:20260309')
    expect(lines).toContain('DTEND;VALUE=DATE:20260310')
  })

  test('a cancellation is METHOD:CANCEL with STATUS:CANCELLED and no RSVP request', () => {
    const ics = invitationMail({ ...base, kind: 'cancel', sequence: 4 }).ics
    expect(unfoldIcs(ics)).toContain('METHOD:CANCEL')
    expect(eventLines(ics)).toContain('STATUS:CANCELLED')
    expect(ics).not.toContain('RSVP=TRUE')
  })

  test('a reply is METHOD:REPLY naming only the replier with their PARTSTAT', () => {
    const ics = invitationMail({
      ...base,
      kind: 'reply',
      replier: { email: 'ana@example.com', name: 'Ana', responseStatus: 'declined' },
    }).ics
    expect(unfoldIcs(ics)).toContain('METHOD:REPLY')
    expect(eventLines(ics).filter((l) => l.startsWith('ATTENDEE'))).toEqual([
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=DECLINED;CN=Ana:mailto:ana@example.com',
    ])
  })

  test('a mail about one instance names it with RECURRENCE-ID, in the series zone, without the rule', () => {
    const mail = invitationMail({
      ...base,
      kind: 'cancel',
      start: t('2026-03-16T11:00:00'),
      end: t('2026-03-16T12:00:00'),
      recurrenceId: t('2026-03-16T10:00:00'),
    })
    expect(mail.subject).toBe('Canceled event: Weekly sync @ Mon Mar 16, 2026 11am - 12pm (EDT) (ana@example.com)')
    const lines = eventLines(mail.ics)
    expect(lines).toContain('RECURRENCE-ID;TZID=America/New_York:20260316T100000')
    expect(lines).toContain('DTSTART;TZID=America/New_York:20260316T110000')
    expect(lines.some((l) => l.startsWith('RRULE'))).toBe(false)
    expect(unfoldIcs(mail.ics)).toContain('TZID:America/New_York')
  })

  test('bodies name the summary, when, organizer, guests and link, and escape HTML', () => {
    const mail = invitationMail({ ...base, summary: 'Q&A <live>', location: 'Room 1' })
    expect(mail.text).toContain('Q&A <live>\nWeekly on Monday from 10am to 11am (EDT)\nRoom 1')
    expect(mail.text).toContain('Olga Org <org@example.com>')
    expect(mail.text).toContain('bob@example.com - accepted')
    expect(mail.html).toContain('<h2>Q&amp;A &lt;live&gt;</h2>')
    expect(mail.html).toContain('href="https://www.google.com/calendar/event?eid=abc"')
  })
})

describe('ics helpers', () => {
  test.each([
    ['a;b,c\\d\ne', 'a\\;b\\,c\\\\d\\ne'],
    ['line\r\nbreak', 'line\\nbreak'],
    ['plain: colon', 'plain: colon'],
  ])('escapeText(%j)', (input, expected) => expect(escapeText(input)).toBe(expected))

  test('foldLine never splits a multi-byte character', () => {
    const folded = foldLine(`SUMMARY:${'é'.repeat(60)}`)
    const parts = folded.split('\r\n')
    expect(parts.length).toBeGreaterThan(1)
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(75)
    expect(folded.replace(/\r\n /g, '')).toBe(`SUMMARY:${'é'.repeat(60)}`)
  })

  test('a 75-octet line is not folded; 76 is', () => {
    expect(foldLine('X'.repeat(75))).toBe('X'.repeat(75))
    expect(foldLine('X'.repeat(76))).toBe(`${'X'.repeat(75)}\r\n X`)
  })

  test('icsText and unfoldIcs round-trip', () => {
    const lines = ['BEGIN:VCALENDAR', `DESCRIPTION:${'y'.repeat(200)}`, 'END:VCALENDAR']
    expect(unfoldIcs(icsText(lines))).toEqual(lines)
  })

  test.each([
    ['Asia/Kolkata', ['BEGIN:STANDARD', 'TZOFFSETFROM:+0530', 'TZOFFSETTO:+0530']],
    [
      'Australia/Sydney',
      ['BEGIN:STANDARD', 'TZOFFSETFROM:+1100', 'TZOFFSETTO:+1000', 'TZNAME:GMT+10', 'DTSTART:20260405T030000'],
    ],
    [
      'Europe/London',
      ['BEGIN:DAYLIGHT', 'TZOFFSETFROM:+0000', 'TZOFFSETTO:+0100', 'TZNAME:GMT+1', 'DTSTART:20260329T010000'],
    ],
  ])('vtimezone(%s) lists its offsets and changes', (zone, expected) => {
    const block = vtimezone(zone, Date.parse('2026-06-01T00:00:00Z'))
    const at = block.indexOf(expected[0]!)
    expect(at).toBeGreaterThan(0)
    expect(block.slice(at, at + expected.length)).toEqual(expected)
  })

  test('vtimezone gives each caller its own copy of a block it computed once', () => {
    const first = vtimezone('Europe/Berlin', Date.parse('2031-02-01T00:00:00Z'))
    const again = vtimezone('Europe/Berlin', Date.parse('2031-11-30T00:00:00Z'))
    expect(again).toEqual(first)
    expect(again).not.toBe(first)
    first.length = 0
    expect(vtimezone('Europe/Berlin', Date.parse('2031-07-01T00:00:00Z'))).toEqual(again)
    // Another year is another block (its span starts that year).
    expect(vtimezone('Europe/Berlin', Date.parse('2032-07-01T00:00:00Z'))).not.toEqual(again)
  })
})
