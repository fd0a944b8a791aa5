import { DateTime } from 'luxon'
import { baseSeed, code, company, nearCode, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import { gmailRead, gmailSearch } from '../answers/kit.ts'

/**
 * Gmail: prepare a reply as a draft for the manager to review (never send it). A customer asks when their order
 * ships; operations' mail lists the dates of two orders with near-identical numbers, and an earlier estimate in the
 * customer's thread is stale.
 */
export const gmailDraftReply: Family = {
  id: 'gmail-draft-reply',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    "Judged by the gmail-draft-reply oracle: exactly one new draft, in the customer's thread and addressed to them, carrying the current ship date (not a span of days) and neither the other order's date, number or company nor the stale estimate; sending anything fails (sent mail is collateral), as does any other change.",
  scenario:
    "The customer's thread holds their question and, earlier, the actor's stale estimate; operations mailed the ship dates of this order and of another customer's order with a near-identical number. The reference reads the customer's mail (thread, Message-ID, address), finds operations' mail by order number and creates a draft in the thread.",
  generate(seed) {
    const r = rng(seed * 9173 + 13)
    const c = company(r, 3)
    const cust = c.customers[0]!
    const other = c.customers[1]!
    const ops = c.colleagues[0]!
    const order = code(r)
    const otherOrder = nearCode(r, order)
    const base = DateTime.fromISO('2026-03-09', { zone: 'UTC' }).plus({ days: r.int(0, 10) })
    const fmt = (t: DateTime) => t.setLocale('en-GB').toFormat('d LLLL')
    const [ship, otherShip, stale] = [base, base.plus({ days: r.int(2, 5) }), base.minus({ days: r.int(3, 6) })]
    const subject = `Order #${order} shipping date`
    const messages = [
      {
        from: c.actor.id,
        to: [cust.contact.email],
        subject,
        text: `Hi ${cust.contact.first},\n\nOur first estimate for order #${order} is ${fmt(stale)}; I'll confirm once operations has a date.\n\n${c.actor.first}`,
        at: '-6d',
        thread: 'cust',
      },
      {
        from: `"${cust.contact.name}" <${cust.contact.email}>`,
        to: [c.actor.id],
        subject: `Re: ${subject}`,
        text: `Hi ${c.actor.first},\n\nAny update on when order #${order} ships? We need to plan the receiving dock.\n\n${cust.contact.first}`,
        at: '-1d',
        thread: 'cust',
      },
      {
        from: ops.id,
        to: [c.actor.id],
        subject: 'Confirmed ship dates',
        text: `Hi ${c.actor.first},\n\nConfirmed ship dates:\n- order #${otherOrder} (${other.company}): ${fmt(otherShip)}\n- order #${order} (${cust.company}): ${fmt(ship)}\n\n${ops.first}`,
        at: '-5h',
      },
      {
        from: c.colleagues[1]!.id,
        to: [c.actor.id],
        subject: 'Draft replies',
        text: `Reminder: replies to customers about dates go out as drafts for me to check first.`,
        at: '-9d',
      },
    ]
    const look = [
      gmailSearch(`from:"${cust.contact.name}"`, { mid: 'messages.0.id', tid: 'messages.0.threadId' }),
      gmailRead('{{mid}}', {
        msgid: 'payload.headers[name=message-id].value',
        customer: 'payload.headers[name=from].value|email',
        subj: 'payload.headers[name=subject].value',
      }),
      gmailSearch(`#${order} ship -from:{{customer}} -in:sent`, { ops: 'messages.0.id' }),
      gmailRead('{{ops}}'),
    ]
    const mail = (text: string) => ({
      raw: {
        $rfc822: {
          from: c.actor.email,
          to: '{{customer}}',
          subject: 'Re: {{subj}}',
          text,
          inReplyTo: '{{msgid}}',
          references: '{{msgid}}',
        },
      },
      threadId: '{{tid}}',
    })
    const draft = (text: string) => httpStep('POST', '/gmail/v1/users/me/drafts', { body: { message: mail(text) } })
    const send = (text: string) => httpStep('POST', '/gmail/v1/users/me/messages/send', { body: mail(text) })
    const good = `Hi ${cust.contact.first},\n\nOrder #${order} is confirmed to ship on ${fmt(ship)}.\n\nBest,\n${c.actor.first}`
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-draft-reply-${seed}`,
      family: 'gmail-draft-reply',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 9173 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 9173 + 101), [
          () =>
            `${cust.contact.name} wants to know when their order ships. Prepare a reply in their thread with the confirmed date, but leave it as a draft - don't send it.`,
          () =>
            `Draft (do not send) an answer to ${cust.contact.first} from ${cust.company} in the same thread, with the ship date operations confirmed.`,
          () =>
            `Please write the reply to ${cust.contact.name}'s shipping question as a draft in their thread so I can review it first. Use the date from operations.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-draft-reply-${seed}`), gmail: { messages } },
      oracle: {
        id: 'gmail-draft-reply',
        params: {
          actor: c.actor.id,
          customer: cust.contact.email,
          subject: `Re: ${subject}`,
          answer: fmt(ship),
          wrong: [fmt(otherShip), fmt(stale)],
          // Another customer's business: the draft names neither (0463).
          others: [`#${otherOrder}`, other.company],
        },
      },
      reference: [...look, draft(good)],
      nearMisses: [
        { name: 'sends instead of drafting', program: [...look, send(good)] },
        {
          name: "names the other customer's order",
          program: [...look, draft(`${good}\n\nOrder #${otherOrder} for ${other.company} is on track too.`)],
        },
        {
          name: "the other order's date",
          program: [...look, draft(`Hi, order #${order} ships on ${fmt(otherShip)}.`)],
        },
        {
          name: 'repeats the stale estimate',
          program: [...look, draft(`Hi, as estimated it ships ${fmt(stale)}; confirmed for ${fmt(ship)}.`)],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'drafts', 'threads', 'near-duplicate'],
    }
  },
}
