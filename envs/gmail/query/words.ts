/**
 * Gmail matches words, not substrings: text is split at anything that is not a letter or digit
 * ("Invoice-1042" is the two words "invoice 1042"), and a search term matches where its words appear in
 * order. Stored search text keeps the words space-separated with a space at each end, so a term becomes one
 * `LIKE '% w1 w2 %'` over an indexed-free but cheap column scan, as fast as the substring match it replaces.
 */
export function wordsOf(text: string): string {
  // ASCII is its own NFKC form, and its letters and digits are a-z, A-Z, 0-9: one replace gives the same words.
  if (!NON_ASCII.test(text)) {
    const words = text.toLowerCase().replace(/[^a-z0-9]+/g, ' ')
    return words === ' ' || words === '' ? ' ' : ` ${words.trim()} `
  }
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
  return words.length ? ` ${words.join(' ')} ` : ' '
}

const NON_ASCII = /[^\x00-\x7f]/

/** The LIKE pattern for a search term (undefined when the term has no words, e.g. only punctuation). */
export function wordsPattern(term: string): string | undefined {
  const words = wordsOf(term)
  if (words === ' ') return undefined
  return `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
