import { keyedRow, stmt, type Db } from '../core/db.ts'
import { columnNames } from '../core/dump-rows.ts'
import { hexId } from '../core/ids.ts'
import { now, nowMs } from '../core/clock.ts'
import { badRequest } from '../core/errors/google.ts'
import { userFromRow } from '../core/users.ts'
import { expandGroupAddresses } from '../core/groups.ts'
import { userAliasAddresses } from '../core/aliases.ts'
import { worldUsers, type WorldUserRow } from '../core/world-tables.ts'
import { getMeta } from '../core/clock.ts'
import { buildMessage, formatAddress, rfc822Date, type OutgoingAttachment } from './mime/build.ts'
import { headEnd, headerOf, parseMime, parseTopHeaders } from './mime/parse.ts'
import { parseAddressList } from './mime/address.ts'
import { CopyMemo, insertMessage, labelOrder, modifyLabels, type NewMessage } from './store/messages.ts'
import { criteriaQuery, getSetting, listAddressSettings, listFilters, setSetting } from './store/settings.ts'
import { matchesQuery } from './store/match.ts'
import type { MessageRow } from './schema.ts'

/** Mail produced by another service (invitations, share notifications): delivered, never stored as SENT. */
export type InternalMail = {
  from: { name?: string; email: string }
  to: string[]
  cc?: string[]
  subject: string
  text: string
  html?: string
  attachments?: OutgoingAttachment[]
  headers?: Record<string, string>
}

const MAX_AUTOMATIC_DEPTH = 2

/** A fresh, deterministic Message-ID in the world's domain. */
export function newMessageIdHeader(db: Db): string {
  return `<${hexId(db, 'gmail.msgid', 24)}@mail.${getMeta(db, 'domain') ?? 'example.com'}>`
}

/**
 * Puts a message from another service into the inboxes of the world users among `to`/`cc`, running each
 * recipient's filters. Synchronous, so it runs inside the caller's transaction.
 */
export function deliverInternalMail(db: Db, mail: InternalMail): { messageIds: string[] } {
  const raw = buildMessage({
    from: mail.from,
    to: mail.to.map((email) => ({ email })),
    cc: (mail.cc ?? []).map((email) => ({ email })),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments,
    headers: mail.headers,
    date: now(db),
    messageId: newMessageIdHeader(db),
  })
  const recipients = [...new Set([...mail.to, ...(mail.cc ?? [])].map((e) => e.toLowerCase()))]
  return { messageIds: deliverToWorldUsers(db, () => raw, recipients, 0, undefined, new CopyMemo()).map((m) => m.id) }
}

/**
 * Replaces or adds headers in a raw message's header block; `null` removes a header. Only the header block is
 * decoded: the blank line and body are copied as bytes (the same bytes a latin1 round trip gives). The block is
 * walked line by line as `split(/\r?\n/)` cuts it, and the lines are written into one buffer with the body.
 */
export function rewriteHeaders(
  raw: Buffer,
  changes: Record<string, string | null>,
  prepend: Record<string, string> = {},
): Buffer {
  const end = headEnd(raw)
  const head = raw.toString('latin1', 0, end)
  const rest = end < raw.length ? raw.subarray(end) : NO_BODY
  const lines: string[] = []
  for (const [k, v] of Object.entries(prepend)) lines.push(`${k}: ${v}`)
  let skipping = false
  // Own keys only: a header named like an Object.prototype property (`constructor:`) is an ordinary header.
  const lower = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k.toLowerCase(), v]))
  const done: string[] = []
  for (let start = 0; ;) {
    const lf = head.indexOf('\n', start)
    const stop = lf < 0 ? head.length : lf > start && head.charCodeAt(lf - 1) === 13 ? lf - 1 : lf
    const first = head.charCodeAt(start)
    if (first === 32 || first === 9) {
      if (!skipping) lines.push(head.slice(start, stop))
    } else {
      const line = head.slice(start, stop)
      const colon = line.indexOf(':')
      const name = line.slice(0, colon).trim().toLowerCase()
      skipping = false
      if (Object.hasOwn(lower, name)) {
        skipping = true
        if (lower[name] !== null && !done.includes(name))
          lines.push(`${line.slice(0, colon)}: ${utf8Bytes(lower[name]!)}`)
        done.push(name)
      } else lines.push(line)
    }
    if (lf < 0) break
    start = lf + 1
  }
  for (const [k, v] of Object.entries(changes))
    if (v !== null && !done.includes(k.toLowerCase())) lines.push(`${k}: ${utf8Bytes(v)}`)
  const text = lines.join('\r\n')
  const out = Buffer.allocUnsafe(text.length + rest.length)
  out.write(text, 0, 'latin1')
  rest.copy(out, text.length)
  return out
}

