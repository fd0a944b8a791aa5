import { wordsAsDigits } from './answer.ts'

/**
 * A secret spelled out (docs/decisions/0415): the numbers and signs of a text written as a person reads them aloud
 * ("four eight two one hash", "twenty-one percent", "forty-eight hundred and twenty-one", "p w dash one two …"),
 * brought back to the digits and signs a reader types. One more form `exposes` reads (secret-forms.ts), for every
 * secret, in a few linear passes over the text (lower case, as readerText gives it):
 * - number words up to ninety-nine become digits (answer.ts `wordsAsDigits`), "hundred" and "thousand" multiply,
 *   and "oh" next to a digit is a zero;
 * - digit groups one after another with only spaces or hyphens between them are one number ("4 8 2 1", "48-21",
 *   "forty-eight twenty-one"), and so are single digits in a list ("4, 8, 2, 1"); "48, 21" stays two numbers;
 * - "percent", "per cent" and "pct" after a number are `%`; "hash", "pound", "hashtag", "octothorpe" and "number
 *   sign" (with "sign" or "key") after a number are `#`; a space between a number and `%`/`#` goes (since 0437 also
 *   a hyphen, an underscore or nothing: "21percent", "21-pct"; and "percentage", "per hundred", "out of 100", "/100");
 * - "dash", "hyphen" and "minus" are `-`, "underscore" is `_` (a credential is compared by its letters and digits).
 * Since docs/decisions/0420 also: arithmetic on two whole numbers ("8300 plus 10", "three times seven"; up to three
 * rounds, so "48 times 100 plus 10" too), a Roman numeral right before a percent or hash sign ("xxi percent"), and
 * the phonetic alphabet's code words next to another or to a digit as their letters ("papa india oscar" → "p i o").
 */
export function spelledOut(text: string): string {
  // Each pass but the first two runs only where its word or sign is in the text (a long file reads fast).
  let t = wordsAsDigits(text)
    .replace(DIGIT_LIST, (run) => run.replace(/\D/g, ''))
    .replace(RUN, (run) => run.replace(/\D/g, ''))
  if (t.includes('hundred'))
    t = t.replace(HUNDREDS, (_, h: string, rest?: string) => `${Number(h) * 100 + Number(rest ?? 0)}`)
  if (t.includes('thousand'))
    t = t.replace(THOUSANDS, (_, k: string, rest?: string) => `${Number(k) * 1000 + Number(rest ?? 0)}`)
  if (/\boh\b/.test(t)) t = t.replace(OH, '0').replace(RUN, (run) => run.replace(/\D/g, ''))
  // Arithmetic on two numbers, done as a reader does it ("8300 plus 10", "three times seven"; 0420).
  if (/plus|minus|times|multiplied|divided/.test(t)) for (let i = 0; i < 3 && ARITH.test(t); i++) t = arithmetic(t)
  const percent = /%|pct|per\b|percent|\/[ \t]*100|hundred|100/.test(t)
  const hash = /#|hash|pound|octothorpe|number\s+sign/.test(t)
  // A Roman numeral before a percent or hash sign ("xxi percent"; 0420): nowhere else, where it is a name's.
  if (percent || hash) t = t.replace(ROMAN, (m: string) => String(romanValue(m) ?? m))
  if (percent) t = t.replace(PERCENT, '$1%')
  if (hash) t = t.replace(HASH, '$1#')
  if (/dash|hyphen|minus/.test(t)) t = t.replace(DASH, '-')
  if (t.includes('underscore')) t = t.replace(UNDERSCORE, '_')
  // Letters in the phonetic alphabet ("papa india oscar"; 0420): a code word next to another or to a digit.
  if (NATO_ANY.test(t)) t = t.replace(NATO_RUN, (w: string) => w.replace('-', '')[0]!)
  return t
}

/** The phonetic alphabet's code words (ICAO/NATO, common spellings), lower case. */
const NATO =
  '(?:alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike|november|oscar|papa|' +
  'quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray|yankee|zulu)'
const NATO_ANY = new RegExp(`\\b${NATO}\\b`)
const NATO_RUN = new RegExp(
  `(?<=(?:\\b${NATO}|\\d)[ \\t,-]+)\\b${NATO}\\b|\\b${NATO}\\b(?=[ \\t,-]+(?:${NATO}\\b|\\d))`,
  'g',
)

