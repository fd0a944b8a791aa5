import type { Context } from 'hono'

/**
 * The answer to a resumable-upload chunk that leaves bytes missing: `308 Resume Incomplete` with the
 * `Range` received so far. A client that sends `X-GUploader-No-308: yes` (google-api-go-client, which
 * would otherwise read 308 as a permanent redirect) gets `200` with `X-HTTP-Status-Code-Override: 308`,
 * as Google's upload servers answer it.
 */
export function resumeIncomplete(c: Context, receivedBytes: number): Response {
  const headers: Record<string, string> = receivedBytes > 0 ? { range: `bytes=0-${receivedBytes - 1}` } : {}
  if ((c.req.header('x-guploader-no-308') ?? '').trim().toLowerCase() === 'yes') {
    return c.body(null, 200, { ...headers, 'x-http-status-code-override': '308' })
  }
  return c.body(null, 308, headers)
}
