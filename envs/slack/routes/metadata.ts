import { SlackApiError } from '../../core/errors/slack.ts'

/**
 * A post's `metadata` argument (chat.postMessage, chat.update, chat.scheduleMessage), checked as Slack documents it:
 * JSON (an object, or its text in a form) with event metadata (an `event_type` string and an `event_payload` object),
 * work-object `entities` (an array of objects), or both. Not JSON, or not an object: `invalid_metadata_format`;
 * neither part, half an event, or `entities` not an array of objects: `invalid_metadata_schema`. An `event_type` with
 * characters other than letters, digits, `_` and `-` is "an invalid_metadata_schema warning and is ignored"
 * (docs.slack.dev, Using message metadata): the post succeeds with the warning, without the event (entities kept).
 * Deviation: entities are kept as given (no per-entity schema); no size cap (`metadata_too_large`, a limit Slack does
 * not state); a user token's metadata is kept (`metadata_must_be_sent_from_app` is listed for "an app token";
 * unverified which tokens it refuses).
 */
export function checkedMetadata(v: unknown): { metadata?: Record<string, unknown>; warning?: string } {
  if (v === undefined || v === null || v === '') return {}
  let x: unknown = v
  if (typeof v === 'string') {
    try {
      x = JSON.parse(v) as unknown
    } catch {
      throw new SlackApiError('invalid_metadata_format')
    }
  }
  if (!x || typeof x !== 'object' || Array.isArray(x)) throw new SlackApiError('invalid_metadata_format')
  const { event_type: type, event_payload: payload, entities } = x as Record<string, unknown>
  const hasEvent = type !== undefined || payload !== undefined
  const objects = (v: unknown) => Array.isArray(v) && v.every((e) => e && typeof e === 'object' && !Array.isArray(e))
  if ((!hasEvent && entities === undefined) || (entities !== undefined && !objects(entities)))
    throw new SlackApiError('invalid_metadata_schema')
  if (
    hasEvent &&
    (typeof type !== 'string' || !type || !payload || typeof payload !== 'object' || Array.isArray(payload))
  )
    throw new SlackApiError('invalid_metadata_schema')
  const event = hasEvent && /^[A-Za-z0-9_-]+$/.test(type as string) ? { event_type: type, event_payload: payload } : {}
  const warning = hasEvent && !('event_type' in event) ? 'invalid_metadata_schema' : undefined
  const metadata = entities !== undefined ? { ...event, entities } : event
  return { ...(Object.keys(metadata).length ? { metadata } : {}), ...(warning ? { warning } : {}) }
}

/** An answer with a warning, as Slack gives one (`warning` and `response_metadata.warnings`). */
export const withWarning = <T extends Record<string, unknown>>(out: T, warning: string | undefined) =>
  warning ? { ...out, warning, response_metadata: { warnings: [warning] } } : out
