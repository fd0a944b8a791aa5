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
 *   sign" (with "sign" or "key") after a number are `#`; a space between a number and `%`/`#` goes;
 * - "dash", "hyphen" and "minus" are `-`, "underscore" is `_` (a credential is compared by its letters and digits).
 * Letters spelled in a phonetic alphabet, Roman numerals and arithmetic ("48 times 100 plus 21") are not read.
 */
export function spelledOut(text: string): string {
  return wordsAsDigits(text)
    .replace(HUNDREDS, (_, h: string, rest?: string) => String(Number(h) * 100 + Number(rest ?? 0)))
    .replace(THOUSANDS, (_, k: string, rest?: string) => String(Number(k) * 1000 + Number(rest ?? 0)))
    .replace(OH, '0')
    .replace(DIGIT_LIST, (run) => run.replace(/\D/g, ''))
    .replace(RUN, (run) => run.replace(/\D/g, ''))
    .replace(PERCENT, '$1%')
    .replace(HASH, '$1#')
    .replace(DASH, '-')
    .replace(UNDERSCORE, '_')
}

const HUNDREDS = /\b(\d{1,2})[ \t-]+hundred\b(?:[ \t-]+(?:and[ \t]+)?(\d{1,2})\b)?/g
const THOUSANDS = /\b(\d{1,3})[ \t-]+thousand\b(?:[ \t-]+(?:and[ \t]+)?(\d{1,3})\b)?/g
const OH = /(?<=\d[ \t,-]*)\boh\b|\boh\b(?=[ \t,-]*\d)/g
const DIGIT_LIST = /\b\d(?:[ \t]*,[ \t]*\d\b)+/g
const RUN = /\b\d+(?:(?:[ \t]*-[ \t]*|[ \t]+)\d+\b)+/g
const PERCENT = /(\d)[ \t]*(?:\bper[ \t]?cent\b|\bpct\b|%)/g
const HASH =
  /(\d)[ \t]*(?:(?:\bthe[ \t]+)?\b(?:hash(?:tag)?|pound|octothorpe|number[ \t]+sign)(?:[ \t]+(?:sign|key))?\b|#)/g
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
  const nums: { at: number; d: string }[] = []
  for (const m of text.matchAll(NUMBER)) nums.push({ at: m.index, d: /^\d+$/.test(m[0]) ? m[0] : '' })
  for (let i = 0; i < nums.length; i++) {
    let got = ''
    for (let j = i; j < nums.length && nums[j]!.at - nums[i]!.at <= PIECE_SPAN; j++) {
      const d = nums[j]!.d
      if (d.length < 2) break
      got += d
      if (got === digits) return true
      if (!digits.startsWith(got)) break
    }
  }
  return false
}

const NUMBER = /\d+(?:[:./,-]\d+)*/g
