import { describe, expect, test } from 'vitest'
import {
  dropFirstTag,
  htmlTokens,
  replaceBeforeLastGt,
  replaceBetween,
  replaceElements,
} from '../../envs/core/html-linear.ts'

// Decision 0392: the linear HTML scanners answer exactly what the regular expressions they replace answer. Random
// strings of the pieces those expressions look for (unclosed, misnested, mixed case, spaces inside closing tags).
const PIECES = [
  '<p class="a>b">',
  "<a href='x'>",
  '</',
  '<1',
  '<h1>',
  '&amp;',
  'z9',
  '<@U1',
  '<@W2|x',
  '<#C1',
  '<#C2|gen',
  '<http://a',
  '<https:b|l',
  '|',
  '<',
  '>',
  '<script',
  '<SCRIPT',
  '</script>',
  '</Script>',
  '</script >',
  '</script\n>',
  '<style',
  '</style>',
  '<scripts',
  '<head',
  '</head>',
  '</head >',
  '<template>',
  '</template>',
  '<!--',
  '-->',
  '--',
  '<br',
  '<br/>',
  '</p>',
  '</div>',
  '<a ',
  '<b>',
  '</b>',
  'x',
  ' ',
  '\t',
  '/',
  '"',
  "'",
  '\u0130',
  '\u212a',
  'S',
  '_',
  '<>',
]

function* strings(count: number, seed: number) {
  let s = seed
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24
  for (let n = 0; n < count; n++) {
    let out = ''
    const len = Math.floor(next() * 14)
    for (let i = 0; i < len; i++) out += PIECES[Math.floor(next() * PIECES.length)]
    yield out
  }
}

const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)|</g
const tokenOf = (m: RegExpMatchArray) =>
  m[4] !== undefined || m[0] === '<'
    ? { tag: false, text: m[4] ?? '<' }
    : { tag: true, close: m[1] === '/', name: m[2], attrs: m[3] ?? '' }
// Slack's mention, channel and link patterns (envs/slack/store/messages.ts plainText).
const SLACK = [/<@([UW][A-Z0-9]+)(\|[^>]*)?>/g, /<#(C[A-Z0-9]+)(\|([^>]*))?>/g, /<(https?:[^|>]+)(\|([^>]*))?>/g]
const INLINE_TAG = /<\/?(?:a|abbr|b|span)(?:\s[^>]*)?\/?>/gi

describe('html-linear', () => {
  test('each scanner answers what its regular expression answers', () => {
    let checked = 0
    for (const s of strings(6_000, 392)) {
      expect(replaceElements(s, ['script', 'style'], ' ')).toBe(s.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' '))
      expect(replaceElements(s, ['head', 'script', 'style', 'template'], '', true)).toBe(
        s.replace(/<(head|script|style|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ''),
      )
      expect(replaceBetween(s, '<!--', '-->', '')).toBe(s.replace(/<!--[\s\S]*?-->/g, ''))
      expect(replaceBeforeLastGt(s, /<[^>]+>/g, ' ')).toBe(s.replace(/<[^>]+>/g, ' '))
      expect(replaceBeforeLastGt(s, INLINE_TAG, '')).toBe(s.replace(INLINE_TAG, ''))
      expect(dropFirstTag(s)).toBe(s.replace(/<[^>]*>/, ''))
      for (const re of SLACK) {
        const by = (...m: string[]) => `[${m.slice(0, 4).join(',')}]`
        expect(replaceBeforeLastGt(s, re, by)).toBe(s.replace(re, by))
      }
      expect([...htmlTokens(s)]).toEqual([...s.matchAll(TOKEN)].map(tokenOf))
      checked++
    }
    expect(checked).toBe(6_000)
  })

  test('an unclosed element is searched for once, not from every later tag', () => {
    // Counts the searches for a closing tag: linear work makes one per element name, the backtracking regex
    // (re-run from each of the 10,000 openings) would have made 10,000.
    const indexOf = String.prototype.indexOf
    let closingSearches = 0
    String.prototype.indexOf = function (this: string, needle: string, from?: number) {
      if (needle.startsWith('</')) closingSearches++
      return indexOf.call(this, needle, from)
    }
    try {
      replaceElements('<script>'.repeat(10_000), ['script', 'style'], ' ')
    } finally {
      String.prototype.indexOf = indexOf
    }
    expect(closingSearches).toBeLessThanOrEqual(2)
  })
})
