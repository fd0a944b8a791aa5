import { describe, expect, test } from 'vitest'
import { quickAdd } from '../../../envs/calendar/time/quickadd.ts'
import { tokenize } from '../../../envs/calendar/time/quickadd-lex.ts'

const NY = 'America/New_York'
const WED = Date.parse('2026-03-11T16:00:00Z') // Wednesday 12:00 in New York
const timed = (start: string, end: string, zone = NY) => ({
  start: { dateTime: start, timeZone: zone },
  end: { dateTime: end, timeZone: zone },
})
const allDay = (start: string, end: string) => ({ start: { date: start }, end: { date: end } })

describe('calendar.events.quickAdd', () => {
  test.each([
    [
      'Lunch with Ana tomorrow at 1pm',
      { summary: 'Lunch with Ana', ...timed('2026-03-12T13:00:00-04:00', '2026-03-12T14:00:00-04:00') },
    ],
    [
      'Standup every weekday 9:30',
      {
        summary: 'Standup',
        ...timed('2026-03-11T09:30:00-04:00', '2026-03-11T10:30:00-04:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
      },
    ],
    [
      "Dinner at Luigi's on Friday 7pm-9pm",
      { summary: 'Dinner', location: "Luigi's", ...timed('2026-03-13T19:00:00-04:00', '2026-03-13T21:00:00-04:00') },
    ],
    [
      'Review 3/14 2pm for 30 minutes',
      { summary: 'Review', ...timed('2026-03-14T14:00:00-04:00', '2026-03-14T14:30:00-04:00') },
    ],
    ['Offsite next Monday', { summary: 'Offsite', ...allDay('2026-03-16', '2026-03-17') }],
    [
      'Call with bob@example.com at 4:15pm',
      {
        summary: 'Call with bob@example.com',
        attendees: ['bob@example.com'],
        ...timed('2026-03-11T16:15:00-04:00', '2026-03-11T17:15:00-04:00'),
      },
    ],
    [
      'Team sync every Tuesday at 10am',
      {
        summary: 'Team sync',
        ...timed('2026-03-17T10:00:00-04:00', '2026-03-17T11:00:00-04:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU'],
      },
    ],
    ['Party tonight', { summary: 'Party', ...timed('2026-03-11T19:00:00-04:00', '2026-03-11T20:00:00-04:00') }],
    ['Drinks tonight at 8', { summary: 'Drinks', ...timed('2026-03-11T20:00:00-04:00', '2026-03-11T21:00:00-04:00') }],
    [
      'Lunch tomorrow at noon',
      { summary: 'Lunch', ...timed('2026-03-12T12:00:00-04:00', '2026-03-12T13:00:00-04:00') },
    ],
    ['Deploy at midnight', { summary: 'Deploy', ...timed('2026-03-12T00:00:00-04:00', '2026-03-12T01:00:00-04:00') }],
    [
      'Workshop from 2 to 3pm',
      { summary: 'Workshop', ...timed('2026-03-11T14:00:00-04:00', '2026-03-11T15:00:00-04:00') },
    ],
    ['Planning 7-9pm', { summary: 'Planning', ...timed('2026-03-11T19:00:00-04:00', '2026-03-11T21:00:00-04:00') }],
    ['Brunch 11-1pm Sunday', { summary: 'Brunch', ...timed('2026-03-15T11:00:00-04:00', '2026-03-15T13:00:00-04:00') }],
    ['Flight March 20 6am', { summary: 'Flight', ...timed('2026-03-20T06:00:00-04:00', '2026-03-20T07:00:00-04:00') }],
    ['Holiday 12/25', { summary: 'Holiday', ...allDay('2026-12-25', '2026-12-26') }],
    ['Dentist 3/1', { summary: 'Dentist', ...allDay('2027-03-01', '2027-03-02') }],
    [
      'Yoga every other Wednesday 6pm',
      {
        summary: 'Yoga',
        ...timed('2026-03-11T18:00:00-04:00', '2026-03-11T19:00:00-04:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE'],
      },
    ],
    ['Conference in 2 weeks for 3 days', { summary: 'Conference', ...allDay('2026-03-25', '2026-03-28') }],
    [
      'Coffee tomorrow morning',
      { summary: 'Coffee', ...timed('2026-03-12T09:00:00-04:00', '2026-03-12T10:00:00-04:00') },
    ],
    ['Call mom 11pm-1am', { summary: 'Call mom', ...timed('2026-03-11T23:00:00-04:00', '2026-03-12T01:00:00-04:00') }],
    [
      'Meeting between 10 and 11:30',
      { summary: 'Meeting', ...timed('2026-03-11T10:00:00-04:00', '2026-03-11T11:30:00-04:00') },
    ],
    ['Write report', { summary: 'Write report', ...allDay('2026-03-11', '2026-03-12') }],
    [
      'Board meeting March 3rd 2027 10am-10:25am',
      { summary: 'Board meeting', ...timed('2027-03-03T10:00:00-05:00', '2027-03-03T10:25:00-05:00') },
    ],
    [
      'Standup Mondays at 9',
      {
        summary: 'Standup',
        ...timed('2026-03-16T09:00:00-04:00', '2026-03-16T10:00:00-04:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
      },
    ],
    ['Retro for 45 min at 3', { summary: 'Retro', ...timed('2026-03-11T15:00:00-04:00', '2026-03-11T15:45:00-04:00') }],
    [
      '1:1 this Friday 2:30pm for half an hour',
      { summary: '1:1', ...timed('2026-03-13T14:30:00-04:00', '2026-03-13T15:00:00-04:00') },
    ],
    [
      'Demo next Friday 3 p.m.',
      { summary: 'Demo', ...timed('2026-03-20T15:00:00-04:00', '2026-03-20T16:00:00-04:00') },
    ],
    [
      'Book club every month on the 2nd Tuesday 7pm',
      {
        summary: 'Book club',
        ...timed('2026-04-14T19:00:00-04:00', '2026-04-14T20:00:00-04:00'),
        recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=2TU'],
      },
    ],
    [
      'Review every month on the last Friday',
      { summary: 'Review', ...allDay('2026-03-27', '2026-03-28'), recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR'] },
    ],
    [
      'Gym every Mon, Wed and Fri 7am',
      {
        summary: 'Gym',
        ...timed('2026-03-11T07:00:00-04:00', '2026-03-11T08:00:00-04:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR'],
      },
    ],
    ['Vacation 2026-07-01 all day', { summary: 'Vacation', ...allDay('2026-07-01', '2026-07-02') }],
    [
      'Coffee @ Blue Bottle tomorrow 8:15am',
      {
        summary: 'Coffee',
        location: 'Blue Bottle',
        ...timed('2026-03-12T08:15:00-04:00', '2026-03-12T09:15:00-04:00'),
      },
    ],
  ])('%s', (text, expected) => {
    expect(quickAdd(text, WED, NY)).toEqual(expected)
  })

  test('times use the calendar zone (UTC calendar renders Z, as the recorded response)', () => {
    expect(quickAdd('Lunch tomorrow at noon', Date.parse('2026-03-27T21:09:17Z'), 'UTC')).toEqual({
      summary: 'Lunch',
      ...timed('2026-03-28T12:00:00Z', '2026-03-28T13:00:00Z', 'UTC'),
    })
  })
  test('a :30 zone', () => {
    expect(quickAdd('Lunch tomorrow 1pm', WED, 'Asia/Kolkata')).toMatchObject(
      timed('2026-03-12T13:00:00+05:30', '2026-03-12T14:00:00+05:30', 'Asia/Kolkata'),
    )
  })
  test('tomorrow across the spring-forward night keeps the wall clock', () => {
    expect(quickAdd('Brunch tomorrow 11am', Date.parse('2026-03-07T17:00:00Z'), NY)).toMatchObject(
      timed('2026-03-08T11:00:00-04:00', '2026-03-08T12:00:00-04:00'),
    )
  })
  test('"today" is the day in the calendar zone, not in UTC', () => {
    // 02:00 UTC on Thursday is still Wednesday evening in New York.
    expect(quickAdd('Call today', Date.parse('2026-03-12T02:00:00Z'), NY)).toMatchObject(
      allDay('2026-03-11', '2026-03-12'),
    )
  })
})

describe('quickAdd on odd text', () => {
  test.each([
    ['Feb 30 review', 'Feb 30 review'],
    ['Report 13/13', 'Report 13/13'],
    ['31 September', '31 September'],
    ['2026-02-30', '2026-02-30'],
    ['at', 'at'],
    ['every', 'every'],
    ['from to', 'from to'],
    ['25:00', '25:00'],
    ['Nap for 99999999 hours', 'Nap for 99999999 hours'],
    ['Trip in 999999999 days', 'Trip in 999999999 days'],
    ['', ''],
    ['😀 party tomorrow 😀', '😀 party 😀'],
  ])('%j keeps what it cannot read in the summary (%j) and yields valid times', (text, summary) => {
    const r = quickAdd(text, WED, NY)
    expect(r.summary).toBe(summary)
    expect(r.start.date ?? r.start.dateTime).toBeTruthy()
    expect(r.end.date ?? r.end.dateTime).toBeTruthy()
  })
  test('an interval that is not a sane count is not a repetition', () => {
    expect(quickAdd('Ping every 1000000 weeks', WED, NY).recurrence).toBeUndefined()
  })
})

describe('quickAdd tokenizer', () => {
  test('splits clock times, dates, ranges and addresses', () => {
    expect(
      tokenize("Dinner at Luigi's 3/14 7-9:30pm bob@example.com 2026-03-14").map((t) => `${t.kind}:${t.text}`),
    ).toEqual([
      'word:Dinner',
      'word:at',
      "word:Luigi's",
      'date:3/14',
      'num:7',
      'sym:-',
      'time:9:30pm',
      'email:bob@example.com',
      'date:2026-03-14',
    ])
  })
  test('reads 1 pm, 1p and 10.30 as clock times and rejects 13pm', () => {
    expect(tokenize('1 pm 1p 10.30 13pm').map((t) => t.kind)).toEqual(['time', 'time', 'time', 'word'])
  })
})
