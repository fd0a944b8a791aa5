/**
 * A date or time offered after an "or" (or another hedge word: answer.ts `OR_ALTERNATIVE`) that is no value but a
 * move away from the one before it (docs/decisions/0460): "4 June, or a week later", "3pm or an hour earlier", "4 June
 * or the day after", "or tomorrow", or blurred ("4 June or so", "or thereabouts", "give or take a day", "plus or
 * minus a day"). The text after the hedge word, up to its clause's end, is what is read. A bare "or later" is a bound
 * ("free from 15:00 or later"), not read; amounts are left: "$X or so" pays (0415).
 */
const APPROXIMATE = /^\s*(?:so|thereabouts|take|minus)\b/i
const COUNT = String.raw`(?:a|an|one|two|three|four|five|six|seven|a\s+few|a\s+couple(?:\s+of)?|several|some|\d+)`
const UNIT = String.raw`(?:business\s+|working\s+)?(?:minutes?|hours?|days?|weeks?|months?)`
const DAY = String.raw`(?:day|week|month|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)`
const OFFSET = new RegExp(
  String.raw`^\s*(?:${COUNT}\s+(?:more\s+)?${UNIT}\s+(?:later|earlier|after(?:wards)?|before(?:hand)?|sooner|on)\b|` +
    String.raw`(?:the\s+)?(?:day|week|month|weekend)\s+(?:after|before)\b|` +
    String.raw`(?:the\s+)?(?:next|following|previous|prior)\s+${DAY}\b|tomorrow\b)`,
  'i',
)

/** Whether `right`, the text after a hedge word, moves or blurs the date or time before it. */
export function relativeAlternative(right: string, kind: 'number' | 'date' | 'instant'): boolean {
  return kind !== 'number' && (APPROXIMATE.test(right) || OFFSET.test(right))
}
