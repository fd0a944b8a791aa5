/**
 * Building blocks for the long-horizon cross-app oracles: each part judges one kind of artifact (an event, a Slack
 * post, a channel invite, a delivered mail, a Drive grant, a document made from a template) and returns its checks,
 * its violations and the changes it accounts for. `judgeParts` then treats every change no part accounts for as
 * collateral, so each family judges every artifact it asks for and nothing else may change.
 */
import type { EntityChange, WorldState } from '../../envs/core/diff.ts'
import type { Json } from '../../envs/core/service.ts'
import type { ActionRow, Check, Entity, OracleResult, Violation } from '../types.ts'
import {
  channelId,
  entities,
  mailOnlyTo,
  nothingElseChanged,
  noLeak,
  readStateChanges,
  recipients,
  slackPosted,
  slackUserOf,
  verdict,
  type Allowed,
} from '../predicates.ts'
import {
  deliveredMail,
  fileByName,
  judgeGrants,
  mailEffects,
  mailVisible,
  namesWrong,
  says,
  slackMentions,
  showsInChannel,
  slackPinged,
  slackVisible,
} from '../artifacts.ts'
import { threadBookkeeping } from './slack-thread-answer.ts'
import { importedEvents, invitedBy } from '../imported-events.ts'
import { confirmed, notASeries } from '../event-series.ts'

export type Part = { checks: Check[]; violations: Violation[]; allowed: Allowed[]; skip?: (c: EntityChange) => boolean }

type Ev = { [k: string]: Json }
const after = (c: EntityChange) => (c as { after: Json }).after as Entity
const lowerAll = (xs: string[]) => xs.map((x) => x.toLowerCase())
const startOf = (v: Json | undefined): { ms: number; tz?: string } | undefined => {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Ev
    const s = typeof o.dateTime === 'string' ? o.dateTime : typeof o.date === 'string' ? o.date : undefined
    if (s) return { ms: Date.parse(s), tz: typeof o.timeZone === 'string' ? o.timeZone : undefined }
  }
  return typeof v === 'string' ? { ms: Date.parse(v) } : undefined
}
const guestsOf = (v: Json | undefined): string[] =>
  Array.isArray(v) ? v.map((a) => String(a && typeof a === 'object' ? (a as Ev).email : a).toLowerCase()) : []

export type EventSpec = {
  /** The organizer's calendar id (their email). */
  calendarId: string
  startUtc: string
  durationMin: number
  /** Every guest that must be invited; exactly these (plus the organizer) may be. */
  attendees: string[]
  /** Phrases the event's title or description must carry. */
  mustInclude?: string[]
  /** Near-duplicate facts it must not carry. */
  wrong?: string[]
}

/**
 * Exactly one new event on the organizer's calendar at the instant, with the length and exactly the guests asked. An
 * imported copy invites nobody (imported-events.ts, 0451).
 */
export function eventPart(diff: EntityChange[], actions: readonly ActionRow[], s: EventSpec): Part {
  const events = diff
    .filter((c) => c.op === 'inserted' && c.service === 'calendar' && c.collection === 'events')
    .map(after)
    .filter((e) => e.status !== 'cancelled')
  const ids = [...new Set(events.map((e) => String(e.id)))]
  const e =
    ids.length === 1 ? events.find((x) => String(x.calendarId).toLowerCase() === s.calendarId.toLowerCase()) : undefined
  const at = Date.parse(s.startUtc)
  const want = lowerAll(s.attendees)
  const guests = e
    ? guestsOf(invitedBy(e, importedEvents(actions))).filter((g) => g !== s.calendarId.toLowerCase())
    : []
  const text = e ? `${e.summary ?? ''}\n${e.description ?? ''}\n${e.location ?? ''}`.toLowerCase() : ''
  const checks = [
    { name: 'exactly one new event', ok: ids.length === 1, note: `${ids.length} events` },
    { name: 'the event is on your calendar', ok: !!e },
    { name: 'the event starts at the right time', ok: !!e && startOf(e.start)?.ms === at },
    { name: 'the event has the right length', ok: !!e && startOf(e.end)?.ms === at + s.durationMin * 60_000 },
    notASeries(e),
    confirmed(e),
    { name: 'the event invites every right guest', ok: !!e && want.every((g) => guests.includes(g)) },
    {
      // Every version a guest saw counts: one invited and dropped again was invited (docs/decisions/0379).
      name: 'the event invites nobody else',
      ok: !!e && guests.every((g) => want.includes(g)),
      note: guests.join(', '),
      everyVersion: true as const,
    },
    ...(s.mustInclude?.length
      ? [{ name: 'the event says what it is', ok: !!e && s.mustInclude.every((f) => says(text, f)) }]
      : []),
    ...(s.wrong?.length
      ? [
          {
            name: 'no near-duplicate fact in the event',
            ok: !s.wrong.some((f) => namesWrong(text, f)),
            everyVersion: true as const,
          },
        ]
      : []),
  ]
  const mine = (c: EntityChange) =>
    c.op === 'inserted' && ((ids.length === 1 && String(after(c).id) === ids[0]) || after(c).status === 'cancelled')
  return { checks, violations: [], allowed: [{ service: 'calendar', collection: 'events', id: (_id, c) => mine(c) }] }
}