/** A header value's UTF-8 bytes as a latin1 string (one character per byte): an ASCII value is its own. */
const utf8Bytes = (value: string) => (ASCII.test(value) ? value : Buffer.from(value, 'utf8').toString('latin1'))
const ASCII = /^[\x00-\x7f]*$/

/** What rewriteHeaders puts after a message that has no blank line. */
const NO_BODY = Buffer.from('\r\n\r\n', 'latin1')

/**
 * Sends a message as a world user: the sender keeps a SENT copy (in the given thread when possible),
 * every world user among To/Cc/Bcc gets an INBOX + UNREAD copy without the Bcc header, and
 * external recipients are recorded in the sent copy only. Returns the sent copy with its label ids as the API lists
 * them: the ones written, in Gmail's order (what labelsOf reads after the send: delivery, filters, forwards and
 * vacation replies write other messages, every one stored under a new id, never this copy's labels).
 */
export function sendAsUser(
  db: Db,
  sender: WorldUserRow,
  raw: Buffer,
  opts: { threadId?: string; depth?: number; mailboxExists?: boolean } = {},
): { row: MessageRow; labelIds: string[] } {
  // Only the top-level headers matter here; insertMessage parses the whole message once.
  const headers = parseTopHeaders(raw)
  const h = (n: string) => headerOf(headers, n)
  const recipients = [
    ...new Set([...parseAddressList(h('to')), ...parseAddressList(h('cc')), ...parseAddressList(h('bcc'))]),
  ]
  if (recipients.length === 0) throw badRequest('Recipient address required', 'invalidArgument')
  // Gmail limits recipients per message (To, Cc and Bcc together); past it nothing is sent.
  if (recipients.length > MAX_RECIPIENTS)
    throw badRequest(`Too many recipients: at most ${MAX_RECIPIENTS} per message.`, 'invalidArgument')
  // Gmail stamps the authenticated sender, a Date and a Message-ID.
  const fromHeader = sendAsAddress(db, sender, h('from'))
  const at = nowMs(db) // the clock does not move within a request
  const fixed = rewriteHeaders(raw, {
    From: fromHeader,
    ...(h('date') ? {} : { Date: rfc822Date(new Date(at)) }),
    ...(h('message-id') ? {} : { 'Message-ID': newMessageIdHeader(db) }),
  })
  const toSelf = recipients.includes(sender.email.toLowerCase())
  const memo = new CopyMemo()
  const labelIds = toSelf ? ['UNREAD', 'SENT', 'INBOX'] : ['SENT']
  const sent = insertMessage(
    db,
    sender.id,
    { raw: fixed, labelIds, threadId: opts.threadId, internalDate: at },
    { mailboxExists: opts.mailboxExists, memo },
  )
  // The recipients' bytes are made when a world user is among them (rewriteHeaders throws for no header that the
  // rewrite above accepted: both look names up in a plain object).
  const delivered = () => rewriteHeaders(fixed, { Bcc: null })
  const others = recipients.filter((r) => r !== sender.email.toLowerCase())
  deliverToWorldUsers(db, delivered, others, opts.depth ?? 0, at, memo, sender.email.toLowerCase())
  return { row: sent, labelIds: labelOrder(labelIds) }
}

/**
 * The From header Gmail uses: the given address when it is the user's or a confirmed send-as alias, else the
 * account's.
 */
