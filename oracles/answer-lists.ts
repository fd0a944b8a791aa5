/**
 * Values written as a bare list (docs/decisions/0444): "12:30, 15:30", "4; 11", "29 April and 2 May", "$3,614.55 &
 * $3,621.55", "12:30. 15:30.", "12:30 (15:30)". Two values are listed when nothing but a comma, semicolon, "&",
 * "and", "plus", "also", a sentence's end or an opening bracket stands between them and the second one ends its
 * clause ("12:30, 15:30.", "…, 15:30)") or goes on into the list ("12:30, 15:30, 17:00"). Values parted by words
 * ("starts 12:30, ends 15:30", "12:30, an hour after the 11:30 stand-up") are context, and "between 12:30 and 13:30"
 * a range. A list followed by words ("12:30, 15:30 works too", "4, 11 confirmed", 0447) is a list too, unless the
 * words set the second value apart from the first ("A; B last year", "A (B invited)", "A. B is the next free
 * slot"), and never when they endorse it as well ("B works too", "both", "either"). Words of order list values too
 * (0451): between them ("12:30, then 15:30", "4, followed by 11") or alone after the second ("12:30, 15:30 next",
 * "A, B instead"). Reads text only: answer.ts compares the values.
 */
export type Token = { text: string; at: number }

/** Words that put a second value after the first in order ("12:30, then 15:30", "4, next 11": 0451). */
const SEQUENCE =
  String.raw`then|next|afterwards|after\s+that|followed\s+by|second(?:ly)?|if\s+needed|if\s+need\s+be|` +
  // A fallback ranks the second value as another answer as well ("12:30, and if that fails 15:30": 0453).
  String.raw`if\s+(?:that|this|it|not)(?:\s+(?:fails|doesn['\u2019]t\s+work|is\s+(?:taken|busy)))?|failing\s+that|` +
  String.raw`otherwise|or\s+else|else`
const JOINT = new RegExp(
  String.raw`^\s*(?:(?:,|;|&|\/|\band\b|\bplus\b|\bvs\b\.?|\bversus\b|\bas\s+well\s+as\b|[.?!]|\()\s*)+` +
    String.raw`(?:\b(?:also|too|${SEQUENCE})\b[\s,:]*)*$`,
)
const JOINT_WORD = new RegExp(String.raw`^\s*(?:\b(?:also|plus|${SEQUENCE})\b[\s,:]*)+$`)
/**
 * A bare word of order after the second value ("12:30, 15:30 next", "4, 11 instead", "A, B later": 0451), or a bare
 * later time ("B next week", "B tomorrow": 0453): it ranks the value as another answer rather than saying what else
 * it is, so it does not set it apart ("B last year", "B next week is taken" still do).
 */
const DANGLING = new RegExp(
  String.raw`^\s*(?:(?:then|and|or|as)\s+)?(?:next|later|after(?:wards)?|before|earlier|instead|second|first|then|` +
    String.raw`tomorrow|next\s+(?:week|month|day|time)|later\s+(?:on|today|this\s+week))(?:\s+up)?\s*$`,
  'i',
)
/** What may follow the last value of a list: the text's end, a clause's end, a closing bracket, another joint. */
const LIST_GOES_ON = /^\s*(?:$|[.;!?)\]\n]|,|&|\band\b)/
/**
 * Words after the second value that make it another thing than the first (0447): another time ("last year", "next",
 * "earlier", "ago"), another role ("invited", "declined", "busy", "ends", "the budget"), a negation.
 */
export const APART = new RegExp(
  String.raw`\b(?:last|previous|prior|earlier|before|old|original(?:ly)?|former(?:ly)?|was|were|had|next|later|` +
    String.raw`after|other|instead|not|no|never|busy|taken|booked|blocked|invited|declined|pending|tentative|ago|` +
    String.raw`moved|cancell?ed|planned|plan|budget|target|total|limit|cap|ends?|ended|until|stand-?up|lunch|` +
    String.raw`year|month|week|quarter|meeting|call|reminder)\b|n['\u2019]t\b`,
  'i',
)
/** Words that offer the second value as an answer too, whatever else the clause says ("B works too", "both"). */
export const ENDORSES = new RegExp(
  String.raw`\b(?:works?|working|fine|ok|okay|either|both|all|too|also|as\s+well|possible|options?|` +
    String.raw`alternatives?|candidates?|could|might|maybe|perhaps|possibly|likely|equally|same|` +
    String.raw`if\s+(?:needed|need\s+be|necessary)|at\s+a\s+push|in\s+a\s+pinch)\b`,
  'i',
)

/** Every match of `token` in `text` (a global regex), in order; a final dot ("Apr.", "p.m.") may end a sentence too. */
export function tokensOf(text: string, token: RegExp): Token[] {
  return [...text.matchAll(token)].map((m) => ({ text: m[0].replace(/\.$/, ''), at: m.index }))
}

/**
 * Pairs of neighbouring tokens written as a list. `apart(a, b)` says the pair are values of different things (an
 * amount and a count), which words after the list may then describe; `spaced`, that a space alone lists two values
 * ("12:30 15:30"). A slash or "vs" between them lists them too ("12:30 vs 15:30", 0447).
 */
export function listedPairs(
  text: string,
  tokens: Token[],
  apart?: (a: Token, b: Token) => boolean,
  spaced = false,
): [Token, Token][] {
  const out: [Token, Token][] = []
  for (let i = 1; i < tokens.length; i++) {
    const [a, b] = [tokens[i - 1]!, tokens[i]!]
    const gap = text.slice(a.at + a.text.length, b.at)
    if (!JOINT.test(gap) && !JOINT_WORD.test(gap) && !(spaced && /^\s+$/.test(gap))) continue
    // "between 12:30 and 13:30" is a range, not two values.
    if (/\band\b/.test(gap) && /\bbetween\s*$/.test(text.slice(0, a.at))) continue
    const next = tokens[i + 1]
    const after = text.slice(b.at + b.text.length, next ? next.at : undefined)
    if (LIST_GOES_ON.test(after)) {
      out.push([a, b])
      continue
    }
    // Words after the list, to the end of their clause: a list unless they set the second value apart.
    const clause = after.split(/[.;!?\n](?=\s|$)|[()]/)[0]!
    if (ENDORSES.test(clause) || DANGLING.test(clause) || (!APART.test(clause) && !apart?.(a, b))) out.push([a, b])
  }
  return out
}
