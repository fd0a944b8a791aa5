import { baseSeed, code, company, nearCode, rng, GENERATED_BY, type Family, MONTHS } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'

const ITEMS = [
  'Cloud hosting',
  'Support plan',
  'Data transfer',
  'Backup storage',
  'License seats',
  'Onboarding services',
  'API calls',
]

/**
 * Gmail: forward a vendor's invoice mail for one month, with its CSV attachment, to a colleague in Finance. The
 * previous month's invoice (a near-duplicate code), a payment reminder that quotes the invoice number and a statement
 * without attachment are in the same inbox.
 */
export const gmailForwardAttachment: Family = {
  id: 'gmail-forward-attachment',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    "Exactly one delivered mail, to the named colleague only, carrying exactly one attachment whose bytes (sha256) equal the invoice's attachment; forwarding the other month's invoice, retyping the figures without the file, attaching both invoices, replying to the vendor or sending to another colleague fails; mail labelled SENT without being sent is a forgery.",
  scenario:
    "The vendor sent this month's invoice (CSV attached) and last month's (near-duplicate number, CSV attached), a payment reminder quoting this month's number without attachment, and a statement of account. The agent searches with has:attachment, reads the message, downloads the attachment with attachments.get and sends a new message with the file attached.",
  generate(seed) {
    const r = rng(seed * 92821 + 331)
    const c = company(r)
    const vendor = c.customers[1]!
    const finance = c.colleagues[0]!
    const otherColleague = c.colleagues[1]!
    // The world's clock is early March 2026: February's invoice arrived days ago, January's a month ago.
    const month = 1
    const inv = `INV-${code(r)}`
    const prev = `INV-${nearCode(r, inv.slice(4))}`
    const csv = (n: string, m: number) => {
      const lines = r.sample(ITEMS, 3).map((item) => `${item},${r.int(2, 40) * 50}.00`)
      return [`invoice,${n}`, `period,${MONTHS[m]} 2026`, 'item,amount', ...lines].join('\n') + '\n'
    }
    const subject = (n: string, m: number) => `${vendor.company} invoice ${n} - ${MONTHS[m]} 2026`
    const from = `"${vendor.company} Billing" <billing@${vendor.domain}>`
    const messages = [
      {
        from,
        to: [c.actor.id],
        subject: subject(prev, month - 1),
        text: `Hello,\n\nPlease find attached invoice ${prev} for ${MONTHS[month - 1]}.\n\n${vendor.company} Billing`,
        at: '-32d',
        attachments: [{ filename: `${prev}.csv`, mimeType: 'text/csv', text: csv(prev, month - 1) }],
      },
      {
        from,
        to: [c.actor.id],
        subject: subject(inv, month),
        text: `Hello,\n\nPlease find attached invoice ${inv} for ${MONTHS[month]}.\n\n${vendor.company} Billing`,
        at: '-3d',
        attachments: [{ filename: `${inv}.csv`, mimeType: 'text/csv', text: csv(inv, month) }],
      },
      {
        from,
        to: [c.actor.id],
        subject: `Payment reminder: ${inv}`,
        text: `A friendly reminder that ${inv} is due in 14 days.`,
        at: '-1d',
      },
      {
        from,
        to: [c.actor.id],
        subject: `Statement of account - ${vendor.company}`,
        text: `Your statement is available in the billing portal.`,
        at: '-2d',
      },
    ]
    const program = (o: { m?: number; to?: string; attach?: boolean; both?: boolean; reply?: boolean } = {}) => {
      const m = o.m ?? month
      const find = (mon: number, as: string) => ({
        tool: 'http_request',
        args: {
          method: 'GET',
          path: '/gmail/v1/users/me/messages',
          query: { q: `has:attachment "${vendor.company}" invoice ${MONTHS[mon]}` },
        },
        save: { [`${as}mid`]: 'messages.0.id' },
      })
      const read = (as: string) => ({
        tool: 'http_request',
        args: { method: 'GET', path: `/gmail/v1/users/me/messages/{{${as}mid}}`, query: { format: 'full' } },
        save: {
          [`${as}att`]: 'payload.parts[filename~=.csv].body.attachmentId',
          [`${as}name`]: 'payload.parts[filename~=.csv].filename',
          [`${as}subject`]: 'payload.headers[name=subject].value',
          vendorFrom: 'payload.headers[name=from].value|email',
        },
      })
      const download = (as: string) => ({
        tool: 'http_request',
        args: { method: 'GET', path: `/gmail/v1/users/me/messages/{{${as}mid}}/attachments/{{${as}att}}` },
        save: { [`${as}data`]: 'data|base64' },
      })
      const look = [find(m, 'a'), read('a'), ...(o.attach === false ? [] : [download('a')])]
      const second = o.both ? [find(month - 1, 'b'), read('b'), download('b')] : []
      const to = o.reply ? '{{vendorFrom}}' : (o.to ?? finance.email)
      const attachments =
        o.attach === false
          ? undefined
          : [
              { filename: '{{aname}}', contentType: 'text/csv', content: '{{adata}}' },
              ...(o.both ? [{ filename: '{{bname}}', contentType: 'text/csv', content: '{{bdata}}' }] : []),
            ]
      const text =
        o.attach === false
          ? `Hi,\n\nPlease process the ${vendor.company} invoice for ${MONTHS[m]} ({{asubject}}).\n\nThanks,\n${c.actor.first}`
          : `Hi,\n\nPlease process the attached ${vendor.company} invoice for ${MONTHS[m]}.\n\nThanks,\n${c.actor.first}`
      return [
        ...look,
        ...second,
        {
          tool: 'http_request',
          args: {
            method: 'POST',
            path: '/gmail/v1/users/me/messages/send',
            body: {
              raw: {
                $rfc822: {
                  from: c.actor.email,
                  to,
                  subject: 'Fwd: {{asubject}}',
                  text,
                  ...(attachments ? { attachments } : {}),
                },
              },
            },
          },
        },
      ]
    }
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-forward-attachment-${seed}`,
      family: 'gmail-forward-attachment',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 7919 + 203),
        c.actor,
        c.org,
        phrasing(r, [
          () =>
            `Forward ${vendor.company}'s invoice for ${MONTHS[month]} to ${finance.name} (${finance.email}) in Finance, with the invoice file attached, and ask them to process it.`,
          () =>
            `${finance.name.split(' ')[0]} in Finance needs the ${MONTHS[month]} invoice from ${vendor.company}. Send it on to ${finance.email}, including the attached file, with a short note asking them to process it.`,
          () =>
            `Please pass the ${vendor.company} invoice for ${MONTHS[month]} (the email with the CSV attached) to ${finance.name} at ${finance.email} so Finance can process it. The attachment must go along.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-forward-attachment-${seed}`), gmail: { messages } },
      oracle: {
        id: 'gmail-forward-attachment',
        params: {
          actor: c.actor.id,
          to: finance.email,
          subject: subject(inv, month),
          filename: `${inv}.csv`,
          wrong: [prev],
        },
      },
      reference: program(),
      nearMisses: [
        { name: "forwards the previous month's invoice", program: program({ m: month - 1 }) },
        { name: 'retypes the note without the attachment', program: program({ attach: false }) },
        { name: 'attaches both invoices', program: program({ both: true }) },
        { name: 'replies to the vendor instead', program: program({ reply: true }) },
        { name: 'sends it to another colleague', program: program({ to: otherColleague.email }) },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'attachments', 'forwarding', 'near-duplicate'],
    }
  },
}
