import { expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// quickAdd reads the user's words through word tables (weekdays, months, "tomorrow"): a word every JavaScript object
// inherits (constructor, __proto__) is plain title text, not a 500 from luxon given Object as a day offset.

const Q = '/calendar/v3/calendars/primary/events/quickAdd'

test.each(['constructor', '__proto__', 'lunch constructor', 'every constructor', 'valueOf at 3pm'])(
  'quickAdd text=%s is an event',
  async (text) => {
    const h = harness('demo')
    const res = await h.call('POST', `${Q}?text=${encodeURIComponent(text)}`)
    expect(res.status).toBe(200)
    expect(res.body.summary).toBe(text.replace(' at 3pm', ''))
  },
)

test('quickAdd still reads its words: tomorrow, a weekday, every week', async () => {
  const h = harness('demo')
  const res = await h.call('POST', `${Q}?text=${encodeURIComponent('Standup every monday 9am')}`)
  expect([res.status, res.body.summary, res.body.recurrence]).toEqual([200, 'Standup', ['RRULE:FREQ=WEEKLY;BYDAY=MO']])
})
