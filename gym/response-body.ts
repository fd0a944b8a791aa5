/**
 * How a response body reaches the agent. Text (text/*, JSON, XML, JavaScript, an empty or missing type) is read as
 * UTF-8 and parsed when it is JSON. Anything else (a PDF export, an image download) is bytes that UTF-8 would mangle:
 * the agent sees its type, size and base64, and a program's `$text` binds the base64.
 */
export type ResponseBody = {
  body: unknown
  text: string
  /** True when `body` is `JSON.parse(text)`: parsing the text again gives a fresh copy (gym/shared-prefix.ts). */
  json: boolean
}

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|rtf)|[^;]*\+(json|xml)\b)/i

export function isTextual(contentType: string | null): boolean {
  const type = (contentType ?? '').trim()
  return type === '' || TEXTUAL.test(type)
}

export async function readResponseBody(res: Pick<Response, 'headers' | 'text' | 'arrayBuffer'>): Promise<ResponseBody> {
  const type = res.headers.get('content-type')
  if (!isTextual(type)) {
    const bytes = Buffer.from(await res.arrayBuffer())
    const base64 = bytes.toString('base64')
    return { body: { contentType: type, size: bytes.length, base64 }, text: base64, json: false }
  }
  const text = await res.text()
  if (!text) return { body: null, text, json: false }
  try {
    return { body: JSON.parse(text), text, json: true }
  } catch {
    return { body: text, text, json: false } // not JSON: the text itself
  }
}
