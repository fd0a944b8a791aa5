/**
 * Linear-time equivalents of a few HTML-stripping regular expressions (docs/decisions/0392). Each function answers
 * exactly what its regular expression answers, but the expressions backtrack: an unclosed `<script>`, `<!--` or
 * `<` retried from every later `<` made 80 KB of `<a` cost 15 s of CPU in one request. These scan once, remembering
 * where a search for a closing delimiter ended (a later search from before that point ends there too).
 */

/** ASCII letters lower-cased, nothing else (length kept): what a non-Unicode `/i` compares ASCII names with. */
export const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase())

/** The first index of `needle` at or after a rising `from` (calls must not go back), remembered between calls. */
function forwardFinder(text: string, needle: string) {
  let searchedFrom = 0
  let found = -2
  return (from: number): number => {
    if (searchedFrom <= from && (found === -1 || found >= from)) return found
    searchedFrom = from
    found = text.indexOf(needle, from)
    return found
  }
}

// JavaScript's `\s`.
const SPACE = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/
const WORD = /[A-Za-z0-9_]/

/**
 * `src.replace(/<(n1|n2…)[^>]*>[\s\S]*?<\/\1>/gi, by)`; with `loose`, `/<(n1|n2…)\b[^>]*>[\s\S]*?<\/\1\s*>/gi`.
 * `names` are lower-case ASCII letters.
 */
export function replaceElements(src: string, names: readonly string[], by: string, loose = false): string {
  if (!src.includes('<')) return src
  const lower = asciiLower(src)
  const gt = forwardFinder(lower, '>')
  const closers = new Map(names.map((n) => [n, forwardFinder(lower, `</${n}${loose ? '' : '>'}`)]))
  /** Where the first closing tag of `name` at or after `from` ends, or -1. */
  const closeEnd = (name: string, from: number): number => {
    const find = closers.get(name)!
    for (let at = from; ;) {
      const i = find(at)
      if (i < 0) return -1
      let j = i + 2 + name.length
      if (!loose) return j + 1
      while (j < lower.length && SPACE.test(lower[j]!)) j++
      if (lower[j] === '>') return j + 1
      at = i + 1
    }
  }
  // Where an element may open: a plain search (names are ASCII letters), from which each name is then tried in turn.
  const opening = new RegExp(`<(?:${names.join('|')})`, 'g')
  const next = (from: number) => {
    opening.lastIndex = from
    return opening.exec(lower)?.index ?? -1
  }
  let out = ''
  let last = 0
  for (let i = next(0); i >= 0;) {
    let end = -1
    for (const name of names) {
      const after = i + 1 + name.length
      if (!lower.startsWith(name, i + 1)) continue
      if (loose && after < lower.length && WORD.test(lower[after]!)) continue
      const open = gt(after)
      if (open < 0) break
      end = closeEnd(name, open + 1)
      if (end >= 0) break
    }
    if (end < 0) {
      i = next(i + 1)
      continue
    }
    out += src.slice(last, i) + by
    last = end
    i = next(end)
  }
  return last === 0 ? src : out + src.slice(last)
}

/** `src.replace(/<!--[\s\S]*?-->/g, by)` (any `open`/`close` pair): a search that finds no `close` ends the scan. */
export function replaceBetween(src: string, open: string, close: string, by: string): string {
  let out = ''
  let last = 0
  for (let i = src.indexOf(open); i >= 0; i = src.indexOf(open, last)) {
    const j = src.indexOf(close, i + open.length)
    if (j < 0) break
    out += src.slice(last, i) + by
    last = j + close.length
  }
  return last === 0 ? src : out + src.slice(last)
}

/**
 * `src.replace(re, by)` for a global `re` whose every match ends with `>` and holds no assertion: matched only in
 * the text up to the last `>`, where a match attempt reaches a `>` and succeeds instead of scanning to the end and
 * failing (what made `/<[^>]+>/g` quadratic). Callers vouch that `re` backtracks only within one `<…>`.
 */
export function replaceBeforeLastGt(
  src: string,
  re: RegExp,
  by: string | ((match: string, ...groups: any[]) => string),
) {
  const last = src.lastIndexOf('>')
  if (last < 0) return src
  const head = last === src.length - 1 ? src : src.slice(0, last + 1)
  const out = typeof by === 'string' ? head.replace(re, by) : head.replace(re, by)
  return head === src ? out : out + src.slice(last + 1)
}

/** `src.replace(/<[^>]*>/, '')`: the first `<` through the next `>`, once. */
export function dropFirstTag(src: string): string {
  const i = src.indexOf('<')
  const j = i < 0 ? -1 : src.indexOf('>', i + 1)
  return j < 0 ? src : src.slice(0, i) + src.slice(j + 1)
}

/** One token of `htmlTokens`: a tag (`close`, `name`, `attrs`) or text (`text`; a lone `<` is text `<`). */
export type HtmlToken = { tag: true; close: boolean; name: string; attrs: string } | { tag: false; text: string }

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const isNameChar = (c: number) => isLetter(c) || (c >= 48 && c <= 57)
const GT = 62
const DQ = 34
const SQ = 39

/**
 * The matches of `/<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)|</g` over `src`, in linear
 * time. A tag's attributes run to the first `>` outside quotes; the expression, when a quote was left open, retried
 * from every later `<` to the end (quadratic). The walk from a position is always the same, so positions a failed
 * walk passed are remembered and a later walk reaching one fails at once.
 */
export function* htmlTokens(src: string): Generator<HtmlToken> {
  let failed: Uint8Array | undefined
  /** Where the tag's `>` is, for attributes starting at `from`, or -1. */
  const tagEnd = (from: number): number => {
    const walked: number[] = []
    let at = from
    let end = -1
    while (at < src.length && !failed?.[at]) {
      walked.push(at)
      const c = src.charCodeAt(at)
      if (c === GT) {
        end = at
        break
      }
      if (c === DQ || c === SQ) {
        const q = src.indexOf(c === DQ ? '"' : "'", at + 1)
        if (q < 0) break
        at = q + 1
      } else at++
    }
    if (end < 0) {
      failed ??= new Uint8Array(src.length)
      for (const p of walked) failed[p] = 1
    }
    return end
  }
  for (let i = 0; i < src.length;) {
    if (src.charCodeAt(i) !== 60) {
      const next = src.indexOf('<', i)
      const stop = next < 0 ? src.length : next
      yield { tag: false, text: src.slice(i, stop) }
      i = stop
      continue
    }
    const close = src.charCodeAt(i + 1) === 47
    const start = i + (close ? 2 : 1)
    let nameEnd = start
    if (isLetter(src.charCodeAt(start))) {
      nameEnd++
      while (isNameChar(src.charCodeAt(nameEnd))) nameEnd++
      const gt = tagEnd(nameEnd)
      if (gt >= 0) {
        yield { tag: true, close, name: src.slice(start, nameEnd), attrs: src.slice(nameEnd, gt) }
        i = gt + 1
        continue
      }
    }
    yield { tag: false, text: '<' }
    i++
  }
}
