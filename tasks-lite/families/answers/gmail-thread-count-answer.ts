import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { doneStep, gmailSearch } from './kit.ts'
import { httpStep } from '../../../gym/program.ts'

const EVENTS = ['team dinner', 'summer party', 'offsite dinner', 'farewell drinks', 'book launch lunch']
const YES = ['Count me in!', "I'll be there.", 'Yes please, see you there.', 'In! Thanks for organising.']
const NO = ["Sorry, can't make it that evening.", "I'm travelling then, so no.", 'Have to skip this one.']
const MAYBE = ['Maybe - I will know by Friday.', 'Tentatively yes, depends on a deadline.']

/**
 * Gmail answer task: how many people have confirmed in an RSVP thread. Replies say yes, no or maybe; one person
 * says yes and later withdraws, one says maybe and later confirms. Last year's thread for the same event is a
 * near-duplicate.
 */
export const gmailThreadCountAnswer: Family = {
  id: 'gmail-thread-count-answer',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    "Judged by the final-answer oracle: the answer must state the number of people whose latest reply is a yes and none of the near-duplicates (every reply counted, yes-replies counted without the withdrawal, last year's count); sending mail or any other change is collateral.",
  scenario:
    "One thread collects replies to the organiser's invitation: yeses, noes and maybes; one yes is withdrawn later, one maybe becomes a yes. Last year's thread for the same event has its own yeses. The reference reads the current thread (threads.get) and counts each person's latest answer.",
  generate(seed) {
    const r = rng(seed * 2311 + 5)
    const c = company(r, 6)
    const event = r.pick(EVENTS)
    const people = r.shuffle(c.colleagues)
    const subject = `RSVP: ${event}`
    const nYes = r.int(2, 3)
    const yes = people.slice(0, nYes)
    const no = people.slice(nYes, nYes + 1)
    const withdrawn = people[nYes + 1]!
    const maybeThenYes = people[nYes + 2]!
    const messages: Record<string, unknown>[] = [
      {
        from: c.actor.id,
        to: c.colleagues.map((p) => p.id),
        subject,
        text: `Hi all,\n\nPlease reply to this thread if you're coming to the ${event}.\n\n${c.actor.first}`,
        at: '-5d',
        thread: 'rsvp',
      },
    ]
    const reply = (who: { id: string }, text: string, at: string) =>
      messages.push({ from: who.id, to: [c.actor.id], subject: `Re: ${subject}`, text, at, thread: 'rsvp' })
    yes.forEach((p, i) => reply(p, r.pick(YES), `-${4 * 24 - i * 3}h`))
    no.forEach((p) => reply(p, r.pick(NO), '-80h'))
    reply(withdrawn, r.pick(YES), '-78h')
    reply(maybeThenYes, r.pick(MAYBE), '-70h')
    reply(withdrawn, 'Update: something came up, so please take me off the list. Sorry!', '-20h')
    reply(maybeThenYes, 'Good news, I can come after all - count me in.', '-10h')
    const lastYear = r.int(5, 9)
    messages.push({
      from: c.colleagues[0]!.id,
      to: [c.actor.id],
      subject: `Fwd: ${subject} (last year)`,
      text: `For reference, last year's ${event} had ${lastYear} people confirmed.`,
      at: '-6d',
    })
    const count = nYes + 1
    const replies = nYes + 1 + 1 + 1 + 2
    const wrong = [...new Set([replies, count + 1, lastYear, nYes])]
      .filter((n) => n !== count)
      .map((value) => ({ kind: 'number' as const, value }))
    const look = [
      gmailSearch(`subject:"${subject}" -"last year"`, { tid: 'messages.0.threadId' }),
      httpStep('GET', '/gmail/v1/users/me/threads/{{tid}}', { query: { format: 'full' } }),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-thread-count-answer-${seed}`,
      family: 'gmail-thread-count-answer',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 2311 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 2311 + 101), [
          () =>
            `How many people have confirmed they're coming to the ${event}? Count from the replies to my RSVP email.`,
          () =>
            `I need a headcount for the ${event}: how many colleagues said yes in the RSVP thread (taking any changes of mind into account)?`,
          () => `Check the replies to my ${event} RSVP mail and tell me how many are coming.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-thread-count-answer-${seed}`), gmail: { messages } },
      oracle: { id: 'final-answer', params: { actor: c.actor.id, expected: { kind: 'number', value: count }, wrong } },
      reference: [...look, doneStep(`${count} people have confirmed.`)],
      nearMisses: [
        { name: 'counts the withdrawn yes', program: [...look, doneStep(`${count + 1}`)] },
        { name: 'counts every reply', program: [...look, doneStep(`${replies} replies, so ${replies}.`)] },
        { name: 'only the first yeses', program: [...look, doneStep(`${nYes}`)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'answer', 'threads', 'counting'],
    }
  },
}
