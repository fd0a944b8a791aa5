import { stmt, type Db } from '../../core/db.ts'
import { allUsers } from './core.ts'

/** Is `link_names` on? The spec types it boolean (chat.postMessage) or string (chat.update): true, 1, "true", "1". */
export const linkNamesOn = (v: unknown) => v === true || v === 1 || v === 'true' || v === '1'

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
// A name ends where no name letter follows; a final "." ends a sentence unless a word goes on ("@here.com").
const END = '(?![\\w-]|\\.\\w)'

/**
 * `link_names` (chat.postMessage, chat.update, chat.scheduleMessage): "Find and link channel names and usernames"
 * (specs/slack.web.openapi.paths.json). `@username` or `@display name` of a member becomes `<@U…>`, `#channel` of a
 * public channel `<#C…|name>`, and `@channel`, `@here`, `@everyone` become `<!channel>`, `<!here>`, `<!everyone>`.
 * Deviation: the vendored spec documents only "channel names and usernames"; the broadcast words, display names
 * (longest name first, any case) and the `<#C…|name>` form follow Slack's formatting guide, unverified here.
 */
export function linkNames(db: Db, text: string): string {
  const names = new Map<string, string>()
  for (const u of allUsers(db)) {
    if (u.deleted) continue
    for (const n of [u.handle, u.display_name]) {
      const key = n.trim().toLowerCase()
      if (key && !names.has(key)) names.set(key, `<@${u.id}>`)
    }
  }
  for (const w of ['channel', 'here', 'everyone']) names.set(w, `<!${w}>`)
  const alts = [...names.keys()].sort((a, b) => b.length - a.length).map(escape)
  const people = new RegExp(`(?<![\\w.<|])@(${alts.join('|')})${END}`, 'gi')
  let out = text.replace(people, (whole, n: string) => names.get(n.toLowerCase()) ?? whole)
  const channels = stmt(db, "SELECT id, name FROM slack_channels WHERE kind = 'channel' AND is_archived = 0").all() as {
    id: string
    name: string
  }[]
  const byName = new Map(channels.map((c) => [c.name.toLowerCase(), c]))
  out = out.replace(/(?<![\w<|&])#([a-z0-9_-]+)(?![\w-])/gi, (whole, n: string) => {
    const c = byName.get(n.toLowerCase())
    return c ? `<#${c.id}|${c.name}>` : whole
  })
  return out
}
