import { stmt, type Db } from '../../core/db.ts'
import { EMOJI_ALIASES, SKIN_TONE_EMOJI, STANDARD_EMOJI } from '../emoji-names.gen.ts'

export type EmojiRow = { name: string; url: string; alias_for: string | null; user_id: string; created: number }

export const emojiRows = (db: Db) => stmt(db, 'SELECT * FROM slack_emoji ORDER BY name').all() as EmojiRow[]
export const emojiByName = (db: Db, name: string) =>
  stmt(db, 'SELECT * FROM slack_emoji WHERE name = ?').get(name) as EmojiRow | undefined

/** name → URL or `alias:<name>`, as emoji.list and admin.emoji.list show them. */
export const customEmoji = (db: Db) =>
  Object.fromEntries(emojiRows(db).map((e) => [e.name, e.alias_for ? `alias:${e.alias_for}` : e.url]))

/** Changes whenever the emoji set changes: the newest emoji's creation time. */
export const emojiCacheTs = (db: Db) => {
  const row = stmt(db, 'SELECT MAX(created) AS t FROM slack_emoji').get() as { t: number | null }
  return `${row.t ?? 0}.000000`
}

/**
 * Whether a reaction name names an emoji of this workspace: a standard short name (optionally with
 * `::skin-tone-2`..`6` where the emoji has skin tones) or a custom emoji of `emoji.list` (aliases included).
 */
export function isKnownEmoji(db: Db, name: string): boolean {
  const [base = '', tone, ...rest] = name.split('::')
  if (rest.length > 0) return false
  if (tone !== undefined) return /^skin-tone-[2-6]$/.test(tone) && SKIN_TONE_EMOJI().has(base)
  return STANDARD_EMOJI().has(base) || emojiByName(db, base) !== undefined
}

/** A reaction name under its emoji's own short name, skin tone kept: `thumbsup::skin-tone-2` → `+1::skin-tone-2`. */
export function canonicalEmoji(name: string): string {
  const [base = '', ...tone] = name.split('::')
  return [EMOJI_ALIASES().get(base) ?? base, ...tone].join('::')
}

/** Every name one emoji's reaction may be stored under. */
// Deviation: seeded reactions keep the name their seed wrote (Slack would show `+1` for `thumbsup`).
export function emojiNames(name: string): string[] {
  const [base = '', ...tone] = canonicalEmoji(name).split('::')
  const bases = [base, ...[...EMOJI_ALIASES()].filter(([, to]) => to === base).map(([from]) => from)]
  return bases.map((b) => [b, ...tone].join('::'))
}
