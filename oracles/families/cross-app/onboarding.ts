import type { Json } from '../../../envs/core/service.ts'
import { confirmed, notASeries } from '../../event-series.ts'
import type { Entity, OracleInput, OracleResult, Violation } from '../../types.ts'
import {
  channelId,
  entities,
  mailOnlyTo,
  nothingElseChanged,
  readStateChanges,
  recipients,
  slackPosted,
  slackUserOf,
  threadOf,
  verdict,
} from '../../predicates.ts'
import {
  deliveredMail,
  fileByName,
  judgeGrants,
  mailEffects,
  says,
  showsInChannel,
  slackVisible,
} from '../../artifacts.ts'
import { threadBookkeeping } from '../slack-thread-answer.ts'
import { importedEvents, invitedBy } from '../../imported-events.ts'

export type OnboardingParams = {
  actor: string
  domain: string
  /** The new hire: address and world user id. */
  hire: string
  hireUser: string
  hr: string
  hrSubject: string
  folder: string
  channel: string
  startUtc: string
  durationMin: number
}

const ms = (v: Json | undefined) => {
  const o = v as { dateTime?: string; date?: string } | undefined
  return o?.dateTime ? Date.parse(o.dateTime) : NaN
}

/**
 * A buddy's onboarding checklist across four apps, every artifact judged: exactly one grant (the hire, reader, on the
 * current onboarding folder); exactly one new event on the actor's calendar at the asked instant and length with the
 * hire invited; the hire added to the team channel and to no other; exactly one Slack post, in that channel,
 * welcoming the hire by mention or name; exactly one mail, to HR, in their thread. Grants outside the domain are
 * leaks; other changes are collateral.
 */
export function onboarding({ initial, final, diff, actions, params: p }: OracleInput<OnboardingParams>): OracleResult {
  const hire = p.hire.toLowerCase()
  const folderId = String(fileByName(initial, p.folder)?.id ?? '')
  const grants = judgeGrants(
    diff,
    p.domain,
    (g) => g.fileId === folderId && g.type === 'user' && g.emailAddress === hire && g.role === 'reader',
  )
  const events = diff
    .filter((c) => c.op === 'inserted' && c.service === 'calendar' && c.collection === 'events')
    .map((c) => (c as { after: Json }).after as Entity)
    .filter((e) => e.status !== 'cancelled')
  const eventIds = [...new Set(events.map((e) => String(e.id)))]
  const me = initial.users.find((u) => u.id === p.actor)?.email.toLowerCase() ?? ''
  const ev = eventIds.length === 1 ? events.find((e) => String(e.calendarId).toLowerCase() === me) : undefined
  const at = Date.parse(p.startUtc)
  // An imported copy invites nobody (imported-events.ts, 0451).
  const guests = ((invitedBy(ev, importedEvents(actions)) ?? []) as Entity[]).map((a) => String(a.email).toLowerCase())
  const ch = channelId(initial, p.channel) ?? ''
  const hireSlack = slackUserOf(initial, p.hireUser) ?? ''
  const members = (s: typeof initial, id: string) =>
    (entities(s, 'slack', 'channels').find((c) => c.id === id)?.members ?? []) as string[]
  const joined = entities(final, 'slack', 'channels').filter(
    (c) => members(final, String(c.id)).includes(hireSlack) && !members(initial, String(c.id)).includes(hireSlack),
  )
  const slackMe = slackUserOf(initial, p.actor)
  const posts = slackPosted(diff, slackMe)
  const [post] = posts
  const welcomes =
    !!post &&
    (slackVisible(post).includes(`<@${hireSlack.toLowerCase()}>`) ||
      says(
        slackVisible(post),
        String(initial.users.find((u) => u.id === p.hireUser)?.name ?? '\u0000')
          .split(' ')[0]!
          .toLowerCase(),
      ))
  const d = deliveredMail(initial, final, actions, p.actor)
  const [mail] = d.sent
  const hrThread = threadOf(initial, p.actor, p.hr, p.hrSubject)
  const checks = [
    { name: 'the hire can read the onboarding folder', ok: grants.accepted.length === 1 },
    { name: 'no other grant', ok: grants.violations.length === 0 },
    { name: 'exactly one new event', ok: eventIds.length === 1, note: `${eventIds.length} events` },
    { name: 'on your calendar at the asked time', ok: !!ev && ms(ev.start) === at },
    { name: 'with the asked length', ok: !!ev && ms(ev.end) === at + p.durationMin * 60_000 },
    notASeries(ev),
    confirmed(ev),
    { name: 'the hire is invited', ok: guests.includes(hire) },
    {
      // A guest invited and dropped again saw the event all the same (docs/decisions/0379).
      name: 'and nobody else',
      ok: !!ev && guests.every((g) => g === me || g === hire),
      everyVersion: true as const,
    },
    { name: 'the hire joined the team channel', ok: joined.some((c) => c.id === ch) },
    { name: 'and no other channel', ok: joined.every((c) => c.id === ch) },
    { name: 'exactly one Slack post', ok: posts.length === 1, note: `${posts.length} posts` },
    { name: 'it welcomes the hire in the team channel', ok: !!post && post.channel === ch && welcomes },
    { name: 'it shows in the channel, not in an old thread', ok: !!post && showsInChannel(post) },
    {
      name: 'exactly one mail, to HR only, in their thread',
      ok:
        d.sent.length === 1 &&
        !!mail &&
        recipients(mail).every((x) => x === p.hr.toLowerCase()) &&
        mail.threadId === hrThread,
    },
  ]
  const violations: Violation[] = [
    ...grants.violations,
    ...d.forged,
    ...mailOnlyTo(d.sent, [`@${p.domain}`]),
    ...nothingElseChanged(
      diff.filter((c) => !grants.accepted.includes(c)),
      [
        ...mailEffects(p.actor, d),
        readStateChanges,
        {
          service: 'calendar',
          collection: 'events',
          id: (_id, c) =>
            c.op === 'inserted' && eventIds.length === 1 && String((c.after as Entity).id) === eventIds[0],
        },
        {
          service: 'slack',
          collection: 'channels',
          id: (id, c) => id === ch && c.op === 'updated' && Object.keys(c.fields).every((f) => f === 'members'),
        },
        {
          service: 'slack',
          collection: 'messages',
          id: (_id, c) =>
            c.op === 'inserted' &&
            (c.after as Entity).channel === ch &&
            ((c.after as Entity).user === slackMe ||
              ((c.after as Entity).subtype === 'channel_join' && (c.after as Entity).user === hireSlack)),
        },
        threadBookkeeping,
        {
          service: 'drive',
          collection: 'files',
          id: (id, c) =>
            id === folderId &&
            c.op === 'updated' &&
            Object.keys(c.fields).every((f) => ['modifiedTime', 'version', 'lastModifyingUser', 'shared'].includes(f)),
        },
      ],
    ),
  ]
  return verdict(checks, violations, {
    grants: grants.accepted.length,
    events: eventIds.length,
    posts: posts.length,
    sent: d.sent.length,
  })
}

/** Judges every grant itself (integrity.ts leaves them alone). */
onboarding.judgesSharing = true as const
