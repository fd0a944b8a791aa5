import { addressParser } from 'postal-mime'

/**
 * The mailboxes of an RFC 5322 address list (groups flattened; entries without an address dropped); [] when
 * unparseable.
 */
function mailboxesOf(value: string | undefined): { name: string; address: string }[] {
  if (!value) return []
  const simple = simpleMailboxes(value)
  if (simple) return simple
  const out: { name: string; address: string }[] = []
  const visit = (items: ReturnType<typeof addressParser>) => {
    for (const item of items) {
      if ('group' in item && Array.isArray(item.group)) visit(item.group as ReturnType<typeof addressParser>)
      else if ('address' in item && item.address && /@/.test(item.address))
        out.push({ name: item.name ?? '', address: item.address })
    }
  }
  try {
    visit(addressParser(value))
  } catch {
    return []
  }
  return out
}

/** RFC 5322 address list → lower-cased unique addresses (groups flattened, names dropped). */
export function parseAddressList(value: string | undefined): string[] {
  return [...new Set(mailboxesOf(value).map((m) => m.address.toLowerCase()))]
}

/**
 * An address list's lower-cased unique addresses (as parseAddressList) and the display names given with them, one
 * parse for both (the Gmail dump's `to`, `cc` and `headerText`).
 */
export function addressesAndNames(value: string | undefined): { addresses: string[]; names: string[] } {
  const boxes = mailboxesOf(value)
  return {
    addresses: [...new Set(boxes.map((m) => m.address.toLowerCase()))],
    names: boxes.flatMap((m) => (m.name.trim() ? [m.name.trim()] : [])),
  }
}

/** The first address of an address list, lower-cased; '' when it has none (`gmail_messages.from_email`). */
export function firstAddress(value: string | undefined): string {
  return mailboxesOf(value)[0]?.address.toLowerCase() ?? ''
}

/** What `to:`/`cc:`/`bcc:` search: each recipient as `name <address>`, lower-cased (Gmail matches names too). */
export function addressSearchText(value: string | undefined): string {
  return mailboxesOf(value)
    .map((m) => `${m.name ? `${m.name} ` : ''}<${m.address}>`.toLowerCase())
    .join(', ')
}

/** First address of a header with its display name. */
export function parseMailbox(value: string | undefined): { name: string; email: string } | undefined {
  if (!value) return undefined
  try {
    const first = addressParser(value)[0]
    if (first && 'address' in first && first.address)
      return { name: first.name ?? '', email: first.address.toLowerCase() }
  } catch {
    return undefined
  }
  return undefined
}

const WORD = "[\\w.'-]+"
const ADDRESS = '[\\w.%+-]+@[\\w.-]+'
const ITEM = `(?:${WORD}(?: ${WORD})* <${ADDRESS}>|${ADDRESS})`
/** `a@b.c` and `Plain Name <a@b.c>` items, comma-separated: no quotes, comments, groups, encoded words or non-ASCII. */
const SIMPLE_LIST = new RegExp(`^${ITEM}(?:, ?${ITEM})*$`)

/**
 * The mailboxes of a simple address list (SIMPLE_LIST), as postal-mime's parser gives them, read without it;
 * undefined for any other list. A bare address has one `@`, so postal-mime takes it as the address with no name.
 */
export function simpleMailboxes(value: string): { name: string; address: string }[] | undefined {
  if (!SIMPLE_LIST.test(value)) return undefined
  return value.split(/, ?/).map((item) => {
    if (!item.endsWith('>')) return { name: '', address: item }
    const open = item.lastIndexOf(' <')
    return { name: item.slice(0, open), address: item.slice(open + 2, -1) }
  })
}
