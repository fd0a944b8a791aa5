import { and, eq } from 'drizzle-orm'
import { selectRows, type Db } from '../../core/db.ts'
import { addressSettings, filters, settings } from '../schema.ts'

/** Defaults Gmail reports for a fresh account (see specs/parity/gmail/settings_*.json). */
export const SETTING_DEFAULTS: Record<string, Record<string, unknown>> = {
  vacation: { enableAutoReply: false, responseSubject: '', restrictToContacts: false, restrictToDomain: false },
  imap: { enabled: false, autoExpunge: true, expungeBehavior: 'archive', maxFolderSize: 0 },
  pop: { accessWindow: 'disabled', disposition: 'leaveInInbox' },
  language: { displayLanguage: 'en' },
  autoForwarding: { enabled: false },
}

export function getSetting<T extends Record<string, unknown>>(db: Db, userId: string, key: string): T {
  // Every delivery reads two settings per recipient: a statement compiled once per connection, not a drizzle build.
  const row = selectRows(db, settings, { userId, key })[0]
  return (row ? JSON.parse(row.value) : { ...(SETTING_DEFAULTS[key] ?? {}) }) as T
}

export function setSetting(db: Db, userId: string, key: string, value: Record<string, unknown>): void {
  db.insert(settings).values({ userId, key, value: JSON.stringify(value) }).onConflictDoUpdate({ target: [settings.userId, settings.key], set: { value: JSON.stringify(value) } }).run()
}

export type FilterRow = { id: string; criteria: Record<string, unknown>; action: Record<string, unknown> }

export function listFilters(db: Db, userId: string): FilterRow[] {
  return selectRows(db, filters, { userId }).map((f) => ({ id: f.id, criteria: JSON.parse(f.criteria), action: JSON.parse(f.action) }))
}

export function listAddressSettings(db: Db, userId: string, kind: 'forwarding' | 'sendAs' | 'delegate' | 'smime') {
  return selectRows(db, addressSettings, { userId, kind })
    .map((r) => JSON.parse(r.value) as Record<string, unknown>)
}

export function putAddressSetting(db: Db, userId: string, kind: 'forwarding' | 'sendAs' | 'delegate' | 'smime', email: string, value: Record<string, unknown>) {
  db.insert(addressSettings)
    .values({ userId, kind, email: email.toLowerCase(), value: JSON.stringify(value) })
    .onConflictDoUpdate({ target: [addressSettings.userId, addressSettings.kind, addressSettings.email], set: { value: JSON.stringify(value) } })
    .run()
}

export function deleteAddressSetting(db: Db, userId: string, kind: 'forwarding' | 'sendAs' | 'delegate' | 'smime', email: string): boolean {
  return db.delete(addressSettings).where(and(eq(addressSettings.userId, userId), eq(addressSettings.kind, kind), eq(addressSettings.email, email.toLowerCase()))).run().changes > 0
}

/** A filter's criteria as a Gmail query, so filters and search share one matcher. */
export function criteriaQuery(c: Record<string, unknown>): string {
  const parts: string[] = []
  const quoted = (v: unknown) => `(${String(v)})`
  if (c.from) parts.push(`from:${quoted(c.from)}`)
  if (c.to) parts.push(`to:${quoted(c.to)}`)
  if (c.subject) parts.push(`subject:${quoted(c.subject)}`)
  if (c.query) parts.push(`(${String(c.query)})`)
  if (c.negatedQuery) parts.push(`-(${String(c.negatedQuery)})`)
  if (c.hasAttachment) parts.push('has:attachment')
  if (typeof c.size === 'number' && c.sizeComparison) parts.push(`${c.sizeComparison === 'smaller' ? 'smaller' : 'larger'}:${c.size}`)
  return parts.join(' ')
}
