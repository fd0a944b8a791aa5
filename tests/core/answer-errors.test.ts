import { describe, expect, it } from 'vitest'
import { GoogleApiError } from '../../envs/core/errors/google.ts'
import { SlackApiError } from '../../envs/core/errors/slack.ts'
import { EventInputError } from '../../envs/calendar/store/build.ts'
import { CalendarTimeError } from '../../envs/calendar/time/zoned.ts'
import { RequestError } from '../../envs/docs/errors.ts'

// Errors that are answers are made without a captured stack (envs/core/errors/answer-error.ts), and leave the
// process's stack trace limit as it was, also for errors made right after them.
describe('answer errors', () => {
  const made = [
    new GoogleApiError('NOT_FOUND', 'notFound', 'Requested entity was not found.'),
    new SlackApiError('channel_not_found'),
    new EventInputError('Invalid start time.'),
    new CalendarTimeError('Bad Request'),
    new RequestError('Invalid requests[0].insertText: Index 9 must be less than the end index'),
  ]

  it('carry their message, name and class but no stack frames', () => {
    for (const e of made) {
      expect(e).toBeInstanceOf(Error)
      expect(e.message.length).toBeGreaterThan(0)
      expect(e.stack ?? '').not.toMatch(/\n\s+at /)
    }
    const google = made[0] as GoogleApiError
    expect(google.name).toBe('GoogleApiError')
    expect(google.toBody().error.code).toBe(404)
  })

  it('leave other errors their stacks', () => {
    const limit = Error.stackTraceLimit
    new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid value')
    expect(Error.stackTraceLimit).toBe(limit)
    expect(new Error('a fault').stack).toMatch(/\n\s+at /)
  })
})