function sendAsAddress(db: Db, sender: WorldUserRow, given: string | undefined): string {
  const addresses = parseAddressList(given)
  // The account's own address needs no alias list (nor does a From without an address).
  if (given && addresses[0] === sender.email.toLowerCase()) return given
  if (!given || !addresses[0]) return formatAddress({ name: sender.name, email: sender.email })
  // A `pending` alias (its owner has not confirmed it) is not usable yet.
  const aliases = listAddressSettings(db, sender.id, 'sendAs')
    .filter((s) => s.verificationStatus !== 'pending')
    .map((s) => String(s.sendAsEmail).toLowerCase())
  if (given && addresses[0] && (addresses[0] === sender.email.toLowerCase() || aliases.includes(addresses[0])))
    return given
  return formatAddress({ name: sender.name, email: sender.email })
}

/** Gmail's per-message recipient limit. Deviation: Gmail's wording of the refusal is not documented. */
export const MAX_RECIPIENTS = 500

type UserColumns = Parameters<typeof userFromRow>[0]

const USER_KEYS = columnNames(worldUsers)
const EMAIL_AT = USER_KEYS.indexOf('email')
const USERS_SQL = `SELECT ${USER_KEYS.join(', ')} FROM world_users ORDER BY rowid`

/**
 * Every world user's raw row by lower-cased address (the last in seed order for addresses that differ only in
 * case): what `listUsers` gives, read without making an object of any row but a recipient's (keyedRow).
 */
function usersByEmail(db: Db): Map<string, unknown[]> {
  const byEmail = new Map<string, unknown[]>()
  for (const row of stmt(db, USERS_SQL).raw(true).all() as unknown[][]) {
    byEmail.set((row[EMAIL_AT] as string).toLowerCase(), row)
  }
  return byEmail
}

/**
 * Gives a copy of `raw()` (made on first need) to every world user among the recipients; `memo` is shared with the
 * copies of the same message stored earlier in this call. `sender` (a sending user's lower-case address) gets no copy
 * through an alias of theirs.
 */
function deliverToWorldUsers(
  db: Db,
  raw: () => Buffer,
  recipients: string[],
  depth: number,
  at?: number,
  memo?: CopyMemo,
  sender?: string,
): MessageRow[] {
  const out: MessageRow[] = []
  const byEmail = usersByEmail(db)
  // Directory aliases, read once and only when a recipient is no user's primary address.
  let aliases: Map<string, string> | undefined
  const reached = new Set<unknown[]>()
  let bytes: Buffer | undefined
  // A group address (or a group's alias) reaches its members (nested groups expanded, each person once).
  for (const address of expandGroupAddresses(db, recipients)) {
    const lower = address.trim().toLowerCase()
    let columns = byEmail.get(lower)
    if (!columns) {
      aliases ??= userAliasAddresses(db)
      const primary = aliases.get(lower)
      // The sender's own alias: the SENT copy is the message (Google's help on renamed users: messages the user
      // sends to their old address, an alias, do not appear in the Inbox).
      if (primary !== undefined && primary === sender) continue
      columns = primary === undefined ? undefined : byEmail.get(primary)
    }
    // A user named by both their address and an alias gets one copy (Gmail keeps one per Message-ID).
    if (!columns || reached.has(columns)) continue
    reached.add(columns)
    const user = userFromRow(keyedRow<UserColumns>(USER_KEYS, columns)!)
    const copy = withDeliveredTo((bytes ??= raw()), user.email)
    at ??= nowMs(db)
    const labelIds = ['UNREAD', 'CATEGORY_PERSONAL', 'INBOX']
    const row = insertMessage(db, user.id, { raw: copy, labelIds, internalDate: at }, { memo })
    out.push(row)
    if (depth < MAX_AUTOMATIC_DEPTH) afterDelivery(db, user, row, depth)
  }
  return out
}

/**
 * `rewriteHeaders(raw, {}, { 'Delivered-To': email })` without splitting the header block: for a message whose header
 * lines all end in CRLF before a blank line, that is the new line followed by the bytes as they are. Anything else
 * (a bare LF, no blank line, a header name rewriteHeaders would look up on Object.prototype) takes rewriteHeaders.
 */
export function withDeliveredTo(raw: Buffer, email: string): Buffer {
  const end = headEnd(raw)
  let plain = end < raw.length && raw[end] === 13
  for (let i = raw.indexOf(10); plain && i >= 0 && i < end; i = raw.indexOf(10, i + 1)) plain = raw[i - 1] === 13
  if (!plain || PROTOTYPE_NAMES.test(raw.toString('latin1', 0, end))) {
    return rewriteHeaders(raw, {}, { 'Delivered-To': email })
  }
  return Buffer.concat([Buffer.from(`Delivered-To: ${email}\r\n`, 'latin1'), raw])
}