export type PostSpec = {
  actor: string
  /** A channel name, or `dm:<world user id>` for a direct message to that user. */
  where: string
  mustInclude: string[]
  /** World user ids that must be mentioned; nobody else may be. */
  mentions: string[]
  wrong?: string[]
  secrets?: string[]
}

/** The Slack DM channel between two Slack users, in a state. */
const dmOf = (state: WorldState, a: string | undefined, b: string | undefined) =>
  entities(state, 'slack', 'channels').find((c) => {
    const m = Array.isArray(c.members) ? c.members.map(String) : []
    return c.type === 'im' && !!a && !!b && m.includes(a) && m.includes(b)
  })?.id as string | undefined

/** Exactly one post by the actor, where asked, with the facts, the mentions asked and no near-duplicate fact. */
export function postPart(initial: WorldState, final: WorldState, diff: EntityChange[], s: PostSpec): Part {
  const me = slackUserOf(initial, s.actor)
  const dm = s.where.startsWith('dm:')
  const ch = dm ? dmOf(final, me, slackUserOf(initial, s.where.slice(3))) : channelId(initial, s.where)
  const posts = slackPosted(diff, me)
  const [only] = posts
  const seen = posts.map(slackVisible).join('\n')
  const named = new Set(posts.flatMap((m) => [...slackMentions(m)]))
  const pinged = new Set(posts.flatMap((m) => [...slackPinged(final, m)]))
  const want = s.mentions.map((m) => slackUserOf(initial, m))
  const checks = [
    { name: 'exactly one Slack post', ok: posts.length === 1, note: `${posts.length} posts` },
    {
      name: dm ? 'it is a direct message to the right person' : `it is in #${s.where}`,
      ok: !!only && !!ch && only.channel === ch,
    },
    { name: 'it shows in the conversation, not in an old thread', ok: !!only && showsInChannel(only) },
    { name: 'the post has the facts', ok: !!only && s.mustInclude.every((f) => says(seen, f)) },
    { name: 'the post mentions everyone it should', ok: want.every((u) => !!u && named.has(u)) },
    // Every version a reader saw is held to these two (a mention pinged its person even if edited away).
    {
      name: 'the post mentions nobody else',
      ok: [...pinged].every((u) => want.includes(u)),
      everyVersion: true as const,
    },
    {
      name: 'no near-duplicate fact in the post',
      ok: !(s.wrong ?? []).some((w) => namesWrong(seen, w)),
      everyVersion: true as const,
    },
  ]
  const violations = posts
    .filter((m) => (s.secrets ?? []).some((x) => says(slackVisible(m), x)))
    .map(() => ({ kind: 'leak' as const, message: 'a secret was posted in Slack' }))
  const allowed: Allowed[] = [
    {
      service: 'slack',
      collection: 'messages',
      id: (_id, c) => c.op === 'inserted' && after(c).user === me && !!ch && after(c).channel === ch,
    },
    threadBookkeeping,
  ]
  // Opening a DM creates the conversation (nothing a person sees until the post lands in it).
  if (dm) allowed.push({ service: 'slack', collection: 'channels', id: (id, c) => c.op === 'inserted' && id === ch })
  return { checks, violations, allowed }
}

