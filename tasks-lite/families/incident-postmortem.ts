import { DateTime } from 'luxon'
import { baseSeed, code, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'
import { httpStep as http } from '../../gym/program.ts'

const SYMPTOMS = [
  'checkout errors spiking',
  'search returning empty results',
  'webhooks delayed',
  'login failures in EU',
]
const CAUSES = [
  'an expired TLS certificate on the payments gateway',
  'a database migration that locked the orders table',
  'a bad feature flag rollout in the search service',
  'a full disk on the queue broker',
  'a DNS change that dropped the internal API record',
]
const DOC = 'application/vnd.google-apps.document'
const FIELDS = ['[INCIDENT ID]', '[DETECTED AT]', '[RESOLVED AT]', '[ROOT CAUSE]'] as const

/**
 * Slack + Drive + Docs + Calendar, long horizon: from the latest incident thread in #incidents, copy the postmortem
 * template, fill in the timeline facts, give the responders edit access and book the review the thread proposes. An
 * older incident thread (other responders, other facts) and a deprecated template are the near-duplicates.
 */
export const incidentPostmortem: Family = {
  id: 'incident-postmortem',
  services: ['slack', 'drive', 'docs', 'calendar'],
  multiApp: true,
  antiGaming:
    'Exactly one new document, a copy of the current template named after the incident, with every fact of the ' +
    'latest incident and none of the older one (or of the deprecated template), no placeholder left; exactly one ' +
    "writer grant per responder of that incident on it (the older incident's responders or anyone outside are " +
    'violations); exactly one review event at the proposed instant with exactly the responders. The templates, the ' +
    'threads and everything else must stay unchanged.',
  scenario: 'Two incident threads in #incidents (latest and older), a current and a deprecated template.',
  generate(seed) {
    const r = rng(seed * 472882049 + 97)
    const c = company(r, 5)
    const [a, b, oa, ob] = r.sample(c.colleagues, 4) as [typeof c.actor, typeof c.actor, typeof c.actor, typeof c.actor]
    const [cause, oldCause] = r.sample(CAUSES, 2) as [string, string]
    const [symptom, oldSymptom] = r.sample(SYMPTOMS, 2) as [string, string]
    const inc = `INC-${code(r)}`
    const oldInc = `INC-${code(r)}`
    const hhmm = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} UTC`
    const dh = r.int(6, 13)
    const detected = hhmm(dh, r.int(0, 5) * 10 + 5)
    const resolved = hhmm(dh + r.int(1, 3), r.int(0, 5) * 10)
    const oldDetected = hhmm(dh + 4, 15)
    const oldResolved = hhmm(dh + 5, 50)
    const review = DateTime.fromISO(c.now, { zone: 'UTC' })
      .plus({ days: r.int(2, 4) })
      .set({ hour: r.int(13, 16), minute: 0 })
    const minutes = r.pick([45, 60])
    const when = `${review.toFormat('cccc d LLLL')} at ${review.toFormat('HH:mm')} UTC`
    const h = (p: { email: string }) => p.email.split('@')[0]
    const slack = {
      channels: [
        { name: 'general', general: true },
        { name: 'incidents', purpose: 'Production incidents' },
      ],
      messages: [
        {
          key: 'o',
          channel: 'incidents',
          user: oa.id,
          text: `${oldInc}: ${oldSymptom}. Investigating.`,
          at: '-12960m',
        },
        {
          channel: 'incidents',
          user: ob.id,
          thread: 'o',
          text: `Detected at ${oldDetected} by the latency alert.`,
          at: '-12950m',
        },
        { channel: 'incidents', user: oa.id, thread: 'o', text: `Root cause: ${oldCause}.`, at: '-12910m' },
        {
          channel: 'incidents',
          user: ob.id,
          thread: 'o',
          text: `Resolved at ${oldResolved}. Postmortem is written and reviewed.`,
          at: '-12840m',
        },
        {
          key: 'n',
          channel: 'incidents',
          user: a.id,
          text: `${inc}: ${symptom}. Investigating, @${h(b)} is helping.`,
          at: '-1d',
        },
        {
          channel: 'incidents',
          user: b.id,
          thread: 'n',
          text: `Detected at ${detected} by the error-rate alert.`,
          at: '-1435m',
        },
        { channel: 'incidents', user: a.id, thread: 'n', text: `Root cause: ${cause}.`, at: '-1400m' },
        {
          channel: 'incidents',
          user: b.id,
          thread: 'n',
          text: `Resolved at ${resolved}, all metrics back to normal.`,
          at: '-1320m',
        },
        {
          channel: 'incidents',
          user: a.id,
          thread: 'n',
          text: `Let's review the postmortem on ${when}, ${minutes} minutes, with both of us who responded.`,
          at: '-1260m',
        },
      ],
    }
    const template = (title: string, note: string) => ({
      title,
      owner: c.actor.id,
      content: [
        { text: 'Postmortem', style: 'TITLE' as const },
        note,
        `Incident: ${FIELDS[0]}`,
        { text: 'Timeline', style: 'HEADING_1' as const },
        `Detected: ${FIELDS[1]}`,
        `Resolved: ${FIELDS[2]}`,
        { text: 'Root cause', style: 'HEADING_1' as const },
        FIELDS[3],
        { text: 'Action items', style: 'HEADING_1' as const },
        'To be agreed in the review.',
      ],
    })
    const documents = [
      template('Postmortem template', 'Copy this template for every incident.'),
      template('Postmortem template (deprecated 2024)', 'Deprecated: do not use this version.'),
      {
        title: `Postmortem ${oldInc}`,
        owner: c.actor.id,
        content: [
          { text: 'Postmortem', style: 'TITLE' as const },
          `Incident: ${oldInc}`,
          `Detected: ${oldDetected}`,
          `Resolved: ${oldResolved}`,
          oldCause,
        ],
      },
    ]
    const iso = (d: DateTime) => d.toISO({ suppressMilliseconds: true })
    type Facts = { inc: string; detected: string; resolved: string; cause: string }
    const facts: Facts = { inc, detected, resolved, cause }
    // Look first: the channel, its history (the latest incident's root), the thread (facts, responders, review slot),
    // the responders' addresses; then the current template, its copy, the fill, the grants and the review.
    const program = (o: { f?: Facts; thread?: string; who?: [string, string]; tpl?: string } = {}) => {
      const f = o.f ?? facts
      const [p, q] = o.who ?? [a.name, b.name]
      return [
        http('GET', '/api/conversations.list', {}, { ch: 'channels[name=incidents].id' }),
        http(
          'GET',
          '/api/conversations.history',
          { query: { channel: '{{ch}}' } },
          { ts: `messages[text~=${o.thread ?? inc}].ts` },
        ),
        http('GET', '/api/conversations.replies', { query: { channel: '{{ch}}', ts: '{{ts}}' } }),
        http(
          'GET',
          '/api/users.list',
          {},
          { p: `members[real_name=${p}].profile.email`, q: `members[real_name=${q}].profile.email` },
        ),
        http(
          'GET',
          '/drive/v3/files',
          { query: { q: `name = '${o.tpl ?? 'Postmortem template'}' and mimeType = '${DOC}'` } },
          { tpl: 'files.0.id' },
        ),
        http('POST', '/drive/v3/files/{{tpl}}/copy', { body: { name: `Postmortem ${f.inc}` } }, { doc: 'id' }),
        http('POST', '/v1/documents/{{doc}}:batchUpdate', {
          body: {
            requests: [f.inc, f.detected, f.resolved, f.cause].map((v, i) => ({
              replaceAllText: { containsText: { text: FIELDS[i], matchCase: true }, replaceText: v },
            })),
          },
        }),
        ...['{{p}}', '{{q}}'].map((email) =>
          http('POST', '/drive/v3/files/{{doc}}/permissions', {
            query: { sendNotificationEmail: 'false' },
            body: { type: 'user', role: 'writer', emailAddress: email },
          }),
        ),
        http('POST', '/calendar/v3/calendars/primary/events', {
          body: {
            summary: `Postmortem review: ${f.inc}`,
            start: { dateTime: iso(review), timeZone: 'UTC' },
            end: { dateTime: iso(review.plus({ minutes })), timeZone: 'UTC' },
            attendees: [{ email: '{{p}}' }, { email: '{{q}}' }],
          },
        }),
      ]
    }
    return {
      generatedBy: GENERATED_BY,
      id: `incident-postmortem-${seed}`,
      family: 'incident-postmortem',
      services: ['slack', 'drive', 'docs', 'calendar'],
      requires: ['calendar.events.insert'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `The most recent incident discussed in #incidents on Slack is resolved. Start its postmortem: make a copy of our postmortem template in Drive named "Postmortem <incident id>", fill in the incident id, detection and resolution times and root cause from the thread, give the people who responded in the thread edit access, and book the review meeting they proposed, inviting them.`,
          () =>
            `Book the postmortem review proposed in the latest #incidents thread (invite its responders), and before that create the postmortem itself: a copy of the current Drive template called "Postmortem <incident id>", with the incident id, when it was detected and resolved, and the root cause filled in. The responders need edit access to it.`,
          () =>
            `Could you get the postmortem going for the latest incident in our Slack #incidents channel? Copy the postmortem template into a doc named "Postmortem <incident id>", complete the id, timeline (detected / resolved) and root cause from the thread, share it for editing with the responders, and put the review they suggested on the calendar with them invited.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `incident-postmortem-${seed}`), docs: { documents }, slack },
      oracle: {
        id: 'incident-postmortem',
        params: {
          actor: c.actor.id,
          domain: c.domain,
          incident: inc,
          facts: [inc, detected, resolved, cause],
          wrong: [oldInc, oldDetected, oldResolved, oldCause, 'deprecated'],
          leftovers: [...FIELDS],
          responders: [a.email, b.email],
          startUtc: review.toUTC().toISO()!,
          durationMin: minutes,
          templates: ['Postmortem template', 'Postmortem template (deprecated 2024)'],
        },
      },
      reference: program(),
      nearMisses: [
        {
          name: 'writes up the older incident',
          program: program({
            f: { inc: oldInc, detected: oldDetected, resolved: oldResolved, cause: oldCause },
            thread: oldInc,
            who: [oa.name, ob.name],
          }),
        },
        { name: 'copies the deprecated template', program: program({ tpl: 'Postmortem template (deprecated 2024)' }) },
        { name: "shares with the older incident's responders", program: program({ who: [oa.name, ob.name] }) },
        {
          name: "takes the older incident's detection time",
          program: program({ f: { ...facts, detected: oldDetected } }),
        },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['slack', 'drive', 'docs', 'calendar', 'long-horizon', 'near-duplicate'],
    }
  },
}
