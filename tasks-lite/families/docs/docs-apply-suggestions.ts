import { baseSeed, company, rng, GENERATED_BY, type Family, type Rng } from '../common.ts'
import { docs, driveList, phrase, volumeOf } from '../dds/kit.ts'

const VENDORS = [
  'Northbeam Logistics',
  'Quillon Software',
  'Marlow Facilities',
  'Tessera Data',
  'Brightline Media',
  'Corvid Security',
  'Halden Print',
  'Orchard Payroll',
]
const STATES = ['Delaware', 'New York', 'California', 'Texas', 'Illinois', 'Washington', 'Colorado', 'Oregon']

/** One clause of the agreement: its label, its sentence around a value, and an (old, new) value pair. */
type Clause = { label: string; body: (v: string) => string; values: (r: Rng) => [string, string] }

const two = <T>(r: Rng, xs: readonly T[]): [T, T] => {
  const [a, b] = r.sample(xs, 2)
  return [a!, b!]
}
const money = (n: number) => `$${n.toLocaleString('en-US')}`
// Each clause's values have their own unit, so no value of one clause appears in another clause.
const CLAUSES: Clause[] = [
  {
    label: 'Term',
    body: (v) => `This agreement starts on the effective date and runs for ${v}.`,
    values: (r) => two(r, ['12 months', '18 months', '24 months', '36 months']),
  },
  {
    label: 'Fees',
    body: (v) => `The annual subscription fee is ${v}, invoiced quarterly in advance.`,
    values: (r) =>
      two(
        r,
        [18, 24, 36, 42, 55, 64].map((k) => money(k * 1000)),
      ),
  },
  {
    label: 'Payment',
    body: (v) => `Undisputed invoices are payable within ${v} of receipt.`,
    values: (r) => two(r, ['30 days', '45 days', '60 days', '90 days']),
  },
  {
    label: 'Termination',
    body: (v) => `Either party may terminate for convenience with ${v} of written notice.`,
    values: (r) => two(r, ['20 business days', '40 business days', '60 business days']),
  },
  {
    label: 'Liability',
    body: (v) => `Each party's total liability under this agreement is capped at ${v}.`,
    values: (r) =>
      two(
        r,
        [250, 500, 750, 1000, 2000].map((k) => money(k * 1000)),
      ),
  },
  {
    label: 'Governing law',
    body: (v) => `This agreement is governed by the laws of the State of ${v}.`,
    values: (r) => two(r, STATES),
  },
  {
    label: 'Service levels',
    body: (v) => `The vendor commits to ${v} monthly uptime for the hosted service.`,
    values: (r) => two(r, ['99.5%', '99.7%', '99.9%', '99.95%']),
  },
]

/**
 * Docs suggestions: legal and an intern both left suggestions (suggested replacements) in a vendor agreement;
 * legal's email names the clauses that are theirs. The agent reads the SUGGESTIONS_INLINE document, applies legal's
 * suggestions as real edits (the API cannot accept suggestions: delete the suggested old and new text, type the
 * new text) and leaves the intern's pending. A history paragraph repeats every old value.
 */
