import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'
import { httpStep as http } from '../../gym/program.ts'

const TEAMS = [
  ['Platform', 'platform-eng'],
  ['Data', 'data-team'],
  ['Payments', 'payments-squad'],
  ['Mobile', 'mobile-apps'],
  ['Growth', 'growth-team'],
] as const

/**
 * Gmail + Drive + Calendar + Slack, long horizon: HR's thread about a new hire (the start date moved once) asks the
 * manager to share the team's onboarding folder, book the welcome 1:1 with the onboarding buddy on the first day,
 * add the hire to the team channel, welcome them there and confirm to HR.
 */
export const onboardingMovedStart: Family = {
  id: 'onboarding-moved-start',
  services: ['gmail', 'drive', 'calendar', 'slack'],
  multiApp: true,
  antiGaming:
    'Every artifact is judged: exactly one reader grant, to the hire, on the right team folder (the archive and the ' +
    "other team's folder are near-duplicates; anything shared outside is a leak); exactly one event on the final " +
    'start date (not the superseded one) with exactly the hire and the buddy; exactly the hire added to the team ' +
    'channel; exactly one welcome post there mentioning only the hire; exactly one confirmation reply to HR in the ' +
    'thread. Anything else (other channels, other files, more mail) is collateral.',
  scenario: 'HR thread (start date moved once) names the hire, team folder, channel, buddy and time.',
  generate(seed) {
    const r = rng(seed * 961748941 + 71)
    const c = company(r, 5)
    const [hire, hr, buddy, other] = r.sample(c.colleagues, 4) as [
      typeof c.actor,
      typeof c.actor,
      typeof c.actor,
      typeof c.actor,
    ]
    const [[team, channel], [otherTeam, otherChannel]] = r.sample(TEAMS, 2) as [
      readonly [string, string],
      readonly [string, string],
    ]
    const zone = c.users[0]!.timeZone
    const monday = DateTime.fromISO(c.now, { zone }).startOf('week')
    const start = monday
      .plus({ weeks: r.int(1, 3), days: r.int(0, 3) })
      .set({ hour: r.pick([9, 10, 11, 14]), minute: r.pick([0, 30]) })
    const old = start.minus({ days: r.int(3, 7) }).set({ hour: start.hour, minute: start.minute })
    const minutes = r.pick([30, 45])
    const day = (d: DateTime) => d.toFormat('cccc d LLLL')
    const folder = `Onboarding - ${team}`
    const subject = `New starter: ${hire.name}`
    const messages = [
      {
        from: hr.id,
        to: [c.actor.id],
        subject,
        thread: 'hr',
        at: '-5d',
        text: `Hi ${c.actor.first},\n\n${hire.name} joins your ${team} team on ${day(old)}. Their account is ready.\n\n${hr.first}`,
      },
      {
        from: hr.id,
        to: [c.actor.id],
        subject: `Re: ${subject}`,
        thread: 'hr',
        at: '-1d',
        text:
          `Update: ${hire.first}'s start date has moved to ${day(start)}. Could you, before then:\n` +
          `- share the "${folder}" folder in Drive with ${hire.first} (view only),\n` +
          `- book a ${minutes}-minute welcome 1:1 on their first day at ${start.toFormat('HH:mm')} (your time) with ` +
          `${hire.first} and their onboarding buddy ${buddy.name},\n` +
          `- add ${hire.first} to #${channel} on Slack and post a short welcome there,\n` +
          `and reply to me when it's done.\n\nThanks,\n${hr.first}`,
      },
      {
        from: other.id,
        to: [c.actor.id],
        subject: `${otherTeam} onboarding checklist`,
        at: '-3d',
        text: `FYI the "Onboarding - ${otherTeam}" folder is updated for our next starter.`,
      },
    ]
    const files = [
      { key: 'f1', name: folder, mimeType: 'application/vnd.google-apps.folder', owner: c.actor.id },
      { name: `Week one plan - ${team}`, owner: c.actor.id, parent: 'f1', text: `Week one for ${team} starters.` },
      {
        key: 'f2',
        name: `Onboarding - ${otherTeam}`,
        mimeType: 'application/vnd.google-apps.folder',
        owner: c.actor.id,
      },
      {
        name: `Week one plan - ${otherTeam}`,
        owner: c.actor.id,
        parent: 'f2',
        text: `Week one for ${otherTeam} starters.`,
      },
      { name: `${folder} (2024 archive)`, mimeType: 'application/vnd.google-apps.folder', owner: c.actor.id },
    ]
    const members = c.people.filter((p) => p.id !== hire.id).map((p) => p.id)
    const slack = {
      channels: [
        { name: 'general', general: true },
        { name: channel, purpose: `${team} team`, members },
        { name: otherChannel, purpose: `${otherTeam} team`, members },
      ],
      messages: [
        { channel, user: buddy.id, text: `Heads up: we have a new ${team} starter soon, I'm their buddy.`, at: '-2d' },
        { channel: otherChannel, user: other.id, text: 'Retro notes are in the usual doc.', at: '-1d' },
      ],
    }
    const iso = (d: DateTime) => d.toISO({ suppressMilliseconds: true })
    // Look first: read the HR thread (the second mail supersedes the date), find the folder, the people on Slack (the
    // hire's and buddy's addresses), the channel; then act, and confirm to HR last.
    const read = [
      http(
        'GET',
        '/gmail/v1/users/me/messages',
        { query: { q: `subject:"${subject}"` } },
        { tid: 'messages.0.threadId' },
      ),
      http(
        'GET',
        '/gmail/v1/users/me/threads/{{tid}}',
        { query: { format: 'full' } },
        {
          hr: 'messages.0.payload.headers[name=from].value|email',
          msgid: 'messages.1.payload.headers[name=message-id].value',
        },
      ),
      http(
        'GET',
        '/api/users.list',
        {},
        {
          uid: `members[real_name=${hire.name}].id`,
          hire: `members[real_name=${hire.name}].profile.email`,
          buddy: `members[real_name=${buddy.name}].profile.email`,
        },
      ),
    ]
    const share = (name: string) => [
      http(
        'GET',
        '/drive/v3/files',
        { query: { q: `name = '${name}' and mimeType = 'application/vnd.google-apps.folder'` } },
        { fid: 'files.0.id' },
      ),
      http('POST', '/drive/v3/files/{{fid}}/permissions', {
        query: { sendNotificationEmail: 'false' },
        body: { type: 'user', role: 'reader', emailAddress: '{{hire}}' },
      }),
    ]
    const book = (at: DateTime, guests = ['{{hire}}', '{{buddy}}']) =>
      http('POST', '/calendar/v3/calendars/primary/events', {
        body: {
          summary: `Welcome 1:1 with ${hire.first}`,
          start: { dateTime: iso(at), timeZone: zone },
          end: { dateTime: iso(at.plus({ minutes })), timeZone: zone },
          attendees: guests.map((email) => ({ email })),
        },
      })
    const join = (ch: string) => [
      http('GET', '/api/conversations.list', {}, { ch: `channels[name=${ch}].id` }),
      http('POST', '/api/conversations.invite', { body: { channel: '{{ch}}', users: '{{uid}}' } }),
      http('POST', '/api/chat.postMessage', {
        body: { channel: '{{ch}}', text: `Please welcome <@{{uid}}> to the ${team} team! :wave:` },
      }),
    ]
    const confirm = http('POST', '/gmail/v1/users/me/messages/send', {
      body: {
        raw: {
          $rfc822: {
            from: c.actor.email,
            to: '{{hr}}',
            subject: `Re: ${subject}`,
            text: `Hi ${hr.first},\n\nAll set for ${hire.first}: folder shared, welcome 1:1 booked, added to #${channel}.\n\n${c.actor.first}`,
            inReplyTo: '{{msgid}}',
            references: '{{msgid}}',
          },
        },
        threadId: '{{tid}}',
      },
    })
    const program = (o: { folder?: string; at?: DateTime; ch?: string; guests?: string[] } = {}) => [
      ...read,
      ...share(o.folder ?? folder),
      book(o.at ?? start, o.guests),
      ...join(o.ch ?? channel),
      confirm,
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `onboarding-moved-start-${seed}`,
      family: 'onboarding-moved-start',
      services: ['gmail', 'drive', 'calendar', 'slack'],
      requires: ['calendar.events.insert'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `HR has emailed you about a new starter on your team. Do everything they ask for (Drive, Calendar and Slack), then reply to HR to confirm.`,
          () =>
            `Please take care of the onboarding steps HR sent you by email for your new team member, across Drive, Calendar and Slack, and let HR know by replying once it's all done.`,
          () =>
            `A new hire is joining your team and HR's email lists what you need to set up. Handle each item exactly as HR describes (mind any updates in the thread) and confirm to HR with a reply.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `onboarding-moved-start-${seed}`), gmail: { messages }, drive: { files }, slack },
      oracle: {
        id: 'onboarding-moved-start',
        params: {
          actor: c.actor.id,
          domain: c.domain,
          hire: hire.id,
          hireEmail: hire.email,
          hr: hr.email,
          buddy: buddy.email,
          folderName: folder,
          channel,
          subject,
          startUtc: start.toUTC().toISO()!,
          durationMin: minutes,
          hireFirst: hire.first,
          wrongFiles: [`Onboarding - ${otherTeam}`, `${folder} (2024 archive)`],
        },
      },
      reference: program(),
      nearMisses: [
        { name: 'books the superseded start date', program: program({ at: old }) },
        { name: "shares the other team's folder", program: program({ folder: `Onboarding - ${otherTeam}` }) },
        { name: "adds the hire to the other team's channel", program: program({ ch: otherChannel }) },
        { name: 'forgets the buddy', program: program({ guests: ['{{hire}}'] }) },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['gmail', 'drive', 'calendar', 'slack', 'long-horizon', 'near-duplicate'],
    }
  },
}
