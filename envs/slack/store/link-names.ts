import { stmt, type Db } from '../../core/db.ts'

/** Is `link_names` on? The spec types it boolean (chat.postMessage) or string (chat.update): true, 1, "true", "1". */
export const linkNamesOn = (v: unknown) => v === true || v === 1 || v === 'true' || v === '1'

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
// A name ends where no name letter follows; a final "." ends a sentence unless a word goes on ("@here.com").
const END = '(?![\\w-]|\\.\\w)'

/**
 * `link_names` (chat.postMessage, chat.update, chat.scheduleMessage): `@channel`, `@here` and `@everyone` become
 * `<!channel>`, `<!here>` and `<!everyone>`, and the `@handle` of an enabled user group `<!subteam^S…|@handle>`.
 * Today's method reference reads "Find and link user groups. No longer supports linking individual users", so
 * `@name` of a person and `#channel` stay plain text: a person is mentioned as `<@U…>` in the text itself.
 * Deviation: the vendored OpenAPI (older) still says "Find and link channel names and usernames"; the broadcast
 * words follow Slack's formatting guide, unverified here. `parse=full` links the same (routes/chat.ts `shownText`).
 */
export function linkNames(db: Db, text: string): string {
  const names = new Map<string, string>()
  for (const w of ['channel', 'here', 'everyone']) names.set(w, `<!${w}>`)
  const groups = stmt(db, 'SELECT id, handle FROM slack_usergroups WHERE disabled = 0 ORDER BY rowid').all() as {
    id: string
    handle: string
  }[]
  for (const g of groups) {
    const key = g.handle.trim().toLowerCase()
    if (key && !names.has(key)) names.set(key, `<!subteam^${g.id}|@${g.handle}>`)
  }
  const alts = [...names.keys()].sort((a, b) => b.length - a.length).map(escape)
  const mention = new RegExp(`(?<![\\w.<|])@(${alts.join('|')})${END}`, 'gi')
  return text.replace(mention, (whole, n: string) => names.get(n.toLowerCase()) ?? whole)
}
