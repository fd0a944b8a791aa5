import { readerText } from './reader-text.ts'
import { APART, ENDORSES, listedPairs, tokensOf, type Token } from './answer-lists.ts'

/**
 * Whether an answer offers the expected name and another name as alternatives (docs/decisions/0418): "Hugo or Liam",
 * "either Liam or Hugo Iyer", "Hugo Iyer (hugo@…), or maybe liam@…". Before, a name answer was judged by the planted
 * wrong candidates alone, so a policy unsure between the expected person and one nobody planted could name both.
 *
 * Read at one "or"/"nor" at a time (also "or maybe/perhaps/possibly/else/rather/even"): the word right before it
 * (past a parenthesis and an address given with the name) and the word right after it. One side must be a word of
 * the expected name or one of its aliases, and the other a capitalised word that is not, or an address that is not
 * an alias. Only the words touching the "or" count, so "Hugo can edit, or ask Sami" and "Hugo. Or ask IT" (a
 * lower-case word after the "or") and "edit or comment" offer nothing; pronouns and sentence words ("or I", "or
 * Nobody") are not names. `text` is the answer with its case (readerText lowers it): only its invisible characters
 * are dropped, and words are compared through readerText (look-alike letters folded). A name asked as a question is
 * a hedge as answer.ts's `questioned` values are (docs/decisions/0444): "Hugo (Liam?)", "Hugo, Liam?", "Hugo? Maybe
 * Liam"; a question of other words ("Hugo, want me to ping him?", "Hugo. Shall I ask Liam?") offers nothing.
 */
export function offersOtherName(text: string, names: readonly string[]): boolean {
  text = questionedNames(text.normalize('NFKC').replace(/\p{Cf}/gu, ''))
  const words = new Set(names.flatMap((n) => fold(n).split(/[^a-z0-9@._+-]+/)).filter((w) => w.length > 1))
  const emails = new Set(names.filter((n) => n.includes('@')).map(fold))
  const mine = (w: string) => words.has(fold(w)) || emails.has(fold(w))
  const other = (w: string) => !mine(w) && (w.includes('@') || (/^\p{Lu}/u.test(w) && !NOT_NAMES.has(fold(w))))
  if (listsOtherName(text, mine, other) || repeatsForOther(text, mine, other)) return true
  if (text.search(OR) < 0) return false
  for (const m of text.matchAll(OR)) {
    const left = LEFT.exec(text.slice(Math.max(0, m.index - REACH), m.index).replace(FILLER, ''))?.[1]
    const right = RIGHT.exec(text.slice(m.index + m[0].length, m.index + m[0].length + REACH))?.[1]
    if (!left || !right) continue
    if ((mine(left) && other(right)) || (mine(right) && other(left))) return true
  }
  return false
}

/**
 * A name listed beside another without an "or" (docs/decisions/0447): "Hugo, Liam", "Hugo Iyer and Liam Chen",
 * "Hugo Iyer & liam@… can edit", "Hugo. Liam." Names are runs of up to four capitalised words or an address, listed
 * as answer-lists.ts lists values (a comma, semicolon, "&", "and", a sentence's end or a bracket between them, the
 * second ending its clause or followed by words that do not set it apart). One run must hold a word of the expected
 * name and the other only words that are not, its first a name (`other`).
 */
function listsOtherName(text: string, mine: (w: string) => boolean, other: (w: string) => boolean): boolean {
  const runs = tokensOf(text, NAME_RUN)
  const split = (t: { text: string }) => t.text.split(/\s+/)
  const isMine = (t: { text: string }) => split(t).some(mine)
  const isOther = (t: { text: string }) => !isMine(t) && other(split(t)[0]!)
  // Across a sentence's end the second name stands alone or is endorsed ("Hugo. Liam.", "Hugo. Liam can too."):
  // "Hugo. Please confirm." starts a sentence.
  const alone = (a: Token, b: Token) => {
    const after = text.slice(b.at + b.text.length)
    const clause = after.split(/[.;!?\n](?=\s|$)|[()]/)[0]!
    return (
      !/[.?!]/.test(text.slice(a.at + a.text.length, b.at)) ||
      /^\s*(?:$|[.;!?)\]\n,&])/.test(after) ||
      ENDORSES.test(clause)
    )
  }
  return listedPairs(text, runs).some(
    ([a, b]) => alone(a, b) && ((isMine(a) && isOther(b)) || (isMine(b) && isOther(a))),
  )
}
/**
 * Two clauses that say the same of two people (0451): "Hugo can. Zed Quill can as well.", "Hugo can edit; Zed Quill
 * can edit.", "Zed Quill can, Hugo can too." A clause whose first name is another's (no word of the expected name in
 * it, and it starts the clause) says of that person what the expected name's clause says, or endorses it ("too", "as
 * well", "works"), and sets nothing apart ("was the old one", "can't", "only views"). Clauses end at a sentence's
 * end, a semicolon, a comma or "and"/"but".
 */
