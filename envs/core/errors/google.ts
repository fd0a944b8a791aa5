import { AnswerError } from './answer-error.ts'

/** gRPC canonical status names used in Google's error envelope, with their HTTP codes. */
export const GOOGLE_STATUS = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  GONE: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
} as const
export type GoogleStatus = keyof typeof GOOGLE_STATUS

export type GoogleErrorDetail = {
  location?: string
  locationType?: string
  domain?: string
  /** The proto layer's `google.rpc.BadRequest` field violation for a value it could not read (`details[]`). */
  violation?: { field: string }
}

/** `details[]` of an error that names a field violation, as the proto layer adds it. */
export const badRequestDetails = (field: string, description: string) => [
  { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description }] },
]

/**
 * An error meant for the client, rendered as Google's JSON envelope
 * `{error:{code,message,errors:[{message,domain,reason}],status}}`.
 * Anything else that escapes a handler becomes 500 INTERNAL.
 * @see https://cloud.google.com/apis/design/errors
 */
export class GoogleApiError extends AnswerError {
  override readonly name = 'GoogleApiError'
  constructor(
    readonly status: GoogleStatus,
    readonly reason: string,
    message: string,
    readonly detail: GoogleErrorDetail = {},
    /** Some APIs (Calendar 410, Drive 412) answer codes that do not follow the status table. */
    readonly code: number = GOOGLE_STATUS[status],
  ) {
    super(message)
  }

  get httpCode(): number {
    return this.code
  }

  toBody() {
    const { message, reason } = this
    const item: Record<string, string> = { message, domain: this.detail.domain ?? 'global', reason }
    if (this.detail.location) item.location = this.detail.location
    if (this.detail.locationType) item.locationType = this.detail.locationType
    // Calendar's GONE is reported with status "GONE"-less envelopes by Google; we keep the canonical name.
    const body = { code: this.code, message, errors: [item], status: this.status }
    const violation = this.detail.violation
    return { error: violation ? { ...body, details: badRequestDetails(violation.field, message) } : body }
  }
}

// The constructors below carry the real API's default texts; services pass their own where they differ.

export const notFound = (message = 'Requested entity was not found.', reason = 'notFound') =>
  new GoogleApiError('NOT_FOUND', reason, message)

export const invalidArgument = (message: string, reason = 'invalidArgument', detail?: GoogleErrorDetail) =>
  new GoogleApiError('INVALID_ARGUMENT', reason, message, detail)

export const badRequest = (message: string, reason = 'badRequest', detail?: GoogleErrorDetail) =>
  new GoogleApiError('INVALID_ARGUMENT', reason, message, detail)

export const forbidden = (message = 'The caller does not have permission', reason = 'forbidden') =>
  new GoogleApiError('PERMISSION_DENIED', reason, message)

export const failedPrecondition = (message: string, reason = 'failedPrecondition') =>
  new GoogleApiError('FAILED_PRECONDITION', reason, message)

export const alreadyExists = (message: string, reason = 'duplicate') =>
  new GoogleApiError('ALREADY_EXISTS', reason, message)

export const notImplemented = (methodId: string) =>
  new GoogleApiError('NOT_IMPLEMENTED', 'notImplemented', `Method ${methodId} is not implemented by workspace-gym.`)

export const missingCredentials = () =>
  new GoogleApiError(
    'UNAUTHENTICATED',
    'required',
    'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    { location: 'Authorization', locationType: 'header' },
  )

export const invalidCredentials = () =>
  new GoogleApiError(
    'UNAUTHENTICATED',
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    { location: 'Authorization', locationType: 'header' },
  )