export const docsApplySuggestions: Family = {
  id: 'docs-apply-suggestions',
  services: ['gmail', 'docs', 'drive'],
  multiApp: true,
  antiGaming:
    "The document's text without pending suggestions must equal the original with exactly legal's " +
    "replacements made, no suggestion of legal's may stay pending and every suggestion of the intern's must stay " +
    "pending unchanged: applying every suggestion, the intern's, none or only some fails; replacing the old values " +
    "everywhere rewrites the history paragraph and leaves legal's suggestions pending; typing the new values next " +
    'to the suggestions leaves the suggested deletions in the text; the rest of the document (paragraph and text ' +
    'styles, tabs, headers and footers, named ranges) must stay as it was, so striking a clause through fails.',
  scenario:
    'A vendor agreement with seven numbered clauses and a history paragraph repeating the old terms. Legal ' +
    'suggested replacing the value in two clauses, the intern in two others (each a suggested deletion plus a ' +
    "suggested insertion under one suggestion id). Legal's email names their two clauses; the intern's email asks " +
    'for theirs to be accepted too. The API shows no suggestion authors: the clauses tell them apart.',
  generate(seed) {
    const r = rng(seed * 2246822519 + 37)
    const c = company(r)
    const [legal, intern] = c.colleagues
    const vendor = r.pick(VENDORS)
    const title = `${vendor} services agreement - draft`
    const picked = r.sample(
      CLAUSES.map((_, i) => i),
      4,
    )
    const legalIdx = picked.slice(0, 2).sort((a, b) => a - b)
    const internIdx = picked.slice(2).sort((a, b) => a - b)
    const values = CLAUSES.map((cl) => cl.values(r))
    const clauseText = (i: number) => `${i + 1}. ${CLAUSES[i]!.label}. ${CLAUSES[i]!.body(values[i]![0])}`
    const history = `For reference, the 2024 agreement had these terms: ${CLAUSES.map(
      (cl, i) => `${cl.label.toLowerCase()} ${values[i]![0]}`,
    ).join('; ')}.`
    const suggestion = (i: number, author: string) => ({
      author,
      replace: { text: values[i]![0], with: values[i]![1] },
    })
    const documents = [
      {
        title,
        owner: c.actor.id,
        content: [
          { text: `${vendor} services agreement`, style: 'TITLE' as const },
          `Between ${c.org} and ${vendor}. Draft for review; not for signature.`,
          { text: 'Clauses', style: 'HEADING_1' as const },
          ...CLAUSES.map((_, i) => clauseText(i)),
          { text: 'History', style: 'HEADING_1' as const },
          history,
        ],
        suggestions: [
          ...legalIdx.map((i) => suggestion(i, legal!.id)),
          ...internIdx.map((i) => suggestion(i, intern!.id)),
        ],
      },
    ]
    const names = (idx: number[]) => idx.map((i) => `${CLAUSES[i]!.label} (clause ${i + 1})`).join(' and ')
    const messages = [
      {
        from: legal!.id,
        to: [c.actor.id],
        subject: `My suggestions on the ${vendor} agreement`,
        at: '-3h',
        text:
          `Hi ${c.actor.first},\n\nI went through "${title}" in suggestion mode and proposed changes to ${names(
            legalIdx,
          )}. Please make those two real edits in the doc. ${intern!.first} (our legal intern) also ` +
          `left suggestions on other clauses; leave those pending, I will go through them with ${intern!.first}.` +
          `\n\nThanks,\n${legal!.first}`,
      },
      {
        from: intern!.id,
        to: [c.actor.id],
        subject: `Re: ${vendor} agreement`,
        at: '-2h',
        text:
          `Hi ${c.actor.first}, I suggested a couple of tweaks in the ${vendor} draft too (${names(internIdx)}). ` +
          `Feel free to accept them while you are in there!\n\n${intern!.first}`,
      },
    ]
    const instruction = phrase(seed, r, [
      `${legal!.first} from legal left suggestions in the Google Doc "${title}" and emailed you which clauses are ` +
        `theirs. Apply ${legal!.first}'s suggestions as real edits to the text and leave ${intern!.first}'s ` +
        'suggestions pending for review. Nothing else in the document should change.',
      `Make ${legal!.first}'s suggested changes in "${title}" real edits (their email says which clauses they ` +
        `touched). ${intern!.first}, the intern, suggested changes as well: do not apply or remove those. Keep the ` +
        'rest of the agreement exactly as it is.',
      `can you turn the suggestions ${legal!.first} (legal) made in the ${vendor} agreement draft into actual edits? ` +
        `${legal!.first}'s email lists the clauses. ${intern!.first}'s suggestions stay as suggestions, and don't ` +
        'touch anything else',
    ])
    const clausePath = (i: number) =>
      `body.content[paragraph.elements.0.textRun.content~=${i + 1}. ${CLAUSES[i]!.label}.].paragraph.elements`
    const look = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: `from:${legal!.first}` } },
        save: { mid: 'messages.0.id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages/{{mid}}', query: { format: 'full' } },
      },
      driveList(`name = '${title}' and mimeType = 'application/vnd.google-apps.document'`, { doc: 'files.0.id' }),
      docs(
        'GET',
        '/{{doc}}',
        { query: { suggestionsViewMode: 'SUGGESTIONS_INLINE' } },
        Object.fromEntries(
          [...legalIdx, ...internIdx].flatMap((i) => [
            [`from${i}`, `${clausePath(i)}[textRun.suggestedDeletionIds.0~=suggest].startIndex`],
            [`to${i}`, `${clausePath(i)}[textRun.suggestedInsertionIds.0~=suggest].endIndex`],
            [`new${i}`, `${clausePath(i)}[textRun.suggestedInsertionIds.0~=suggest].textRun.content`],
            [`old${i}`, `${clausePath(i)}[textRun.suggestedDeletionIds.0~=suggest].textRun.content`],
          ]),
        ),
      ),
    ]
    const batch = (requests: unknown[]) => docs('POST', '/{{doc}}:batchUpdate', { body: { requests } })
    // Later clauses first, so that the indexes read before the edit still hold for earlier ones.
    const apply = (idx: number[]) =>
      [...idx]
        .sort((a, b) => b - a)
        .flatMap((i) => [
          { deleteContentRange: { range: { startIndex: `{{from${i}}}`, endIndex: `{{to${i}}}` } } },
          { insertText: { location: { index: `{{from${i}}}` }, text: `{{new${i}}}` } },
        ])
    const replaceAll = (i: number) => ({
      replaceAllText: {
        containsText: { text: `{{old${i}}}`, matchCase: true },
        replaceText: `{{new${i}}}`,
      },
    })
    // An off-by-one edit: the space before the value goes with it ("within45 days").
    const eatSpace = (idx: number[]) =>
      [...idx]
        .sort((a, b) => b - a)
        .flatMap((i) => [
          { deleteContentRange: { range: { startIndex: `{{from${i}-1}}`, endIndex: `{{to${i}}}` } } },
          { insertText: { location: { index: `{{from${i}-1}}` }, text: `{{new${i}}}` } },
        ])
    const typeNext = (i: number) => ({ insertText: { location: { index: `{{from${i}}}` }, text: `{{new${i}}}` } })
    const later = [...legalIdx].sort((a, b) => b - a)
    return {
      generatedBy: GENERATED_BY,
      id: `docs-apply-suggestions-${seed}`,
      family: 'docs-apply-suggestions',
      services: ['gmail', 'docs', 'drive'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `docs-apply-suggestions-${seed}`), gmail: { messages }, docs: { documents } },
      world: volumeOf(seed),
      maxObservationChars: 40_000,
      oracle: {
        id: 'docs-apply-suggestions',
        params: {
          actor: c.actor.id,
          title,
          legal: legal!.email,
          intern: intern!.email,
          edits: legalIdx.map((i) => ({
            clause: `${i + 1}. ${CLAUSES[i]!.label}.`,
            from: values[i]![0],
            to: values[i]![1],
          })),
        },
      },
      reference: [...look, batch(apply(legalIdx))],
      nearMisses: [
        { name: 'applies every suggestion', program: [...look, batch(apply([...legalIdx, ...internIdx]))] },
        { name: "applies the intern's suggestions instead", program: [...look, batch(apply(internIdx))] },
        { name: "applies only one of legal's suggestions", program: [...look, batch(apply(legalIdx.slice(0, 1)))] },
        { name: 'replaces the old values everywhere', program: [...look, batch(legalIdx.map(replaceAll))] },
        { name: 'types the new values next to the suggestions', program: [...look, batch(later.map(typeNext))] },
        { name: 'deletes one character too many around each value', program: [...look, batch(eatSpace(legalIdx))] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'docs', 'drive', 'suggestions', 'near-duplicate'],
    }
  },
}