function repeatsForOther(text: string, mine: (w: string) => boolean, other: (w: string) => boolean): boolean {
  const clauses = text.split(/[.;!?,](?=\s|$)|\n|\b(?:and|but)\b/)
  const named = clauses.flatMap((c) => {
    const run = tokensOf(c, NAME_RUN).find((r) => r.text.split(/\s+/).some(mine) || other(r.text.split(/\s+/)[0]!))
    return run ? [{ run, lead: c.slice(0, run.at), after: c.slice(run.at + run.text.length) }] : []
  })
  const said = (after: string) => ` ${after.toLowerCase().replace(SAID_AGAIN, ' ')} `.replace(/\s+/g, ' ').trim()
  const mineSaid = named.filter(({ run }) => run.text.split(/\s+/).some(mine)).map(({ after }) => said(after))
  if (mineSaid.length === 0) return false
  return named.some(({ run, lead, after }) => {
    if (run.text.split(/\s+/).some(mine) || !LEADS.test(lead) || APART.test(after) || /\b(?:only|just)\b/i.test(after))
      return false
    return ENDORSES.test(after) || (said(after) !== '' && mineSaid.includes(said(after)))
  })
}
/** What may come before the other name in its clause: it is the clause's subject ("I think Zed Quill can too"). */
const LEADS = /^\s*(?:(?:i\s+think|i\s+believe|probably|maybe|perhaps|also|then|so)\b[\s,]*)*$/i
/** Words that only say a clause again of someone else ("too", "as well"), and punctuation. */
const SAID_AGAIN = /\b(?:too|also|as\s+well|either)\b|[^\p{L}\p{N}\s]/gu

const NAME_RUN = /[\w.+-]+@[\w.-]+\w|\p{Lu}[\p{L}'\u2019-]*(?:\s+\p{Lu}[\p{L}'\u2019-]*){0,3}/gu

const fold = (s: string) =>
  readerText(s)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
/** "or" and the hedges answer.ts reads as one ("maybe", "could also be", a slash: docs/decisions/0441). */
const OR = new RegExp(
  String.raw`\b(?:or|nor)\b(?:\s+(?:maybe|perhaps|possibly|else|rather|even))?|` +
    String.raw`\b(?:maybe|perhaps|possibly|probably|alternatively|otherwise|else|unless|if\s+not)\b|` +
    // A second choice offered by name ("12:30 (alt: 15:30)", "backup 2 May", "Hugo, fallback Liam": 0447).
    String.raw`\b(?:alt|alternatives?|backup|back-up|fallback|fall-back|plan\s+b|second\s+choice|failing\s+that)\b|` +
    String.raw`\b(?:could|might|may)\s+(?:also\s+|even\s+|well\s+)?be\b|\/`,
  'gi',
)
const REACH = 80

/** Words between a name and the hedge after it ("Hugo, probably. Might be …", "Hugo, but maybe …"). */
const FILLER = /(?:[\s,.;:]*\b(?:but|probably|though|i\s+think)\b)+[\s,.;:]*$/i
const WORD = String.raw`[\w.+-]+@[\w.-]+\w|[\p{L}][\p{L}'\u2019-]*`
/**
 * The word before an "or": past a parenthesis ("(hugo@…)") or an address in angle brackets, then a comma or a
 * sentence's end ("Hugo. Or Liam" continues the sentence; "Hugo? Maybe Liam" too: 0444).
 */
const LEFT = new RegExp(String.raw`(${WORD})\s*(?:\([^()]*\)|<[^<>]*>)?\s*[,.;:?(\u2013\u2014-]?\s*$`, 'u')
/** The word after an "or": past a colon or dash ("backup: Liam"), "either", an article-free start. */
const RIGHT = new RegExp(
  String.raw`^\s*[:\u2013\u2014-]?\s*(?:(?:either|then|it\s+is|it['\u2019]s|it\s+was|is|was)\s+)*(${WORD})`,
  'iu',
)
/** Capitalised words that start sentences or stand for people without naming one. */
const NOT_NAMES = new Set([
  ...'i it its he she they we you me him her them us this that these those the a an'.split(' '),
  ...'nobody noone anyone someone everyone no not none both neither either maybe perhaps ask check contact'.split(' '),
  ...'ok okay right yes correct sure agreed thanks cheers regards done hope note only just please'.split(' '),
  // Roles, teams and places an answer names beside a person or room ("Hugo Iyer (Editor)", "Rowan, Floor 3": 0447).
  ...'editor owner writer commenter reader viewer manager lead admin team floor room building'.split(' '),
  ...'finance engineering sales marketing legal design product support operations ops hr security'.split(' '),
  // What a sharing or booking answer says works besides the person or room ("Hugo. Access works too.": 0455).
  ...'access edit editing edits comment comments commenting view viewing share sharing link links'.split(' '),
  ...'permission permissions rights role roles booking bookings slot slots time times'.split(' '),
  ...'monday tuesday wednesday thursday friday saturday sunday today tomorrow'.split(' '),
])

/**
 * A bare name put after another as a question ("Hugo (Liam?)", "Hugo, Liam Chen?", "Hugo; liam@…?") read as "or"
 * that name: up to four capitalised words or an address, right after a comma, semicolon or bracket, then "?". A
 * question with other words, or of words that are no name ("(OK?)", "(Right?)"), is left as written.
 */
function questionedNames(text: string): string {
  return text.replace(QUESTIONED, (whole, lead: string, v: string) =>
    v.split(/\s+/).every((w) => w.includes('@') || (/^\p{Lu}/u.test(w) && !NOT_NAMES.has(fold(w))))
      ? `${lead.replace(/[,;(]/, '')} or ${v}.`
      : whole,
  )
}
const QUESTIONED = new RegExp(String.raw`([,;(]\s*)((?:${WORD})(?:\s+(?:${WORD})){0,3})\s*\?\s*\)?`, 'gu')