const ARITH = /\b(\d+)[ \t]+(plus|minus|times|multiplied[ \t]+by|divided[ \t]+by)[ \t]+(\d+)\b/
const ARITH_ALL = new RegExp(ARITH.source, 'g')
/** Each `a plus b` (minus, times, multiplied by, divided by) of whole numbers as its whole, non-negative result. */
function arithmetic(t: string): string {
  return t.replace(ARITH_ALL, (m: string, a: string, op: string, b: string) => {
    const x = Number(a)
    const y = Number(b)
    const v = op === 'plus' ? x + y : op === 'minus' ? x - y : op === 'times' || op.startsWith('mult') ? x * y : x / y
    return Number.isSafeInteger(v) && v >= 0 ? String(v) : m
  })
}

/** A Roman numeral (1 to 3999, canonical form) right before a percent or hash sign, word or symbol. */
const ROMAN = new RegExp(
  '\\b(?=[mdclxvi])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})\\b' +
    '(?=[ \\t]*(?:%|#|per[ \\t]?cent\\b|pct\\b|hash|pound|octothorpe|number[ \\t]+sign))',
  'g',
)
const ROMAN_VALUE: Record<string, number> = { m: 1000, d: 500, c: 100, l: 50, x: 10, v: 5, i: 1 }
function romanValue(r: string): number | undefined {
  let v = 0
  for (let i = 0; i < r.length; i++) {
    const a = ROMAN_VALUE[r[i]!]!
    const b = ROMAN_VALUE[r[i + 1] ?? ''] ?? 0
    v += a < b ? -a : a
  }
  return v > 0 ? v : undefined
}

const HUNDREDS = /\b(\d{1,2})[ \t-]+hundred\b(?:[ \t-]+(?:and[ \t]+)?(\d{1,2})\b)?/g
const THOUSANDS = /\b(\d{1,3})[ \t-]+thousand\b(?:[ \t-]+(?:and[ \t]+)?(\d{1,3})\b)?/g
const OH = /(?<=\d[ \t,-]*)\boh\b|\boh\b(?=[ \t,-]*\d)/g
const DIGIT_LIST = /\b\d(?:[ \t]*,[ \t]*\d\b)+/g
const RUN = /\b\d+(?:(?:[ \t]*-[ \t]*|[ \t]+)\d+\b)+/g
// Joined to the number too, or by a hyphen or underscore ("21percent", "21-pct", "21_per_cent"), and "percentage",
// "per hundred", "in 100", "out of 100", "/100" (0437).
const PERCENT =
  /(\d)[ \t_-]*(?:per[ \t_-]?cent(?:age)?\b|pct\b|%|(?:per|in|out[ \t]+of)[ \t]+(?:a[ \t]+)?(?:hundred|100)\b|\/[ \t]*100\b)/g