/** Names of Object.prototype's properties, anywhere in a header block (a false alarm only costs the slow path). */
const PROTOTYPE_NAMES = new RegExp(Object.getOwnPropertyNames(Object.prototype).join('|'), 'i')

/** Filters, auto-forwarding and the vacation responder, in that order, as Gmail applies them. */
function afterDelivery(db: Db, user: WorldUserRow, row: MessageRow, depth: number) {
  for (const f of listFilters(db, user.id)) {
    if (!matchesQuery(db, user, row.id, criteriaQuery(f.criteria))) continue
    const add = (f.action.addLabelIds as string[] | undefined) ?? []
    const remove = (f.action.removeLabelIds as string[] | undefined) ?? []
    modifyLabels(db, user.id, row.id, add, remove, row.threadId)
    if (typeof f.action.forward === 'string') forward(db, user, row, f.action.forward, depth)
  }
  const fwd = getSetting<{ enabled?: boolean; emailAddress?: string; disposition?: string }>(
    db,
    user.id,
    'autoForwarding',
  )
  if (fwd.enabled && fwd.emailAddress) {
    forward(db, user, row, fwd.emailAddress, depth)
    const d = fwd.disposition
    if (d === 'archive') modifyLabels(db, user.id, row.id, [], ['INBOX'], row.threadId)
    if (d === 'trash') modifyLabels(db, user.id, row.id, ['TRASH'], ['INBOX'], row.threadId)
    if (d === 'markRead') modifyLabels(db, user.id, row.id, [], ['UNREAD'], row.threadId)
  }
  vacationReply(db, user, row, depth)
}

function forward(db: Db, user: WorldUserRow, row: MessageRow, to: string, depth: number) {
  const verified = listAddressSettings(db, user.id, 'forwarding').some(
    (f) => String(f.forwardingEmail).toLowerCase() === to.toLowerCase() && f.verificationStatus === 'accepted',
  )
  if (!verified) return
  const raw = rewriteHeaders(row.raw, {
    'Delivered-To': null,
    'X-Forwarded-To': to,
    'X-Forwarded-For': `${user.email} ${to}`,
  })
  deliverToWorldUsers(db, () => raw, [to.toLowerCase()], depth + 1)
}

function vacationReply(db: Db, user: WorldUserRow, row: MessageRow, depth: number) {
  const v = getSetting<Record<string, unknown>>(db, user.id, 'vacation')
  if (!v.enableAutoReply) return
  const t = nowMs(db)
  if (v.startTime && t < Number(v.startTime)) return
  if (v.endTime && t > Number(v.endTime)) return
  const root = parseMime(row.raw)
  if ((headerOf(root.headers, 'auto-submitted') ?? 'no') !== 'no' || headerOf(root.headers, 'list-id')) return
  const from = parseAddressList(headerOf(root.headers, 'from'))[0]
  if (!from || from === user.email.toLowerCase()) return
  if (v.restrictToDomain && from.split('@')[1] !== user.email.split('@')[1]) return
  // Gmail answers each sender at most once every four days.
  const replied = getSetting<Record<string, number>>(db, user.id, 'vacationReplied')
  if (replied[from] && t - replied[from]! < 4 * 86_400_000) return
  setSetting(db, user.id, 'vacationReplied', { ...replied, [from]: t })
  const subject = String(v.responseSubject || `Re: ${headerOf(root.headers, 'subject') ?? ''}`)
  const reply = buildMessage({
    from: { name: user.name, email: user.email },
    to: [{ email: from }],
    subject,
    text: String(v.responseBodyPlainText ?? ''),
    html: v.responseBodyHtml ? String(v.responseBodyHtml) : undefined,
    date: now(db),
    messageId: newMessageIdHeader(db),
    inReplyTo: headerOf(root.headers, 'message-id'),
    references: headerOf(root.headers, 'message-id'),
    headers: { 'Auto-Submitted': 'auto-replied' },
  })
  sendAsUser(db, user, reply, { threadId: row.threadId, depth: depth + 1 })
}

export type { NewMessage }