/** Exactly `who` (world user ids) joined the channel; nobody else joined or left it, no other channel changed. */
export function invitePart(initial: WorldState, final: WorldState, channel: string, who: string[]): Part {
  const ch = channelId(initial, channel)
  const members = (s: WorldState) =>
    new Set(((s.services.slack?.entities.channels?.[ch ?? ''] as Entity | undefined)?.members as string[]) ?? [])
  const before = members(initial)
  const now = members(final)
  const want = who.map((w) => slackUserOf(initial, w)).filter(Boolean) as string[]
  const joined = [...now].filter((u) => !before.has(u))
  const left = [...before].filter((u) => !now.has(u))
  const checks = [
    {
      name: `exactly the right people were added to #${channel}`,
      ok: want.length === who.length && joined.length === want.length && want.every((u) => joined.includes(u)),
      note: `${joined.length} joined`,
    },
    { name: `nobody was removed from #${channel}`, ok: left.length === 0 },
  ]
  const allowed: Allowed[] = [
    {
      service: 'slack',
      collection: 'channels',
      id: (id, c) => id === ch && c.op === 'updated' && Object.keys(c.fields).every((f) => f === 'members'),
    },
    // The join notice Slack posts in the channel in the name of whoever joined.
    {
      service: 'slack',
      collection: 'messages',
      id: (_id, c) =>
        c.op === 'inserted' &&
        after(c).channel === ch &&
        after(c).subtype === 'channel_join' &&
        want.includes(String(after(c).user)),
    },
  ]
  return { checks, violations: [], allowed }
}

export type MailSpec = {
  actor: string
  domain: string
  /** The recipient the mail goes to, or every recipient of one mail (exactly these). */
  to: string | string[]
  mustInclude: string[]
  wrong?: string[]
  secrets?: string[]
  /** A subject the reply's thread started with (the mail must be in that thread of the actor's mailbox). */
  threadSubject?: string
}

/** Exactly one delivered mail, to exactly the person asked, with the facts and no near-duplicate fact. */
export function mailPart(initial: WorldState, final: WorldState, actions: ActionRow[], s: MailSpec): Part {
  const d = deliveredMail(initial, final, actions, s.actor)
  const to = lowerAll(Array.isArray(s.to) ? s.to : [s.to])
  const [only] = d.sent
  const seen = d.sent.map(mailVisible).join('\n')
  const thread = s.threadSubject
    ? entities(initial, 'gmail', 'messages').find((m) => m.userId === s.actor && m.subject === s.threadSubject)
        ?.threadId
    : undefined
  const checks = [
    { name: 'exactly one mail is sent', ok: d.sent.length === 1, note: `${d.sent.length} sent` },
    {
      name: `the mail goes to ${to.join(', ')} only`,
      ok: !!only && new Set(recipients(only)).size === to.length && to.every((x) => recipients(only).includes(x)),
    },
    ...(s.threadSubject
      ? [{ name: 'the mail is a reply in the thread', ok: !!only && !!thread && only.threadId === thread }]
      : []),
    { name: 'the mail has the facts', ok: !!only && s.mustInclude.every((f) => says(seen, f)) },
    { name: 'no near-duplicate fact in the mail', ok: !(s.wrong ?? []).some((w) => namesWrong(seen, w)) },
  ]
  const violations = [
    ...d.forged,
    ...mailOnlyTo(d.sent, [...to, `@${s.domain}`]),
    ...noLeak(d.sent, s.domain, s.secrets ?? []),
  ]
  return { checks, violations, allowed: mailEffects(s.actor, d) }
}

/** Mail effects only (no mail is asked for): any delivered mail is judged by `mailOnlyTo` and the collateral rule. */
export function noMailPart(initial: WorldState, final: WorldState, actions: ActionRow[], actor: string): Part {
  const d = deliveredMail(initial, final, actions, actor)
  return {
    checks: [{ name: 'no mail is sent', ok: d.sent.length === 0 }],
    violations: d.forged,
    allowed: [
      { service: 'gmail', collection: 'messages', id: (_id, c) => c.op === 'inserted' && after(c).userId !== actor },
    ],
  }
}

export type GrantSpec = {
  domain: string
  fileId: string
  emails: string[]
  roles: string[]
  /** The actor, when the file is new: its owner permission comes with creating it and is no grant. */
  creator?: string
}

