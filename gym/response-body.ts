/**
 * How a response body reaches the agent. Text (text/*, JSON, XML, JavaScript, an empty or missing type) is read as
 * UTF-8 and parsed when it is JSON. Anything else (a PDF export, an image download) is bytes that UTF-8 would mangle:
 * the agent sees its type, size and base64, and a program's `$text` binds the base64.
 */
export type ResponseBody = {
  body: unknown
  text: string
  /**
   * True when `body` is `bodyOfText(text)` (JSON parsed, else the text itself, null when empty): the text alone gives
   * a fresh copy (gym/shared-prefix.ts). Such a body is parsed on first read only (`textResult`).
   */
  json: boolean
}

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|rtf)|[^;]*\+(json|xml)\b)/i

export function isTextual(contentType: string | null): boolean {
  const type = (contentType ?? '').trim()
  return type === '' || TEXTUAL.test(type)
}

/** What a textual response's body is: its JSON, the text itself when it is not JSON, null when it is empty. */
export function bodyOfText(text: string): unknown {
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return text // not JSON: the text itself
  }
}

/**
 * A textual response as `{ status, body, text }` whose body is `bodyOfText(text)`, parsed when first read: most
 * answers a validation run gets are never read (an attack's writes, a program step that saves nothing), and parsing
 * them was a cost for nothing (docs/decisions/0373). `body` is an own enumerable property (a getter and a setter),
 * so JSON, spreads and clones see it as a plain one; a caller may change or replace it.
 */
export function textResult(status: number, text: string): { status: number; body: unknown; text: string } {
  let body: unknown
  let parsed = false
  return {
    status,
    get body() {
      if (!parsed) {
        body = bodyOfText(text)
        parsed = true
      }
      return body
    },
    set body(value: unknown) {
      body = value
      parsed = true
    },
    text,
  }
}

export async function readResponseBody(res: Pick<Response, 'headers' | 'text' | 'arrayBuffer'>): Promise<ResponseBody> {
  const type = res.headers.get('content-type')
  if (!isTextual(type)) {
    const bytes = Buffer.from(await res.arrayBuffer())
    const base64 = bytes.toString('base64')
    return { body: { contentType: type, size: bytes.length, base64 }, text: base64, json: false }
  }
  const text = await res.text()
  const parsed = textResult(0, text)
  return {
    get body() {
      return parsed.body
    },
    text,
    json: true,
  }
}
