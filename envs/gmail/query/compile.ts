import { DateTime } from 'luxon'
import type { Node } from './parse.ts'
import { wordsPattern } from './words.ts'

/** What compiling needs from the mailbox: label names, the clock and the owner's time zone. */
export type CompileContext = {
  nowMs: number
  timeZone: string
  selfEmail: string
  labelIdByName: (name: string) => string | undefined
}

export type Sql = { where: string; params: unknown[] }

/** Word match on a words column (search_words, subject_words): ALL when the term has no words. */
const words = (col: string, term: string): Sql => {
  const pattern = wordsPattern(term)
  return pattern ? { where: LIKE(col), params: [pattern] } : { where: '1', params: [] }
}
const like = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
// `+?`: SQLite recompiles a statement on every run when a LIKE pattern is a bare parameter (it reads the value to
// look for an index prefix); our patterns start with `%`, so no index could serve them anyway.
const LIKE = (col: string) => `${col} LIKE +? ESCAPE '\\'`
const hasLabel = (ids: string[]) =>
  `EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND l.label_id IN (${ids.map(() => '?').join(',')}))`

// Maps, not object literals: a query value is user text, and `in:constructor` must not find Object.prototype members.
const IN_LABELS = new Map<string, string[]>(
  Object.entries({
    inbox: ['INBOX'],
    trash: ['TRASH'],
    spam: ['SPAM'],
    sent: ['SENT'],
    drafts: ['DRAFT'],
    draft: ['DRAFT'],
    starred: ['STARRED'],
    important: ['IMPORTANT'],
    chats: ['CHAT'],
    unread: ['UNREAD'],
  }),
)
const CATEGORY = new Map<string, string>(
  Object.entries({
    primary: 'CATEGORY_PERSONAL',
    personal: 'CATEGORY_PERSONAL',
    social: 'CATEGORY_SOCIAL',
    promotions: 'CATEGORY_PROMOTIONS',
    updates: 'CATEGORY_UPDATES',
    forums: 'CATEGORY_FORUMS',
    reservations: 'CATEGORY_UPDATES',
    purchases: 'CATEGORY_UPDATES',
  }),
)
const STAR_NAMES = /^(yellow|blue|red|orange|green|purple)-(star|bang|guillemet|info|check|question)$/

/** Does the query ask for trash or spam explicitly (then they are not hidden by default)? */
export function mentionsSpamTrash(node: Node): boolean {
  switch (node.kind) {
    case 'term':
      return (
        (node.op === 'in' || node.op === 'label') && ['trash', 'spam', 'anywhere'].includes(node.value.toLowerCase())
      )
    case 'not':
      return false // `-in:trash` excludes trash; it does not bring spam back
    default:
      return node.items.some(mentionsSpamTrash)
  }
}

export function compile(node: Node, ctx: CompileContext): Sql {
  switch (node.kind) {
    case 'and':
    case 'or': {
      if (node.items.length === 0) return { where: node.kind === 'and' ? '1' : '0', params: [] }
      const parts = node.items.map((n) => compile(n, ctx))
      return {
        where: `(${parts.map((p) => p.where).join(node.kind === 'and' ? ' AND ' : ' OR ')})`,
        params: parts.flatMap((p) => p.params),
      }
    }
    case 'not': {
      const inner = compile(node.item, ctx)
      return { where: `NOT (${inner.where})`, params: inner.params }
    }
    case 'term':
      return term(node.op, node.value, ctx)
  }
}

/**
 * A whole address (`local@domain`, nothing around it): Gmail matches it as that address only, never as a part of a
 * longer one (`alice@example.com` does not find `malice@example.com`); other text matches anywhere in the header.
 */
const isAddress = (value: string) => /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+$/.test(value)

/** A `to:`/`cc:`/`bcc:` term's LIKE pattern: a whole address as one recipient's `<address>` (addressSearchText). */
const recipient = (value: string) => like(isAddress(value) ? `<${value}>` : value)

const NONE: Sql = { where: '0', params: [] }
const ALL: Sql = { where: '1', params: [] }

