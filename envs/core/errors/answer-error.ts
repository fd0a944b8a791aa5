/**
 * The base of errors that are answers (an API's error envelope), not faults: thrown by handlers and rendered as the
 * service's error shape, never logged with a stack. So no stack is captured: V8 records up to Error.stackTraceLimit
 * frames at construction, ~10 µs per error on a request's call path (measured in a loop, 0414), ~15x the rest of the
 * construction, and an agent's mistakes (404s, 400s) are a large share of what a training run sends.
 */
export class AnswerError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      super(message)
    } finally {
      Error.stackTraceLimit = limit
    }
  }
}
