/**
 * How a response body reaches the agent. Text (text/*, JSON, XML, JavaScript, an empty or missing type) is read as
 * UTF-8 and parsed when it is JSON. Anything else (a PDF export, an image download) is bytes that UTF-8 would mangle:
 * the agent sees its type, size and base64, and a program's `$text` binds the base64.
 */
export type ResponseBody = { body: unknown; text: string }

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|rtf)|[^;]*\+(json|xml)\b)/i

export function isTextual(contentType: string | null): boolean {
  const type = (contentType ?? '').trim()
  return type === '' || TEXTUAL.test(type)
}

export async function readResponseBody(res: Response): Promise<ResponseBody> {
  const type = res.headers.get('content-type')
  if (!isTextual(type)) {
    const bytes = Buffer.from(await res.arrayBuffer())
    const base64 = bytes.toString('base64')
    return { body: { contentType: type, size: bytes.length, base64 }, text: base64 }
  }
  const text = await res.text()
  let body: unknown = text
  try { body = text ? JSON.parse(text) : null } catch { /* not JSON: keep text */ }
  return { body, text }
}

/** What a program's `$text` binds from an observation's body: text as is, bytes as their base64, JSON as JSON text. */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body
  if (body === null || body === undefined) return ''
  const b = body as Record<string, unknown>
  const keys = Object.keys(b)
  if (keys.length === 3 && typeof b.base64 === 'string' && typeof b.size === 'number' && 'contentType' in b) return b.base64
  return JSON.stringify(body)
}
