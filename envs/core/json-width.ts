/** Most members one JSON object of a request may have (docs/decisions/0387). */
export const MAX_JSON_MEMBERS = 1000

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