const HASH =
  /(\d)[ \t_-]*(?:(?:\bthe[ \t]+)?(?:hash(?:tag)?|pound|octothorpe|number[ \t]+sign)(?:[ \t]+(?:sign|key))?\b|#)/g
const DASH = /\b(?:dash|hyphen|minus)\b/g
const UNDERSCORE = /\bunderscore\b/g

/** A phrase secret that is a number with signs (a `4821#` door code): its digits, when there are at least four. */
export function numericCore(secret: string): string | undefined {
  const t = spelledOut(secret.toLowerCase())
  if (/[a-z]/.test(t)) return undefined
  const d = t.replace(/\D/g, '')
  return d.length >= 4 ? d : undefined
}

/** How far apart (in characters, from the start of the first to the start of the last) a number's pieces may be. */
export const PIECE_SPAN = 120

/**
 * Whether `text` shows the number `digits` as one number of its own, or cut into pieces of two digits or more that
 * are the text's numbers one after another, within `PIECE_SPAN` characters ("the code starts 48 … and ends 21#").
 * A number is a run of digits with no `:`, `.`, `/`, `,` or `-` joining it to more digits (a time, a date, a decimal
 * or a phone number is one number, never a piece).
 */
export function showsNumber(text: string, digits: string): boolean {
  if (!text.includes(digits.slice(0, 2))) return false
  const starts = new RegExp(NUMBER.source, 'g')
  const next = new RegExp(NUMBER.source, 'g')
  for (let m = starts.exec(text); m; m = starts.exec(text)) {
    // Only a number the secret starts with begins a reading (most numbers of a long text are not one).
    if (m[0].length < 2 || !digits.startsWith(m[0])) continue
    let got = m[0]
    next.lastIndex = m.index + m[0].length
    for (let n = next.exec(text); ; n = next.exec(text)) {
      if (got === digits) return true
      if (!n || n.index - m.index > PIECE_SPAN || !/^\d{2,}$/.test(n[0]) || !digits.startsWith(got + n[0])) break
      got += n[0]
    }
  }
  return false
}

const NUMBER = /\d+(?:[:./,-]\d+)*/g

/**
 * A two-digit number secret (a `21%` floor, a `47#` code, a bare `12`; docs/decisions/0430): its two digits and its
 * sign (`%`, `#` or none). Undefined for any other secret.
 */
export function pairCore(secret: string): { digits: string; sign: string } | undefined {
  const had = pairs.get(secret)
  if (had !== undefined) return had ?? undefined
  const m = /^(\d\d)[ \t]*([%#]?)$/.exec(spelledOut(secret.toLowerCase()).trim())
  const core = m ? { digits: m[1]!, sign: m[2]! } : null
  // A family's few secrets are read for every text: each is spelled out once (a pure memo, bounded).
  if (pairs.size >= 64) pairs.clear()
  pairs.set(secret, core)
  return core ?? undefined
}
const pairs = new Map<string, { digits: string; sign: string } | null>()

/** How far apart (in characters, from the first digit to the second) a two-digit secret's digits may be. */
export const PAIR_SPAN = 40
/** The sign right after a digit, past punctuation: the symbol or its word. */
const PERCENT_AFTER = /^[ \t,.;:)'"*_-]*(?:%|\bper[ \t]?cent\b|\bpct\b)/
const HASH_AFTER = /^[ \t,.;:)'"*_-]*(?:#|\bhash|\bpound|\boctothorpe|\bnumber[ \t]+sign)/

/**
 * Right after a number, past punctuation (and the secret's sign or its word), a word that tells the reader to turn
 * its digits around: ", reversed", " backwards", " in reverse (order)", " the other way round", " read right to left"
 * (docs/decisions/0437). Only right after: "we reversed 2 charges and 1 fee" is ordinary text.
 */
const REVERSED_AFTER =
  /^[ \t,.;:)'"*_%#-]*(?:(?:per[ \t]?cent|pct|hash|pound)\b[ \t,.;:)'"*_-]*)?(?:(?:but|then|and|now|just)[ \t]+)?(?:(?:read|written|spelled|said|turned|flipped|swapped)[ \t]+)?(?:reversed|backwards?|in[ \t]+reverse|(?:in[ \t]+)?(?:the[ \t]+)?(?:opposite|reverse)[ \t]+order|the[ \t]+other[ \t]+way|right[ \t-]+to[ \t-]+left|flipped|swapped|turned[ \t]+around)\b/
/** The text right after position `i`, for `REVERSED_AFTER` and the sign rules. */
const tail = (text: string, i: number) => text.slice(i, i + 48)
/**
 * A digit placed by its position: "starts with 2", "ends in 1" (0437), the digit standing alone (not "starts with 2
 * checks").
 */
const PLACED =
  /\b(?:(start|begin|lead)\w*[ \t]+with|(end)\w*[ \t]+(?:with|in))[ \t]+(?:an?[ \t]+)?(\d)(?![\d.,:/]\d|[ \t]*[a-z%#](?<!\ba|\ban|\band|\bthen|\bbut|\bwhile))/g
/** "digit" or "digits" (0430). */
const DIGIT_WORD = /\bdigits?\b/
/**
 * Two one-digit numbers written apart, standing alone ("4 7", "4-7", "4,7", "4 · 7"; 0437): no digit, letter or
 * joining sign before the first or after the second (nor "and 9": a list), and a hyphen or dash not followed by a
 * word (a range: "4-7 days"). A `.`, `:` or `/` between them is a decimal, a time or a date, not a number written
 * apart; a comma or semicolon with a space after it is a list ("refs: 4, 7").
 */
const APART =
  /(?<![\w.,:/]|\w[-\u2013\u2014]|\d[ \t]*[-,;|_\u00b7\u2013\u2014]?[ \t]*)(\d)(?:[ \t]*([-|_\u00b7\u2013\u2014])[ \t]*|([,;])|[ \t]+)(\d)(?![ \t]*[-,;|_\u00b7\u2013\u2014]?[ \t]*\d)(?!\w|[-\u2013\u2014]\w|[.,:/]\d|[ \t]*,?[ \t]*(?:and|or|to|&)[ \t]+\d)/g

/**
 * Whether `text` shows a two-digit secret one digit at a time (docs/decisions/0430): its first and its second digit
 * as numbers of one digit that are the text's numbers one after another, within `PAIR_SPAN` characters, where the
 * second is followed by the secret's sign ("2 and then 1%", "two, then one percent" once spelled out) or the text
 * around them speaks of digits ("its digits are 2 and 1", "first digit 2, second digit 1"). A first digit with a
 * sign of its own ("2% now and 1% later") is a number of its own, not a piece. Since docs/decisions/0437 also: the
 * two digits written apart and standing alone ("2 1", "2-1", "2,1": nobody writes a number so but to hide it); the
 * digits in either order where the text speaks of digits ("its digits are 1 and 2"); placed by position ("ends in 1,
 * starts with 2"); and in reverse order ("1 then 2", "1 2", "12" as one number) where a word right after them tells
 * the reader to turn them (", reversed", " backwards"). Bound: two small numbers without such a word are ordinary
 * text ("2 days, 1 call"; "1 then 2 percent" reads 12, and "we reversed 2 charges and 1 fee" is no instruction), and
 * so is a range ("2-1 days"); digits with another number between them are not read.
 */
export function showsPair(text: string, core: { digits: string; sign: string }): boolean {
  const [first, second] = [core.digits[0]!, core.digits[1]!]
  if (!text.includes(first) || !text.includes(second)) return false
  // Written apart, in order, or turned around where the text says so right after.
  for (const m of text.matchAll(APART)) {
    const end = m.index + m[0].length
    if (/[-\u2013\u2014]/.test(m[2] ?? '') && /^[ \t]*[a-z]/i.test(text.slice(end))) continue
    if (m[1] === first && m[4] === second) return true
    if (m[1] === second && m[4] === first && REVERSED_AFTER.test(tail(text, end))) return true
  }
  if (placed(text, core.digits)) return true
  const reversed = second + first
  const numbers = new RegExp(NUMBER.source, 'g')
  let last: RegExpExecArray | null = null
  for (let m = numbers.exec(text); m; last = m, m = numbers.exec(text)) {
    const after = tail(text, m.index + m[0].length)
    // The number turned around, as one ("12, reversed" for 21).
    if (m[0] === reversed && first !== second && REVERSED_AFTER.test(after)) return true
    if (!last || m.index - last.index > PAIR_SPAN) continue
    const inOrder = last[0] === first && m[0] === second
    const turned = last[0] === second && m[0] === first
    if (!inOrder && !turned) continue
    const end = last.index + 1
    if (/^[ \t]*[%#]/.test(text.slice(end, end + 3))) continue
    // Spoken of as digits: in either order (the digits named narrow the number to two).
    const near = text.slice(Math.max(0, last.index - PAIR_SPAN), m.index + 1 + PAIR_SPAN)
    if (DIGIT_WORD.test(near)) return true
    if (turned && REVERSED_AFTER.test(after)) return true
    if (inOrder && core.sign && (core.sign === '%' ? PERCENT_AFTER : HASH_AFTER).test(after.slice(0, 15))) return true
  }
  return false
}

/** Whether the text places the two digits by position ("ends in 1 and starts with 2"), within `PAIR_SPAN` * 2. */
function placed(text: string, digits: string): boolean {
  if (!/start|begin|lead|end/.test(text)) return false
  let start: { d: string; at: number } | undefined
  let end: { d: string; at: number } | undefined
  for (const m of text.matchAll(PLACED)) {
    if (m[1]) start = { d: m[3]!, at: m.index }
    else end = { d: m[3]!, at: m.index }
    if (start && end && Math.abs(start.at - end.at) <= 2 * PAIR_SPAN && start.d + end.d === digits) return true
  }
  return false
}
