/**
 * Values written as a bare list (docs/decisions/0444): "12:30, 15:30", "4; 11", "29 April and 2 May", "$3,614.55 &
 * $3,621.55", "12:30. 15:30.", "12:30 (15:30)". Two values are listed when nothing but a comma, semicolon, "&",
 * "and", a sentence's end or an opening bracket stands between them and the second one ends its clause ("12:30,
 * 15:30.", "…, 15:30)") or goes on into the list ("12:30, 15:30, 17:00"). A value followed by words ("12:30, 15:30
 * works too", "4, 2 declined") or parted by words ("starts 12:30, ends 15:30", "12:30, an hour after the 11:30
 * stand-up") is context, not a list, and "between 12:30 and 13:30" a range. Reads text only: answer.ts compares the
 * values.
 */
export type Token = { text: string; at: number }

const JOINT = /^\s*(?:,|;|&|\band\b|[.?!]|\()\s*$/
/** What may follow the last value of a list: the text's end, a clause's end, a closing bracket, another joint. */
const LIST_GOES_ON = /^\s*(?:$|[.;!?)\]\n]|,|&|\band\b)/

/** Every match of `token` in `text` (a global regex), in order; a final dot ("Apr.", "p.m.") may end a sentence too. */
export function tokensOf(text: string, token: RegExp): Token[] {
  return [...text.matchAll(token)].map((m) => ({ text: m[0].replace(/\.$/, ''), at: m.index }))
}

/** Pairs of neighbouring tokens written as a bare list. */
export function listedPairs(text: string, tokens: Token[]): [Token, Token][] {
  const out: [Token, Token][] = []
  for (let i = 1; i < tokens.length; i++) {
    const [a, b] = [tokens[i - 1]!, tokens[i]!]
    const gap = text.slice(a.at + a.text.length, b.at)
    if (!JOINT.test(gap)) continue
    // "between 12:30 and 13:30" is a range, not two values.
    if (/\band\b/.test(gap) && /\bbetween\s*$/.test(text.slice(0, a.at))) continue
    const next = tokens[i + 1]
    const after = text.slice(b.at + b.text.length, next ? next.at : undefined)
    if (LIST_GOES_ON.test(after)) out.push([a, b])
  }
  return out
}
