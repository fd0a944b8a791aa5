import { stmt, type Db } from '../../core/db.ts'

export type EmojiRow = { name: string; url: string; alias_for: string | null; user_id: string; created: number }

export const emojiRows = (db: Db) => stmt(db, 'SELECT * FROM slack_emoji ORDER BY name').all() as EmojiRow[]
export const emojiByName = (db: Db, name: string) => stmt(db, 'SELECT * FROM slack_emoji WHERE name = ?').get(name) as EmojiRow | undefined

/** name → URL or `alias:<name>`, as emoji.list and admin.emoji.list show them. */
export const customEmoji = (db: Db) =>
  Object.fromEntries(emojiRows(db).map((e) => [e.name, e.alias_for ? `alias:${e.alias_for}` : e.url]))

/** Changes whenever the emoji set changes: the newest emoji's creation time. */
export const emojiCacheTs = (db: Db) => {
  const row = stmt(db, 'SELECT MAX(created) AS t FROM slack_emoji').get() as { t: number | null }
  return `${row.t ?? 0}.000000`
}
