import { baseSeed, code, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { amount, dollars, doneStep, gmailRead, gmailSearch, monthName } from './kit.ts'

const VENDORS = ['Quillmark', 'Tessera', 'Vantor', 'Pallas', 'Greywater', 'Juniper', 'Marlow', 'Ostrava']
const WHAT = [
  'Cloud hosting',
  'Office catering',
  'Courier services',
  'Legal retainer',
  'Print supplies',
  'Fleet leasing',
]

/**
 * Gmail answer task: what a vendor invoiced for one month, found by searching a busy mailbox. Half the seeds have a
 * corrected invoice that replaces the first one (the answer is the corrected amount); every seed has the same
 * vendor's other months and another vendor's invoice for the same month as near-duplicates.
 */
export const gmailSearchAnswer: Family = {
  id: 'gmail-search-answer',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    'Judged by the final-answer oracle: the final answer must state the current amount for that vendor and month (as a value: "$4,812.50", "4812.5 USD" both count) and none of the near-duplicates (the replaced amount, the other months, the other vendor, the budget figure); listing candidates fails; any change to the mailbox except marking mail read is collateral.',
  scenario:
    "A vendor mails an invoice each month (three months in the mailbox, newest last), another vendor invoices the same month, and finance mentions a yearly budget figure. In half the seeds the asked month's invoice is replaced by a corrected one. The reference searches the vendor's mail for that month, reads the newest two results and answers with the amount.",
  generate(seed) {
    const r = rng(seed * 6271 + 17)
    const c = company(r)
    const [vendor, other] = r.sample(VENDORS, 2)
    const what = r.pick(WHAT)
    const month = r.int(1, 2) // the world's clock is early March 2026: January or February
    const months = [month - 1, month, month + 1].filter((m) => m >= 1 && m <= 2).concat(month === 1 ? [12] : [])
    const vdomain = `${vendor!.toLowerCase()}-billing.test`
    const odomain = `${other!.toLowerCase()}-billing.test`
    const corrected = seed % 2 === 0
    const amounts = new Map(months.map((m) => [m, amount(r, 1200, 18000)]))
    const first = amounts.get(month)!
    const fixed = corrected ? amount(r, 1200, 18000) : first
    const otherAmount = amount(r, 1200, 18000)
    const budget = r.int(60, 180) * 1000
    const year = (m: number) => (m === 12 ? 2025 : 2026)
    const inv = (m: number) => `INV-${code(r)}-${String(m).padStart(2, '0')}`
    const numbers = new Map(months.map((m) => [m, inv(m)]))
    const dayOf = (m: number) => (m === 12 ? '-70d' : m === 1 ? '-40d' : '-12d')
    const bill = (m: number, text: string, subject: string, at: string, from = vdomain, name = vendor) => ({
      from: `"${name} Billing" <accounts@${from}>`,
      to: [c.actor.id],
      subject,
      text,
      at,
    })
    const messages = [
      ...months.map((m) =>
        bill(
          m,
          `Hello,\n\nPlease find invoice ${numbers.get(m)} for ${what.toLowerCase()} in ${monthName(m)} ${year(m)}.\nAmount due: ${dollars(amounts.get(m)!)}\nPayment terms: net 30.\n\n${vendor} Billing`,
          `Invoice ${numbers.get(m)} - ${monthName(m)} ${year(m)}`,
          dayOf(m),
        ),
      ),
      bill(
        month,
        `Hello,\n\nInvoice ${inv(month)} for ${monthName(month)} ${year(month)} is attached.\nAmount due: ${dollars(otherAmount)}\n\n${other} Billing`,
        `Invoice for ${monthName(month)} ${year(month)}`,
        '-10d',
        odomain,
        other,
      ),
      {
        from: c.colleagues[0]!.id,
        to: [c.actor.id],
        subject: `${vendor} spend this year`,
        text: `Hi ${c.actor.first},\n\nFor planning: our ${vendor} budget for the year is ${dollars(budget)}. Keep an eye on the monthly invoices.\n\n${c.colleagues[0]!.first}`,
        at: '-20d',
      },
    ]
    if (corrected)
      messages.push(
        bill(
          month,
          `Hello,\n\nThis corrected invoice replaces ${numbers.get(month)} for ${monthName(month)} ${year(month)} (a billing error on our side).\nAmount due: ${dollars(fixed)}\nApologies for the confusion.\n\n${vendor} Billing`,
          `Corrected invoice - ${monthName(month)} ${year(month)}`,
          '-4d',
        ),
      )
    else
      messages.push(
        bill(
          month,
          `Hello,\n\nA friendly reminder that invoice ${numbers.get(month)} for ${monthName(month)} ${year(month)} is still open.\nAmount due: ${dollars(first)}\n\n${vendor} Billing`,
          `Payment reminder - ${monthName(month)} ${year(month)}`,
          '-4d',
        ),
      )
    const period = `${monthName(month)} ${year(month)}`
    const wrong = [
      ...months.filter((m) => m !== month).map((m) => amounts.get(m)!),
      otherAmount,
      budget,
      ...(corrected ? [first] : []),
    ].map((value) => ({ kind: 'number' as const, value }))
    const look = [
      gmailSearch(`${vendor} "${period}"`, { newest: 'messages.0.id', before: 'messages.1.id' }),
      gmailRead('{{newest}}'),
      gmailRead('{{before}}'),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-search-answer-${seed}`,
      family: 'gmail-search-answer',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 6271 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 6271 + 101), [
          () => `How much do we owe ${vendor} for ${period}? Check my mail and tell me the amount.`,
          () =>
            `Quick question before the payment run: what is ${vendor}'s invoice amount for ${period}? It's somewhere in my inbox.`,
          () =>
            `Finance wants the ${period} figure from ${vendor}. Find their invoice for that month in my email and give me the amount due.`,
          () => `For ${period}, what did ${vendor} bill us? Answer with the amount we have to pay.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-search-answer-${seed}`), gmail: { messages } },
      oracle: { id: 'final-answer', params: { actor: c.actor.id, expected: { kind: 'number', value: fixed }, wrong } },
      reference: [...look, doneStep(`${vendor}'s ${period} invoice: ${dollars(fixed)} due.`)],
      nearMisses: [
        {
          name: corrected ? 'the replaced amount' : 'the previous month',
          program: [...look, doneStep(`${dollars(corrected ? first : wrong[0]!.value)}`)],
        },
        {
          name: 'the other vendor for the same month',
          program: [...look, doneStep(`The ${period} invoice is ${dollars(otherAmount)}.`)],
        },
        { name: 'the yearly budget', program: [...look, doneStep(`${dollars(budget)}`)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'answer', 'search', 'near-duplicate'],
    }
  },
}
