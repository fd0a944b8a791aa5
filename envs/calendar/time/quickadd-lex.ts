/**
 * Tokens of quickAdd text. Words are lower-cased in `norm`; `text` keeps the original for the summary.
 * Clock times (`1pm`, `9:30`, `10:25am`), slashed/ISO dates and e-mail addresses become their own tokens.
 */
export type Meridiem = 'am' | 'pm'

export type Token =
  | { kind: 'word'; text: string; norm: string; from: number; to: number }
  | { kind: 'num'; text: string; value: number; ordinal: boolean; from: number; to: number }
  | { kind: 'time'; text: string; hour: number; minute: number; meridiem?: Meridiem; from: number; to: number }
  | { kind: 'date'; text: string; month: number; day: number; year?: number; from: number; to: number }
  | { kind: 'email'; text: string; from: number; to: number }
  | { kind: 'sym'; text: string; from: number; to: number }

// Order matters: the first pattern that matches at a position wins.
const PATTERNS: [RegExp, (m: RegExpExecArray, from: number, to: number) => Token | undefined][] = [
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/y, (m, from, to) => ({ kind: 'email', text: m[0], from, to })],
  [
    /(\d{4})-(\d{2})-(\d{2})(?![\d:])/y,
    (m, from, to) => ({ kind: 'date', text: m[0], year: +m[1]!, month: +m[2]!, day: +m[3]!, from, to }),
  ],
  [
    /(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?(?![\d/])/y,
    (m, from, to) => {
      const year = m[3] === undefined ? undefined : m[3].length === 2 ? 2000 + +m[3] : +m[3]
      return { kind: 'date', text: m[0], month: +m[1]!, day: +m[2]!, ...(year !== undefined ? { year } : {}), from, to }
    },
  ],
  [
    /(\d{1,2})(?::(\d{2}))?\s?([ap])\.?m\.?(?![a-z])/iy,
    (m, from, to) => clock(m[0], +m[1]!, m[2], m[3]!.toLowerCase() === 'a' ? 'am' : 'pm', from, to),
  ],
  [
    /(\d{1,2})\s?([ap])(?![a-z])/iy,
    (m, from, to) => clock(m[0], +m[1]!, undefined, m[2]!.toLowerCase() === 'a' ? 'am' : 'pm', from, to),
  ],
  [/(\d{1,2})[:.](\d{2})(?![\d])/y, (m, from, to) => clock(m[0], +m[1]!, m[2], undefined, from, to)],
  [
    /(\d+(?:\.\d+)?)(st|nd|rd|th)?(?![a-z\d])/iy,
    (m, from, to) => ({ kind: 'num', text: m[0], value: Number(m[1]), ordinal: !!m[2], from, to }),
  ],
  [
    /[\p{L}\p{N}][\p{L}\p{N}'’&.]*/uy,
    (m, from) => {
      const text = m[0].replace(/\.$/, '')
      return { kind: 'word', text, norm: text.toLowerCase().replace(/’/g, "'"), from, to: from + text.length }
    },
  ],
  [/[-–—@,;!?()"/+]/y, (m, from, to) => ({ kind: 'sym', text: m[0], from, to })],
]

function clock(
  text: string,
  hour: number,
  minute: string | undefined,
  meridiem: Meridiem | undefined,
  from: number,
  to: number,
): Token | undefined {
  const min = minute === undefined ? 0 : +minute
  if (min > 59 || hour > (meridiem ? 12 : 24) || (meridiem && hour === 0)) return undefined
  return { kind: 'time', text, hour, minute: min, ...(meridiem ? { meridiem } : {}), from, to }
}

export function tokenize(input: string): Token[] {
  const out: Token[] = []
  let i = 0
  outer: while (i < input.length) {
    if (/\s/.test(input[i]!)) {
      i++
      continue
    }
    for (const [re, make] of PATTERNS) {
      re.lastIndex = i
      const m = re.exec(input)
      if (!m || m[0].length === 0) continue
      const token = make(m, i, i + m[0].length)
      if (!token) continue
      out.push(token)
      i = token.to
      continue outer
    }
    out.push({ kind: 'sym', text: input[i]!, from: i, to: i + 1 })
    i++
  }
  return out
}
