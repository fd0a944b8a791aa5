import { selectRows, stmt, upsertRow, type Db } from '../../core/db.ts'
import { addressSettings, settings } from '../schema.ts'

/** Defaults Gmail reports for a fresh account (see specs/parity/gmail/settings_*.json). */
export const SETTING_DEFAULTS: Record<string, Record<string, unknown>> = {
  vacation: { enableAutoReply: false, responseSubject: '', restrictToContacts: false, restrictToDomain: false },
  imap: { enabled: false, autoExpunge: true, expungeBehavior: 'archive', maxFolderSize: 0 },
  pop: { accessWindow: 'disabled', disposition: 'leaveInInbox' },
  language: { displayLanguage: 'en' },
  autoForwarding: { enabled: false },
}

export function getSetting<T extends Record<string, unknown>>(db: Db, userId: string, key: string): T {
  const value = stmt(db, 'SELECT value FROM gmail_settings WHERE user_id = ? AND key = ?').pluck().get(userId, key)
  return (value !== undefined ? JSON.parse(value as string) : { ...(SETTING_DEFAULTS[key] ?? {}) }) as T
}

export function setSetting(db: Db, userId: string, key: string, value: Record<string, unknown>): void {
  upsertRow(db, settings, { userId, key, value: JSON.stringify(value) }, ['userId', 'key'])
}

export type FilterRow = { id: string; criteria: Record<string, unknown>; action: Record<string, unknown> }

export function listFilters(db: Db, userId: string): FilterRow[] {
  const sql = 'SELECT id, criteria, action FROM gmail_filters WHERE user_id = ?'
  const rows = stmt(db, sql).raw().all(userId) as string[][]
  return rows.map(([id, c, a]) => ({ id: id!, criteria: JSON.parse(c!), action: JSON.parse(a!) }))
}

export function listAddressSettings(db: Db, userId: string, kind: 'forwarding' | 'sendAs' | 'delegate' | 'smime') {
  return selectRows(db, addressSettings, { userId, kind }).map((r) => JSON.parse(r.value) as Record<string, unknown>)
}

export function putAddressSetting(
  db: Db,
  userId: string,
  kind: 'forwarding' | 'sendAs' | 'delegate' | 'smime',
  email: string,
  value: Record<string, unknown>,
) {
  upsertRow(db, addressSettings, { userId, kind, email: email.toLowerCase(), value: JSON.stringify(value) }, [
    'userId',
    'kind',
    'email',
  ])
}

export function deleteAddressSetting(
  db: Db,
  userId: string,
  kind: 'forwarding' | 'sendAs' | 'delegate' | 'smime',
  email: string,
): boolean {
  const sql = 'DELETE FROM gmail_address_settings WHERE user_id = ? AND kind = ? AND email = ?'
  return stmt(db, sql).run(userId, kind, email.toLowerCase()).changes > 0
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
  if (typeof c.size === 'number' && c.sizeComparison)
    parts.push(`${c.sizeComparison === 'smaller' ? 'smaller' : 'larger'}:${c.size}`)
  return parts.join(' ')
}
