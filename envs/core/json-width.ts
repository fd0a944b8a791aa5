/** Most members one JSON object of a request may have (docs/decisions/0387). */
export const MAX_JSON_MEMBERS = 1000
/** Deepest nesting of objects and arrays a request's JSON may have: no API takes deeper (server/app.ts checks it). */
export const MAX_JSON_DEPTH = 64

/** Thrown by `parseJsonWithin` for text nested deeper or wider than any API takes; a `SyntaxError`, as JSON.parse's. */
export class JsonShapeError extends SyntaxError {
  constructor(readonly fault: 'deep' | 'wide') {
    super(
      fault === 'deep'
        ? `Nesting deeper than ${MAX_JSON_DEPTH} levels.`
        : `An object has over ${MAX_JSON_MEMBERS} members.`,
    )
  }
}

/**
 * `JSON.parse` of JSON an agent sent inside something else (a multipart metadata part, a form field, a string
 * argument, a JWT's parts), which the app's body check does not see: text nested deeper than MAX_JSON_DEPTH or with
 * an object wider than MAX_JSON_MEMBERS throws a `JsonShapeError` (a SyntaxError, so callers' parse-error paths
 * answer it) before it is parsed. 4 MB of `[` held the loop over a second in JSON.parse alone, and 30 MB of Drive
 * upload metadata 17 s and 2.5 GB (docs/decisions/0401).
 */
export function parseJsonWithin(text: string): unknown {
  const fault = jsonShapeFault(text, MAX_JSON_DEPTH, MAX_JSON_MEMBERS)
  if (fault !== undefined) throw new JsonShapeError(fault)
  return JSON.parse(text) as unknown
}

/**
 * True when a JSON object in `text` has more than `max` members (one pass, strings skipped; no parse). No API takes
 * a map that wide (Drive: 100 properties a file; Calendar: 300 extended properties an event), and validating and
 * storing 400,000 of them held the event loop for seconds (docs/decisions/0387).
 */
export function objectWiderThan(text: string, max = MAX_JSON_MEMBERS): boolean {
  // Per open bracket: -1 for an array, else the commas seen so far in that object.
  const commas: number[] = []
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92) i++
      else if (ch === 34) inString = false
    } else if (ch === 34) inString = true
    else if (ch === 123) commas.push(0)
    else if (ch === 91) commas.push(-1)
    else if (ch === 125 || ch === 93) commas.pop()
    else if (ch === 44 && commas.length && commas[commas.length - 1]! >= 0) {
      if (++commas[commas.length - 1]! >= max) return true
    }
  }
  return false
}

/**
 * What `nestedDeeperThan(text, maxDepth)` (server/app.ts) and then `objectWiderThan(text, maxMembers)` would say, in
 * one pass instead of two: 'deep' when the first is true, else 'wide' when the second is, else undefined. Both walk
 * the same characters (strings skipped alike), so one walk keeps both counts: the depth as nestedDeeperThan keeps it
 * (it may go below zero in malformed text) and the comma stack as objectWiderThan keeps it. A wide object found first
 * does not end the walk: depth is still looked for, since it wins.
 */
export function jsonShapeFault(text: string, maxDepth: number, maxMembers: number): 'deep' | 'wide' | undefined {
  let depth = 0
  let wide = false
  const commas: number[] = []
  // The next backslash at or after where a string is being read (-1: none left). A string is crossed with
  // indexOf (long base64 bodies are one string), stepping over each escaped character as the per-character walk does.
  let slash = text.indexOf('\\')
  // Likewise the next quote at or after that place (-1: none left): both are searched again only once passed, so a
  // string of many escapes is crossed in linear time (searching for the quote at every escape was quadratic: a
  // 1 MiB JSON upload of escaped characters held the loop for seconds).
  let quote = text.indexOf('"')
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 34) {
      let j = i + 1
      for (;;) {
        if (slash !== -1 && slash < j) slash = text.indexOf('\\', j)
        if (quote !== -1 && quote < j) quote = text.indexOf('"', j)
        if (quote === -1) return wide ? 'wide' : undefined
        if (slash !== -1 && slash < quote) j = slash + 2
        else {
          i = quote
          break
        }
      }
    } else if (ch === 123 || ch === 91) {
      if (++depth > maxDepth) return 'deep'
      if (!wide) commas.push(ch === 123 ? 0 : -1)
    } else if (ch === 125 || ch === 93) {
      depth--
      if (!wide) commas.pop()
    } else if (ch === 44 && !wide && commas.length && commas[commas.length - 1]! >= 0) {
      if (++commas[commas.length - 1]! >= maxMembers) wide = true
    }
  }
  return wide ? 'wide' : undefined
}
