import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const TOPICS = [
  'Renewal quote',
  'Delivery schedule',
  'Support ticket update',
  'Contract amendment',
  'Usage report',
  'Kick-off agenda',
  'Invoice reminder',
]

/** Gmail: file every mail from one company under a new label; a lookalike domain sends phishing. */
export const gmailLabelSender: Family = {
  id: 'gmail-label-sender',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    'Precision and recall: labelling everything, labelling by company name (which catches the lookalike-domain phishing mail) or labelling a sample fails; only the asked label may be created (junk labels are collateral) and messages may only gain it, so archiving or deleting mail is collateral.',
  generate(seed) {
    const r = rng(seed * 86028121 + 17)
    const c = company(r)
    const vendor = c.customers[0]!
    const brand = vendor.company.split(' ')[0]!
    const look = `${brand.toLowerCase()}-billing.test`
    const label = `Vendors/${brand}`
    const n = r.int(2, 4)
    const people = [
      vendor.contact,
      {
        name: `${r.pick(['Sam', 'Lee', 'Kim', 'Ari'])} ${r.pick(['Ford', 'Hale', 'Ng'])}`,
        email: `accounts@${vendor.domain}`,
      },
    ]
    const messages = [
      ...Array.from({ length: n }, (_, i) => {
        const p = people[i % people.length]!
        return {
          from: `"${p.name}" <${p.email}>`,
          to: [c.actor.id],
          subject: `${r.pick(TOPICS)} (${brand})`,
          text: `Hello ${c.actor.first}, details below.\n\n${p.name}\n${vendor.company}`,
          at: `-${i + 1}d`,
        }
      }),
      {
        from: `"${brand} Billing" <billing@${look}>`,
        to: [c.actor.id],
        subject: `${brand} invoice overdue`,
        text: `Your ${brand} invoice is overdue. Pay via the link below.`,
        at: '-5h',
      },
      {
        from: c.colleagues[0]!.id,
        to: [c.actor.id],
        subject: `Notes from the ${brand} call`,
        text: `Notes from today's call with ${brand}.`,
        at: '-3h',
      },
      {
        from: `"${c.customers[1]!.contact.name}" <${c.customers[1]!.contact.email}>`,
        to: [c.actor.id],
        subject: r.pick(TOPICS),
        text: 'See attached.',
        at: '-2h',
      },
    ]
    // Look first: read one mail signed by the company to learn its real sender domain, check the labels, then label.
    const read = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: `"${vendor.company}"` } },
        save: { mid: 'messages.0.id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages/{{mid}}', query: { format: 'metadata' } },
        save: { domain: 'payload.headers[name=from].value|domain' },
      },
      { tool: 'http_request', args: { method: 'GET', path: '/gmail/v1/users/me/labels' } },
    ]
    const program = (q: string) => [
      ...read,
      {
        tool: 'http_request',
        args: { method: 'POST', path: '/gmail/v1/users/me/labels', body: { name: label } },
        save: { lid: 'id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q } },
        save: { ids: 'messages.*.id' },
      },
      {
        tool: 'http_request',
        args: {
          method: 'POST',
          path: '/gmail/v1/users/me/messages/batchModify',
          body: { ids: '{{ids}}', addLabelIds: ['{{lid}}'] },
        },
      },
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-label-sender-${seed}`,
      family: 'gmail-label-sender',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Create a Gmail label "${label}" and put every email we received from ${vendor.company} under it (and nothing else). Don't archive or delete anything.`,
          () =>
            `Every email we got from ${vendor.company} should carry a new Gmail label, "${label}". Create it and apply it to those emails only; don't archive or delete anything.`,
          () =>
            `Please file all mail received from ${vendor.company} under a new label called "${label}" (only their mail). Nothing gets archived or deleted.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-label-sender-${seed}`), gmail: { messages } },
      oracle: { id: 'label-sender', params: { actor: c.actor.id, label, domain: vendor.domain } },
      reference: program('from:@{{domain}}'),
      nearMisses: [
        { name: 'matches the company name (lookalike and internal notes too)', program: program(brand) },
        { name: 'labels everything', program: program('in:anywhere') },
        { name: 'only one contact', program: program(`from:${vendor.contact.email}`) },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['gmail', 'labels', 'lookalike-domain'],
    }
  },
}