function term(op: string | null, raw: string, ctx: CompileContext): Sql {
  const value = raw.trim()
  const lower = value.toLowerCase()
  switch (op) {
    case null:
      return value ? words('m.search_text', value) : ALL
    case 'from': {
      const who = lower === 'me' ? ctx.selfEmail : lower
      // A whole address is that sender's, compared with the From address (indexed: gmail_messages_by_from).
      // Deviation: only the first of several From mailboxes; other text matches a substring of the header, where
      // Gmail matches words (envs/gmail/COVERAGE.md).
      return isAddress(who)
        ? { where: 'm.from_email = ?', params: [who] }
        : { where: LIKE('m.from_addr'), params: [like(who)] }
    }
    case 'to': {
      const who = recipient(lower === 'me' ? ctx.selfEmail : lower)
      return {
        where: `(${LIKE('m.to_addrs')} OR ${LIKE('m.cc_addrs')} OR ${LIKE('m.bcc_addrs')})`,
        params: [who, who, who],
      }
    }
    case 'cc':
      return { where: LIKE('m.cc_addrs'), params: [recipient(lower)] }
    case 'bcc':
      return { where: LIKE('m.bcc_addrs'), params: [recipient(lower)] }
    case 'subject':
      return words('m.subject_words', value)
    case 'deliveredto':
      return { where: LIKE('m.delivered_to'), params: [like(value)] }
    case 'list':
      return { where: LIKE('m.list_id'), params: [like(value)] }
    case 'rfc822msgid':
      return { where: 'lower(m.message_id_header) IN (?, ?)', params: [lower, `<${lower.replace(/^<|>$/g, '')}>`] }
    case 'filename':
      return { where: LIKE('m.filenames'), params: [like(value)] }
    case 'in': {
      if (lower === 'anywhere') return ALL
      const ids = IN_LABELS.get(lower)
      return ids ? { where: hasLabel(ids), params: ids } : labelTerm(value, ctx)
    }
    case 'is': {
      if (lower === 'read') return { where: `NOT ${hasLabel(['UNREAD'])}`, params: ['UNREAD'] }
      const ids = IN_LABELS.get(lower)
      if (ids) return { where: hasLabel(ids), params: ids }
      if (STAR_NAMES.test(lower)) return { where: hasLabel(['STARRED']), params: ['STARRED'] }
      return NONE // snoozed, muted, … : nothing in the mock carries those states
    }
    case 'label':
      return labelTerm(value, ctx)
    case 'category': {
      const id = CATEGORY.get(lower)
      return id ? { where: hasLabel([id]), params: [id] } : NONE
    }
    case 'has':
      return hasTerm(lower)
    case 'after':
    case 'newer':
      return dateTerm('>=', value, ctx)
    case 'before':
    case 'older':
      return dateTerm('<', value, ctx)
    case 'newer_than':
    case 'older_than': {
      const ms = relativeMs(lower)
      if (ms === undefined) return NONE
      return { where: `m.internal_date ${op === 'newer_than' ? '>=' : '<'} ?`, params: [ctx.nowMs - ms] }
    }
    case 'larger':
    case 'smaller':
    case 'size': {
      const bytes = sizeBytes(lower)
      if (bytes === undefined) return NONE
      return { where: `m.size ${op === 'smaller' ? '<' : '>='} ?`, params: [bytes] }
    }
    case 'around':
      return ALL
    default:
      // An unknown operator is searched as text, as Gmail does with "foo:bar".
      return words('m.search_text', `${op}:${value}`)
  }
}

/** `label:` takes names, case-insensitively, with `-`, `/` and spaces interchangeable. */
function labelTerm(value: string, ctx: CompileContext): Sql {
  const id = ctx.labelIdByName(value)
  return id ? { where: hasLabel([id]), params: [id] } : NONE
}

function hasTerm(what: string): Sql {
  switch (what) {
    case 'attachment':
      return { where: 'm.has_attachment = 1', params: [] }
    case 'drive':
      return words('m.search_text', 'drive.google.com')
    case 'document':
    case 'spreadsheet':
    case 'presentation':
      return words('m.search_text', `docs.google.com/${what}`)
    case 'youtube':
      return words('m.search_text', 'youtube.com')
    case 'userlabels':
      return {
        where:
          "EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND l.label_id LIKE 'Label\\_%' ESCAPE '\\')",
        params: [],
      }
    case 'nouserlabels':
      return {
        where:
          "NOT EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND l.label_id LIKE 'Label\\_%' ESCAPE '\\')",
        params: [],
      }
    default:
      return STAR_NAMES.test(what) ? { where: hasLabel(['STARRED']), params: ['STARRED'] } : NONE
  }
}

/**
 * `after:2026/03/01`, `before:2026-03-01`, `after:1772323200`
 * (epoch seconds). Days start at midnight in the owner's zone.
 */
function dateTerm(cmp: '>=' | '<', value: string, ctx: CompileContext): Sql {
  let ms: number | undefined
  if (/^\d{9,11}$/.test(value)) ms = Number(value) * 1000
  else {
    const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value)
    if (m) {
      const dt = DateTime.fromObject({ year: +m[1]!, month: +m[2]!, day: +m[3]! }, { zone: ctx.timeZone })
      if (dt.isValid) ms = dt.toMillis()
    }
  }
  return ms === undefined ? NONE : { where: `m.internal_date ${cmp} ?`, params: [ms] }
}

function relativeMs(value: string): number | undefined {
  const m = /^(\d+)([dmy])$/.exec(value)
  if (!m) return undefined
  const n = Number(m[1])
  return n * { d: 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 }[m[2] as 'd' | 'm' | 'y']
}

function sizeBytes(value: string): number | undefined {
  const m = /^(\d+)([km]?)b?$/.exec(value)
  if (!m) return undefined
  return Number(m[1]) * (m[2] === 'k' ? 1024 : m[2] === 'm' ? 1024 * 1024 : 1)
}
