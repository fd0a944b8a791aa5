import { AnswerError } from './answer-error.ts'

/**
 * A Slack Web API error: always HTTP 200 with `{ok:false, error}` (plus optional extra keys such as
 * `needed`/`provided` for `missing_scope`). Rate limiting is the one exception (HTTP 429).
 * @see https://api.slack.com/web#evaluating_responses
 */
export class SlackApiError extends AnswerError {
  override readonly name = 'SlackApiError'
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly httpStatus: 200 | 429 | 404 = 200,
    readonly headers: Record<string, string> = {},
  ) {
    super(error)
  }

  toBody() {
    return { ok: false as const, error: this.error, ...this.extra }
  }
}

export const slackError = (error: string, extra?: Record<string, unknown>) => new SlackApiError(error, extra)