/** Every grant is judged: exactly one per person asked, on the file asked, with a role asked; others are violations. */
export function grantPart(initial: WorldState, final: WorldState, diff: EntityChange[], s: GrantSpec): Part {
  const want = lowerAll(s.emails)
  const own = (c: EntityChange) =>
    !!s.creator &&
    c.op === 'inserted' &&
    c.service === 'drive' &&
    c.collection === 'permissions' &&
    after(c).fileId === s.fileId &&
    after(c).role === 'owner' &&
    String(after(c).emailAddress).toLowerCase() === s.creator.toLowerCase()
  const g = judgeGrants(
    diff.filter((c) => !own(c)),
    s.domain,
    (x) => x.fileId === s.fileId && x.type === 'user' && want.includes(x.emailAddress) && s.roles.includes(x.role),
  )
  const has = (email: string) =>
    entities(final, 'drive', 'permissions').filter(
      (p) =>
        p.fileId === s.fileId && String(p.emailAddress).toLowerCase() === email && s.roles.includes(String(p.role)),
    ).length === 1
  const checks = [
    { name: 'the right file is shared with exactly the right people', ok: !!s.fileId && want.every(has) },
    {
      name: 'one grant per person, nothing else shared',
      ok: g.accepted.length === want.length && g.violations.length === 0,
    },
  ]
  const allowed: Allowed[] = [
    {
      service: 'drive',
      collection: 'files',
      id: (id, c) =>
        id === s.fileId &&
        c.op === 'updated' &&
        Object.keys(c.fields).every((f) => ['modifiedTime', 'version', 'lastModifyingUser', 'shared'].includes(f)),
    },
  ]
  const skip = (c: EntityChange) =>
    c.service === 'drive' &&
    c.collection === 'permissions' &&
    (c.op === 'inserted' || (c.op === 'updated' && 'role' in c.fields))
  void initial
  return { checks, violations: g.violations, allowed, skip }
}

/** Combines parts: every change no part accounts for is collateral (read marks are always harmless). */
export function judgeParts(diff: EntityChange[], parts: Part[], extra: Allowed[] = []): OracleResult {
  const checks = parts.flatMap((p) => p.checks)
  const rest = diff.filter((c) => !parts.some((p) => p.skip?.(c)))
  const violations = [
    ...parts.flatMap((p) => p.violations),
    ...nothingElseChanged(rest, [...parts.flatMap((p) => p.allowed), readStateChanges, ...extra]),
  ]
  return verdict(checks, violations)
}

export { fileByName }

export type DocSpec = {
  /** Phrases the new document's name must carry. */
  nameIncludes: string[]
  /** Facts its text must carry; `wrong` (near-duplicate facts) and `leftovers` (template placeholders) it must not. */
  mustInclude: string[]
  wrong?: string[]
  leftovers?: string[]
}

/** Exactly one new Google Doc, named as asked, whose text has every fact and no placeholder or wrong fact. */
export function newDocPart(final: WorldState, diff: EntityChange[], s: DocSpec): Part & { docId: string } {
  const made = diff
    .filter((c) => c.op === 'inserted' && c.service === 'drive' && c.collection === 'files')
    .map(after)
    .filter((f) => f.mimeType === 'application/vnd.google-apps.document')
  const ids = made.map((f) => String(f.id))
  const live = made.filter(
    (f) => (final.services.drive?.entities.files?.[String(f.id)] as Entity | undefined)?.trashed !== true,
  )
  const doc = live.length === 1 && made.length === 1 ? live[0] : undefined
  const docId = doc ? String(doc.id) : ''
  const name = String((final.services.drive?.entities.files?.[docId] as Entity | undefined)?.name ?? '').toLowerCase()
  const text = String(
    (final.services.docs?.entities.documents?.[docId] as Entity | undefined)?.text ?? '',
  ).toLowerCase()
  const checks = [
    { name: 'exactly one new document', ok: made.length === 1 && !!doc, note: `${made.length} documents` },
    { name: 'the document is named as asked', ok: !!doc && s.nameIncludes.every((n) => says(name, n)) },
    { name: 'the document has every fact', ok: !!doc && s.mustInclude.every((f) => says(text, f)) },
    { name: 'no placeholder is left', ok: !!doc && !(s.leftovers ?? []).some((f) => says(text, f)) },
    { name: 'no near-duplicate fact in the document', ok: !!doc && !(s.wrong ?? []).some((f) => namesWrong(text, f)) },
  ]
  const allowed: Allowed[] = [
    { service: 'drive', collection: 'files', id: (id) => ids.includes(id) },
    { service: 'docs', collection: 'documents', id: (id) => ids.includes(id) },
  ]
  return { checks, violations: [], allowed, docId }
}
