import { addressParser } from 'postal-mime'

/** RFC 5322 address list → lower-cased unique addresses (groups flattened, names dropped). */
export function parseAddressList(value: string | undefined): string[] {
  if (!value) return []
  const out: string[] = []
  const visit = (items: ReturnType<typeof addressParser>) => {
    for (const item of items) {
      if ('group' in item && Array.isArray(item.group)) visit(item.group as ReturnType<typeof addressParser>)
      else if ('address' in item && item.address && /@/.test(item.address)) out.push(item.address.toLowerCase())
    }
  }
  try {
    visit(addressParser(value))
  } catch {
    return []
  }
  return [...new Set(out)]
}

/** What `to:`/`cc:`/`bcc:` search: each recipient as `name <address>`, lower-cased (Gmail matches names too). */
export function addressSearchText(value: string | undefined): string {
  if (!value) return ''
  const out: string[] = []
  const visit = (items: ReturnType<typeof addressParser>) => {
    for (const item of items) {
      if ('group' in item && Array.isArray(item.group)) visit(item.group as ReturnType<typeof addressParser>)
      else if ('address' in item && item.address && /@/.test(item.address)) out.push(`${item.name ? `${item.name} ` : ''}<${item.address}>`.toLowerCase())
    }
  }
  try {
    visit(addressParser(value))
  } catch {
    return ''
  }
  return out.join(', ')
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
