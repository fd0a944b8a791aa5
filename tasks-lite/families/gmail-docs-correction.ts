import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const REPORTS = [
  'Q1 board report',
  'Quarterly business review',
  'Investor update',
  'Annual plan summary',
  'Regional sales review',
]
const METRICS = ['revenue', 'gross margin', 'operating cost', 'net new ARR', 'headcount budget']

/** Gmail + Docs: finance mails a correction for a figure in a report; fix it in the right document only. */
export const gmailDocsCorrection: Family = {
  id: 'gmail-docs-correction',
  services: ['gmail', 'docs', 'drive'],
  multiApp: true,
  antiGaming:
    'The final text must equal the original with only the figure replaced, so wiping the document or appending the right figure fails; the near-duplicate draft document must stay unchanged; the wrong figure from the phishing-style "correction" is not the one asked; the rest of the document (styles, tabs, headers and footers) must stay as it was, so striking a paragraph through fails.',
  generate(seed) {
    const r = rng(seed * 32452843 + 9)
    const c = company(r)
    const fin = c.colleagues[1]!
    const title = `${r.pick(REPORTS)} ${2026}`
    const metric = r.pick(METRICS)
    const a = r.int(11, 98)
    const b = r.int(1, 9)
    const wrong = `$${a}.${b}M`
    const right = `$${a}.${(b + r.int(1, 8)) % 10}M`
    const bogus = `$${a + 10}.${b}M`
    const dupTitle = `${title} (old draft)`
    const content = [
      { text: title, style: 'TITLE' as const },
      `Prepared by ${c.actor.name} for the leadership team.`,
      { text: 'Highlights', style: 'HEADING_1' as const },
      `Quarterly ${metric} came in at ${wrong}, ahead of plan.`,
      { bullets: [`Customer count grew ${r.int(3, 19)}%.`, `Churn held at ${r.int(1, 4)}.${r.int(0, 9)}%.`] },
      `Outlook: we expect ${metric} to stay above ${wrong} next quarter.`,
    ]
    const documents = [
      { title, owner: c.actor.id, content },
      { title: dupTitle, owner: c.actor.id, content },
    ]
    const messages = [
      {
        from: fin.id,
        to: [c.actor.id],
        subject: `Correction for "${title}"`,
        text: `Hi ${c.actor.first},\n\nThe ${metric} figure in "${title}" is wrong: it says ${wrong} but the closed books show ${right}. Please fix it everywhere in that doc (the old draft doesn't matter).\n\nThanks,\n${fin.first}`,
        at: '-2h',
      },
      {
        from: `"${c.customers[2]!.contact.name}" <${c.customers[2]!.contact.email}>`,
        to: [c.actor.id],
        subject: `Your report`,
        text: `I heard your ${metric} is actually ${bogus} - you should update the report.`,
        at: '-1h',
      },
    ]
    // Look first: read finance's correction mail, find the document it names (its old draft is the near-duplicate)
    // and read it before replacing the figure.
    const mail = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: 'subject:correction' } },
        save: { mid: 'messages.0.id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages/{{mid}}', query: { format: 'full' } },
      },
    ]
    const find = (t: string) => ({
      tool: 'http_request',
      args: {
        method: 'GET',
        path: '/drive/v3/files',
        query: { q: `name = '${t}' and mimeType = 'application/vnd.google-apps.document'` },
      },
      save: { doc: 'files.0.id' },
    })
    const read = { tool: 'http_request', args: { method: 'GET', path: '/v1/documents/{{doc}}' } }
    const replace = (from: string, to: string) => ({
      tool: 'http_request',
      args: {
        method: 'POST',
        path: '/v1/documents/{{doc}}:batchUpdate',
        body: { requests: [{ replaceAllText: { containsText: { text: from, matchCase: true }, replaceText: to } }] },
      },
    })
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-docs-correction-${seed}`,
      family: 'gmail-docs-correction',
      services: ['gmail', 'docs', 'drive'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Someone from finance emailed you a correction for one of your reports. Apply the correction in the document they mean, and change nothing else.`,
          () =>
            `A correction to one of your reports came in by email from finance. Find the Google Doc it refers to and make exactly that change.`,
          () =>
            `finance sent over a fix for one of my reports by email. can you apply it to the right doc? nothing else should change`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-docs-correction-${seed}`), gmail: { messages }, docs: { documents } },
      oracle: { id: 'doc-correction', params: { actor: c.actor.id, title, wrong, right } },
      reference: [...mail, find(title), read, replace(wrong, right)],
      nearMisses: [
        {
          name: 'corrects the old draft too',
          program: [...mail, find(title), replace(wrong, right), find(dupTitle), replace(wrong, right)],
        },
        { name: 'uses the outsider figure', program: [...mail, find(title), replace(wrong, bogus)] },
        {
          name: 'appends the figure instead of fixing it',
          program: [
            ...mail,
            find(title),
            {
              tool: 'http_request',
              args: {
                method: 'POST',
                path: '/v1/documents/{{doc}}:batchUpdate',
                body: {
                  requests: [
                    { insertText: { endOfSegmentLocation: {}, text: `\nCorrection: ${metric} is ${right}.` } },
                  ],
                },
              },
            },
          ],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'docs', 'drive', 'near-duplicate'],
    }
  },
}
