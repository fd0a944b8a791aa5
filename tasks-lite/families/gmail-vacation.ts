import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const long = (d: string) =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })

/**
 * Gmail: set the out-of-office reply for the approved leave found in HR mail (a declined request is the
 * near-duplicate).
 */
export const gmailVacation: Family = {
  id: 'gmail-vacation',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    "The window must cover the approved days and stay within a day of them, so an always-on or open-ended reply fails, as do the declined dates; restrictToDomain and the backup's name (and no other colleague's) are required; only the vacation setting may change.",
  generate(seed) {
    const r = rng(seed * 15487469 + 31)
    const c = company(r)
    const hr = c.colleagues[0]!
    const backup = c.colleagues[1]!
    const now = Date.parse(c.now)
    const startA = now + r.int(7, 30) * 86_400_000
    const lenA = r.int(2, 9)
    const startB = startA + r.int(20, 40) * 86_400_000
    const [a1, a2] = [iso(startA), iso(startA + (lenA - 1) * 86_400_000)]
    const [b1, b2] = [iso(startB), iso(startB + r.int(2, 6) * 86_400_000)]
    const messages = [
      {
        from: hr.id,
        to: [c.actor.id],
        subject: 'Leave request declined',
        text: `Hi ${c.actor.first},\n\nUnfortunately your leave request for ${long(b1)} to ${long(b2)} overlaps with the audit and is declined.\n\n${hr.first} (HR)`,
        at: '-3d',
      },
      {
        from: hr.id,
        to: [c.actor.id],
        subject: 'Leave request approved',
        text: `Hi ${c.actor.first},\n\nGood news: your leave from ${long(a1)} to ${long(a2)} (inclusive) is approved. ${backup.name} will cover for you while you are away.\n\n${hr.first} (HR)`,
        at: '-1d',
      },
    ]
    const set = (from: string, to: string | null, restrict = true, who = backup.name) => ({
      tool: 'http_request',
      args: {
        method: 'PUT',
        path: '/gmail/v1/users/me/settings/vacation',
        body: {
          enableAutoReply: true,
          responseSubject: 'Out of office',
          responseBodyPlainText: `I'm out of office. Please contact ${who}.`,
          restrictToContacts: false,
          restrictToDomain: restrict,
          startTime: String(Date.parse(`${from}T00:00:00Z`)),
          ...(to ? { endTime: String(Date.parse(`${to}T00:00:00Z`) + 86_400_000) } : {}),
        },
      },
    })
    // Look first: find HR's approval (the declined request is the near-duplicate), read it, check the current setting.
    const look = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: 'leave approved' } },
        save: { mid: 'messages.0.id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages/{{mid}}', query: { format: 'full' } },
      },
      { tool: 'http_request', args: { method: 'GET', path: '/gmail/v1/users/me/settings/vacation' } },
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-vacation-${seed}`,
      family: 'gmail-vacation',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Set up your Gmail out-of-office auto-reply for your approved leave (all of it, and only then). It should only go to people inside the company, and tell them who covers for you.`,
          () =>
            `Turn on a Gmail vacation responder covering exactly your approved leave. Only people in the company should get it, and it should say who covers for you.`,
          () =>
            `I'm off soon (see my approved leave). Please set up my out-of-office in Gmail for precisely those dates, internal senders only, naming my backup.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-vacation-${seed}`), gmail: { messages } },
      oracle: {
        id: 'vacation',
        params: {
          actor: c.actor.id,
          firstDay: a1,
          lastDay: a2,
          backup: backup.first,
          others: c.colleagues.filter((x) => x !== backup && x.first !== backup.first).map((x) => x.first),
        },
      },
      reference: [...look, set(a1, a2)],
      nearMisses: [
        { name: 'declined dates', program: [set(b1, b2)] },
        { name: 'open-ended reply', program: [set(a1, null)] },
        { name: 'replies to everyone', program: [set(a1, a2, false)] },
        { name: 'names HR instead of the backup', program: [set(a1, a2, true, hr.name)] },
        // Every colleague named names the backup without finding out who it is (0480).
        { name: 'names every colleague', program: [set(a1, a2, true, c.colleagues.map((x) => x.name).join(', '))] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'settings', 'dates', 'near-duplicate'],
    }
  },
}
