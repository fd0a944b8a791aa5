import { addressParser } from 'postal-mime'

/** The mailboxes of an RFC 5322 address list (groups flattened; entries without an address dropped); [] when unparseable. */
function mailboxesOf(value: string | undefined): { name: string; address: string }[] {
  if (!value) return []
  const out: { name: string; address: string }[] = []
  const visit = (items: ReturnType<typeof addressParser>) => {
    for (const item of items) {
      if ('group' in item && Array.isArray(item.group)) visit(item.group as ReturnType<typeof addressParser>)
      else if ('address' in item && item.address && /@/.test(item.address)) out.push({ name: item.name ?? '', address: item.address })
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
    if (first && 'address' in first && first.address) return { name: first.name ?? '', email: first.address.toLowerCase() }
  } catch {
    return undefined
  }
  return undefined
}
