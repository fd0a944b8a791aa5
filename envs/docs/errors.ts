import { badRequestDetails, GoogleApiError, type GoogleErrorDetail, type GoogleStatus } from '../core/errors/google.ts'
import { AnswerError } from '../core/errors/answer-error.ts'

/**
 * Docs API v1 errors: the newer One Platform envelope `{error:{code,message,status}}` without the
 * legacy `errors[]` list (specs/parity/gdoc/document_not_found_error.json).
 */
export class DocsError extends GoogleApiError {
  constructor(status: GoogleStatus, message: string, detail?: GoogleErrorDetail) {
    super(status, status === 'NOT_FOUND' ? 'notFound' : 'badRequest', message, detail)
  }

  override toBody() {
    const body = { code: this.code, message: this.message, status: this.status }
    const violation = this.detail.violation
    return {
      error: violation ? { ...body, details: badRequestDetails(violation.field, this.message) } : body,
    } as ReturnType<GoogleApiError['toBody']>
  }
}

/** 404 for a document id that does not exist. */
export const docNotFound = () => new DocsError('NOT_FOUND', 'Requested entity was not found.')
/** 403 for a document the caller cannot see, or may see but not do this to. */
export const docForbidden = () => new DocsError('PERMISSION_DENIED', 'The caller does not have permission')
/** 400 INVALID_ARGUMENT with Google's text. */
export const invalid = (message: string, detail?: GoogleErrorDetail) =>
  new DocsError('INVALID_ARGUMENT', message, detail)

/**
 * A validation failure inside one batchUpdate request; the dispatcher prefixes it with
 * `Invalid requests[i].<kind>: ` as Google does.
 */
export class RequestError extends AnswerError {}
export const bad = (message: string) => new RequestError(message)
