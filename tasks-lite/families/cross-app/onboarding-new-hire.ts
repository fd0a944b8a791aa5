import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import { drive, driveList, slack } from '../dds/kit.ts'
import { gmailRead, gmailSearch } from '../answers/kit.ts'

const TEAMS = ['Platform', 'Growth', 'Billing', 'Mobile', 'Research', 'Support']
const HIRES = [
  'Noor Aziz',
  'Pavel Hruby',
  'Lena Vogt',
  'Tomas Ruiz',
  'Ada Mensah',
  'Kenji Mori',
  'Sofia Lima',
  'Ravi Menon',
]

/**
 * Long-horizon onboarding across Gmail, Drive, Calendar and Slack (11 calls): HR asks the actor, as buddy, to share the
 * team's onboarding folder with a new hire, book a welcome 1:1 on their first morning, add them to the team channel,
 * welcome them there, and confirm to HR. Last year's folder, a social channel and another hire's mail are
 * near-duplicates.
 */
export const onboardingNewHire: Family = {
  id: 'onboarding-new-hire',
  services: ['gmail', 'drive', 'calendar', 'slack'],
  multiApp: true,
  antiGaming:
    "Judged by the onboarding oracle, every artifact: exactly one grant (the hire, reader, current folder; writer, last year's folder or anyone-with-link fail, outside the domain -1); exactly one new event at the asked local time and length with the hire invited; the hire added to the team channel only; exactly one welcome post there; exactly one mail, to HR in their thread; other changes are collateral.",
  scenario:
    "HR's mail names the new hire (address, first day) and the four steps; another HR mail is about a different hire in another team; Drive has the team's onboarding folder and last year's; Slack has the team channel and a social channel without the hire. The reference reads the mail, the actor's time zone, shares, books, invites, posts and replies (11 calls).",
  generate(seed) {
    const r = rng(seed * 1913 + 7)
    const c = company(r, 3)
    const [team, otherTeam] = r.sample(TEAMS, 2)
    const [hireName, otherHire] = r.sample(HIRES, 2)
    const hr = c.colleagues[0]!
    const mate = c.colleagues[1]!
    const hireId = hireName!.split(' ')[0]!.toLowerCase()
    const hire = { id: hireId, email: `${hireId}@${c.domain}`, name: hireName!, first: hireName!.split(' ')[0]! }
    const actorZone = c.users[0]!.timeZone
    const monday = DateTime.fromISO('2026-03-09', { zone: actorZone }).plus({ weeks: r.int(0, 2) })
    const hour = r.pick(['09:30', '10:00', '11:00'])
    const start = DateTime.fromISO(`${monday.toISODate()}T${hour}`, { zone: actorZone })
    const dayText = monday.setLocale('en-GB').toFormat('cccc d LLLL')
    const channel = team!.toLowerCase()
    const folder = `${team} onboarding`
    const hrSubject = `Onboarding: ${hire.name}`
    const users = [
      ...c.users,
      { id: hire.id, email: hire.email, name: hire.name, timeZone: actorZone, title: 'Engineer' },
    ]
    const messages = [
      {
        from: hr.id,
        to: [c.actor.id],
        subject: hrSubject,
        text: `Hi ${c.actor.first},\n\n${hire.name} (${hire.email}) joins the ${team} team on ${dayText}, and you're their buddy. Could you:\n1. share the "${folder}" folder with them (view only),\n2. book a 30-minute welcome 1:1 with them at ${hour} your time that morning,\n3. add them to #${channel} on Slack and post a short welcome there,\nand then reply to let me know it's done?\n\nThanks!\n${hr.first}`,
        at: '-1d',
        thread: 'hr',
      },
      {
        from: hr.id,
        to: [c.actor.id],
        subject: `Onboarding: ${otherHire}`,
        text: `FYI ${otherHire} joins ${otherTeam} a week later; ${c.colleagues[2]!.first} is their buddy, nothing needed from you.`,
        at: '-2d',
      },
    ]
    const files = [
      { key: 'cur', name: folder, mimeType: 'application/vnd.google-apps.folder', owner: c.actor.id },
      {
        name: `Welcome to ${team}.pdf`,
        mimeType: 'application/pdf',
        owner: c.actor.id,
        parent: 'cur',
        text: 'Our team, our rituals, who to ask.',
      },
      { key: 'old', name: `${folder} (2024)`, mimeType: 'application/vnd.google-apps.folder', owner: c.actor.id },
    ]
    const staff = c.users.map((u) => u.id)
    const weekly = (id: string, summary: string, s: DateTime) => ({
      calendar: c.actor.id,
      id,
      summary,
      recurrence: ['RRULE:FREQ=WEEKLY'],
      start: { dateTime: s.toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: actorZone },
      end: { dateTime: s.plus({ minutes: 30 }).toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: actorZone },
      attendees: [{ user: mate.id, responseStatus: 'accepted' as const }],
    })
    const events = [
      weekly(
        `st${seed}a${r.int(1000, 9999)}`,
        `${team} standup`,
        monday.minus({ weeks: 2 }).set({ hour: 9, minute: 0 }),
      ),
      weekly(
        `oo${seed}b${r.int(1000, 9999)}`,
        `${mate.first} / ${c.actor.first} 1:1`,
        monday.minus({ weeks: 2 }).plus({ days: 2 }).set({ hour: 15, minute: 0 }),
      ),
    ]
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: channel, members: staff, topic: `${team} team` },
        { name: `${channel}-social`, members: staff },
      ],
      messages: [{ channel, user: mate.id, text: 'Retro notes are in the usual doc.', at: '-2d' }],
    }
    const look = [
      gmailSearch(`"${hire.name}" subject:onboarding`, { mid: 'messages.0.id', tid: 'messages.0.threadId' }),
      gmailRead('{{mid}}', {
        msgid: 'payload.headers[name=message-id].value',
        hr: 'payload.headers[name=from].value|email',
        subj: 'payload.headers[name=subject].value',
      }),
      httpStep('GET', '/calendar/v3/calendars/primary', {}, { zone: 'timeZone' }),
      driveList(`name contains '${folder}' and mimeType = 'application/vnd.google-apps.folder'`, {
        fid: `files[name=${folder}].id`,
        old: `files[name=${folder} (2024)].id`,
      }),
    ]
    const share = (fid = '{{fid}}', role = 'reader') =>
      drive('POST', `files/${fid}/permissions`, { body: { type: 'user', role, emailAddress: hire.email } })
    const local = start.toFormat("yyyy-MM-dd'T'HH:mm:ss")
    const book = (minutes = 30) =>
      httpStep('POST', '/calendar/v3/calendars/primary/events', {
        query: { sendUpdates: 'all' },
        body: {
          summary: `Welcome 1:1: ${hire.first} and ${c.actor.first}`,
          start: { dateTime: local, timeZone: '{{zone}}' },
          end: { dateTime: start.plus({ minutes }).toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: '{{zone}}' },
          attendees: [{ email: hire.email }],
        },
      })
    const invite = (name = channel) => [
      slack('users.lookupByEmail', { email: hire.email }, { uid: 'user.id' }, true),
      slack('conversations.list', {}, { ch: `channels[name=${name}].id` }, true),
      slack('conversations.invite', { channel: '{{ch}}', users: '{{uid}}' }),
    ]
    const welcome = slack('chat.postMessage', {
      channel: '{{ch}}',
      text: `Please welcome <@{{uid}}> to the ${team} team! They start on ${dayText}.`,
    })
    const reply = httpStep('POST', '/gmail/v1/users/me/messages/send', {
      body: {
        raw: {
          $rfc822: {
            from: c.actor.email,
            to: '{{hr}}',
            subject: 'Re: {{subj}}',
            text: `Hi ${hr.first},\n\nAll done: folder shared, 1:1 booked, ${hire.first} added to #${channel} and welcomed.\n\n${c.actor.first}`,
            inReplyTo: '{{msgid}}',
            references: '{{msgid}}',
          },
        },
        threadId: '{{tid}}',
      },
    })
    const program = (
      o: { fid?: string; role?: string; minutes?: number; channel?: string; skipReply?: boolean } = {},
    ) => [
      ...look,
      share(o.fid, o.role),
      book(o.minutes),
      ...invite(o.channel),
      welcome,
      ...(o.skipReply ? [] : [reply]),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `onboarding-new-hire-${seed}`,
      family: 'onboarding-new-hire',
      services: ['gmail', 'drive', 'calendar', 'slack'],
      instruction: persona(
        rng(seed * 1913 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 1913 + 101), [
          () =>
            `HR emailed me about onboarding ${hire.first}. Please do everything they asked and confirm back to them.`,
          () =>
            `I'm ${hire.name}'s onboarding buddy. Work through ${hr.first}'s checklist email (Drive, Calendar, Slack) and reply when it's all done.`,
          () =>
            `Take care of the onboarding request for our new hire ${hire.first}: the steps are in ${hr.first}'s email. Let ${hr.first} know once finished.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `onboarding-new-hire-${seed}`),
        users,
        gmail: { messages },
        drive: { files },
        calendar: { events },
        slack: slackSeed,
      },
      oracle: {
        id: 'onboarding',
        params: {
          actor: c.actor.id,
          domain: c.domain,
          hire: hire.email,
          hireUser: hire.id,
          hr: hr.email,
          hrSubject,
          folder,
          channel,
          startUtc: start.toUTC().toISO({ suppressMilliseconds: true })!,
          durationMin: 30,
        },
      },
      reference: program(),
      nearMisses: [
        { name: "last year's folder", program: program({ fid: '{{old}}' }) },
        { name: 'the social channel', program: program({ channel: `${channel}-social` }) },
        { name: 'an hour instead of 30 minutes', program: program({ minutes: 60 }) },
        { name: 'editor on the folder', program: program({ role: 'writer' }) },
        { name: 'forgets to confirm to HR', program: program({ skipReply: true }) },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['gmail', 'drive', 'calendar', 'slack', 'long-horizon', 'near-duplicate'],
    }
  },
}
