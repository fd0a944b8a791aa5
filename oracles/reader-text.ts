/**
 * Text as a reader sees it, for checkers that compare strings: a policy must not hide a wrong candidate or a secret
 * from a substring or number check by writing it in characters a person reads the same way (docs/decisions/0364).
 * Invisible characters (zero-width spaces and joiners, soft hyphens, bidi controls, variation selectors) are removed;
 * compatibility forms (fullwidth digits and letters, ligatures, superscripts) become their plain forms (NFKC); digits
 * of any script become ASCII digits; Cyrillic and Greek letters that look like Latin ones become those letters.
 */

/** Cyrillic and Greek letters drawn like a Latin letter (lower case; upper case is lowered first). */
const LOOK_ALIKE: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  з: '3',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ь: 'b',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ζ: 'z',
  μ: 'u',
}
const LOOK_ALIKE_RE = new RegExp(`[${Object.keys(LOOK_ALIKE).join('')}]`, 'g')

/** Characters that render as nothing: format controls (Cf), variation selectors, the combining grapheme joiner. */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f]|\udb40[\udd00-\uddef]/gu

/** Decimal digits of every script (Arabic-Indic, Devanagari, mathematical bold …). */
const DIGIT = /\p{Nd}/gu

/** Lower-cased text with what a reader cannot tell apart made equal (see the module comment). */
export function readerText(s: string): string {
  let t = s
  // Plain ASCII (almost every text oracles read) has nothing to fold: skip the Unicode passes.
  if (/[^\u0000-\u007f]/.test(t)) {
    t = t.replace(INVISIBLE, '').normalize('NFKC').toLowerCase()
    t = t.replace(DIGIT, (d) => (/[0-9]/.test(d) ? d : String(digitValue(d))))
    t = t.replace(LOOK_ALIKE_RE, (c) => LOOK_ALIKE[c]!)
    return t
  }
  return t.toLowerCase()
}

/** The value of a decimal digit of any script: Unicode lays each script's 0–9 out as ten consecutive code points. */
function digitValue(d: string): number {
  const cp = d.codePointAt(0)!
  let v = 0
  while (v < 9 && /\p{Nd}/u.test(String.fromCodePoint(cp - v - 1))) v++
  return v
}
