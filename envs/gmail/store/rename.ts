import { stmt, type Db } from '../../core/db.ts'
import { getSetting, listFilters, setSetting } from './settings.ts'

type SettingRow = { user_id: string; kind: string; email: string; value: string }

/**
 * A Directory rename reaches Gmail's settings (docs/decisions/0476): a delegate, a forwarding address and a filter's
 * or auto-forwarding's target that name the old address name the account, so they show the new one; the renamed
 * user's primary send-as address (and its S/MIME entries) takes the new address too.
 * Deviation (unverified): Google documents none of this for the API. A delegate is an account (Gmail requires its
 * primary address), so it follows; forwarding targets are plain addresses in Gmail, but the old one is now an alias
 * of the same account and mail to it already reached it, so showing the account's address changes no delivery.
 */
export function renameGmailAddress(db: Db, oldEmail: string, newEmail: string): void {
  const from = oldEmail.toLowerCase()
  const to = newEmail.toLowerCase()
  if (from === to) return
  const rows = stmt(
    db,
    `SELECT user_id, kind, email, value FROM gmail_address_settings
    WHERE (kind IN ('delegate', 'forwarding') AND email = ?)
    OR (user_id IN (SELECT id FROM world_users WHERE lower(email) = ?)
      AND ((kind = 'sendAs' AND email = ?) OR (kind = 'smime' AND email LIKE ? ESCAPE '!')))`,
  ).all(from, to, from, `${from.replace(/[!%_]/g, '!$&')}/%`) as SettingRow[]
  const exists = stmt(db, 'SELECT value FROM gmail_address_settings WHERE user_id = ? AND kind = ? AND email = ?')
  const drop = stmt(db, 'DELETE FROM gmail_address_settings WHERE user_id = ? AND kind = ? AND email = ?')
  const put = stmt(
    db,
    `INSERT INTO gmail_address_settings (user_id, kind, email, value) VALUES (?, ?, ?, ?)
    ON CONFLICT (user_id, kind, email) DO UPDATE SET value = excluded.value`,
  )
  const field = {
    delegate: 'delegateEmail',
    forwarding: 'forwardingEmail',
    sendAs: 'sendAsEmail',
    smime: 'sendAsEmail',
  } as const
  for (const r of rows) {
    const key = r.kind === 'smime' ? `${to}${r.email.slice(from.length)}` : to
    const value = JSON.parse(r.value) as Record<string, unknown>
    if (r.kind in field) value[field[r.kind as keyof typeof field]] = to
    const before = exists.get(r.user_id, r.kind, key) as { value: string } | undefined
    drop.run(r.user_id, r.kind, r.email)
    if (before) {
      // The new address was there already (a forwarding address added by hand): keep it, confirmed if either was.
      const kept = JSON.parse(before.value) as Record<string, unknown>
      if (value.verificationStatus === 'accepted') kept.verificationStatus = 'accepted'
      put.run(r.user_id, r.kind, key, JSON.stringify(kept))
    } else put.run(r.user_id, r.kind, key, JSON.stringify(value))
  }
  const setFilter = stmt(db, 'UPDATE gmail_filters SET action = ? WHERE user_id = ? AND id = ?')
  const users = stmt(
    db,
    `SELECT DISTINCT user_id FROM gmail_filters WHERE action LIKE '%"forward"%'
    UNION SELECT user_id FROM gmail_settings WHERE key = 'autoForwarding'`,
  )
    .pluck()
    .all() as string[]
  for (const userId of users) {
    for (const f of listFilters(db, userId)) {
      if (typeof f.action.forward !== 'string' || f.action.forward.toLowerCase() !== from) continue
      setFilter.run(JSON.stringify({ ...f.action, forward: to }), userId, f.id)
    }
    const fwd = getSetting<Record<string, unknown>>(db, userId, 'autoForwarding')
    if (typeof fwd.emailAddress === 'string' && fwd.emailAddress.toLowerCase() === from)
      setSetting(db, userId, 'autoForwarding', { ...fwd, emailAddress: to })
  }
}
