import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import { gmailRead, gmailSearch } from '../answers/kit.ts'

const VENDORS = ['Plexo', 'Vireo', 'Quantic', 'Solace', 'Brightline', 'Tandem', 'Orrery']
const LABELS = ['Newsletters', 'Reading', 'Later', 'Vendors/News']

/**
 * Gmail filters: one vendor's weekly newsletter should get a label (and, in most phrasings, skip the inbox). The same
 * vendor's billing address and another vendor's newsletter are near-duplicates a domain-wide or keyword rule catches.
 * Some phrasings also ask to treat the newsletters already in the mailbox.
 */
export const gmailFilterRule: Family = {
  id: 'gmail-filter-rule',
  services: ['gmail'],
  multiApp: false,
  antiGaming:
    "Judged by the gmail-filter-rule oracle: exactly one new filter, `from` exactly the newsletter address (a domain-wide rule catches the vendor's invoices; another vendor's newsletter is a near-duplicate), no other condition, the asked label only, INBOX removed exactly when asked, no forwarding or trash; the existing newsletters treated when asked and no other mail touched (relabelling other mail is collateral).",
  scenario:
    "The mailbox holds three issues of the vendor's weekly newsletter, the same vendor's invoices from another address, and another vendor's newsletter. The reference reads a newsletter (its exact sender), creates the label, creates the filter and, when asked, relabels the existing issues with batchModify.",
  generate(seed) {
    const r = rng(seed * 6673 + 37)
    const c = company(r, 2)
    const [vendor, other] = r.sample(VENDORS, 2)
    const label = r.pick(LABELS)
    const vdomain = `${vendor!.toLowerCase()}.test`
    const sender = `weekly@news.${vdomain}`
    const billing = `billing@${vdomain}`
    const otherSender = `weekly@news.${other!.toLowerCase()}.test`
    const skipInbox = seed % 4 !== 0
    const applyToExisting = seed % 3 === 0
    const issue = (n: number, at: string) => ({
      from: `"${vendor} Weekly" <${sender}>`,
      to: [c.actor.id],
      subject: `${vendor} Weekly #${100 + n}: what's new`,
      text: `This week at ${vendor}: product updates, tips and events.\n\nUnsubscribe: https://news.${vdomain}/u`,
      at,
    })
    const messages = [
      issue(1, '-15d'),
      issue(2, '-8d'),
      issue(3, '-1d'),
      {
        from: `"${vendor} Billing" <${billing}>`,
        to: [c.actor.id],
        subject: `${vendor} invoice for February`,
        text: `Your invoice is attached. Amount due: $${r.int(200, 900)}.00`,
        at: '-6d',
      },
      {
        from: `"${other} Weekly" <${otherSender}>`,
        to: [c.actor.id],
        subject: `${other} Weekly #${r.int(40, 90)}`,
        text: `News from ${other}.`,
        at: '-2d',
      },
      { from: c.colleagues[0]!.id, to: [c.actor.id], subject: 'Lunch?', text: 'Lunch at 12:30?', at: '-3h' },
    ]
    const look = [
      gmailSearch(`"${vendor} Weekly"`, { mid: 'messages.0.id' }),
      gmailRead('{{mid}}', { sender: 'payload.headers[name=from].value|email' }),
      httpStep('POST', '/gmail/v1/users/me/labels', { body: { name: label } }, { lid: 'id' }),
    ]
    const filter = (from: string, opts: { skip?: boolean } = {}) =>
      httpStep('POST', '/gmail/v1/users/me/settings/filters', {
        body: {
          criteria: { from },
          action: { addLabelIds: ['{{lid}}'], ...((opts.skip ?? skipInbox) ? { removeLabelIds: ['INBOX'] } : {}) },
        },
      })
    const existing = (q = 'from:{{sender}}') => [
      gmailSearch(q, { ids: 'messages.*.id' }),
      httpStep('POST', '/gmail/v1/users/me/messages/batchModify', {
        body: { ids: '{{ids}}', addLabelIds: ['{{lid}}'], ...(skipInbox ? { removeLabelIds: ['INBOX'] } : {}) },
      }),
    ]
    const reference = [...look, filter('{{sender}}'), ...(applyToExisting ? existing() : [])]
    const what = skipInbox
      ? `skip the inbox and get the label "${label}"`
      : `get the label "${label}" (keep them in the inbox)`
    const past = applyToExisting ? ' Do the same for the ones already in my mailbox.' : ''
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-filter-rule-${seed}`,
      family: 'gmail-filter-rule',
      services: ['gmail'],
      instruction: persona(
        rng(seed * 6673 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 6673 + 101), [
          () =>
            `The ${vendor} Weekly newsletter keeps cluttering my inbox. Set up a Gmail filter so from now on it will ${what}.${past}`,
          () =>
            `Create a filter for the "${vendor} Weekly" emails: they should ${what}. Don't catch ${vendor}'s other mail (invoices must stay as they are).${past}`,
          () => `From now on, ${vendor}'s weekly newsletter should ${what} - please add a filter for it.${past}`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-filter-rule-${seed}`), gmail: { messages } },
      oracle: { id: 'gmail-filter-rule', params: { actor: c.actor.id, sender, label, skipInbox, applyToExisting } },
      reference,
      nearMisses: [
        {
          name: "the vendor's whole domain",
          program: [...look, filter(`@${vdomain}`), ...(applyToExisting ? existing(`from:@${vdomain}`) : [])],
        },
        {
          name: 'the inbox setting the other way',
          program: [...look, filter('{{sender}}', { skip: !skipInbox }), ...(applyToExisting ? existing() : [])],
        },
        applyToExisting
          ? { name: 'forgets the mail already there', program: [...look, filter('{{sender}}')] }
          : {
              name: 'relabels the mail already there unasked',
              program: [...look, filter('{{sender}}'), ...existing()],
            },
        { name: "the other vendor's newsletter", program: [...look, filter(otherSender)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'filters', 'labels', 'near-duplicate'],
    }
  },
}
