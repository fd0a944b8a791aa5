import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { docs, driveList } from '../dds/kit.ts'
import { dollars, doneStep, gmailRead, gmailSearch } from '../answers/kit.ts'

const LINES = ['travel', 'training', 'software', 'events', 'contractor']
const TEAMS = ['Platform', 'Growth', 'Support', 'Data', 'Security', 'Partnerships']
const cap = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`
const whole = (v: number) => `$${v.toLocaleString('en-US')}`

/**
 * Docs suggestions, answer task: finance and the team lead each suggested a new figure on a different line of a
 * team's budget draft. Finance's email names its line, not the figure; the answer is the figure finance suggested,
 * read from the SUGGESTIONS_INLINE document (a suggested insertion next to the suggested deletion of the old one).
 */
export const docsSuggestionAnswer: Family = {
  id: 'docs-suggestion-answer',
  services: ['gmail', 'docs', 'drive'],
  multiApp: true,
  antiGaming:
    'Judged by the final-answer oracle: the answer must state the figure finance suggested as a value, and ' +
    "none of the near-duplicates (the figure finance's suggestion deletes, the lead's suggested figure, the " +
    "figure the lead's suggestion deletes); editing the document or accepting anything is collateral.",
  scenario:
    "A team's FY27 budget draft lists five budget lines. Finance suggested replacing one line's figure and " +
    "the team lead another's; the API shows no authors, so finance's email (naming the line) tells them apart. " +
    'The text without suggestions and the Drive export show only the old figures.',
  generate(seed) {
    const r = rng(seed * 1597334677 + 43)
    const c = company(r, 3)
    const [fin, lead] = c.colleagues
    const team = r.pick(TEAMS)
    const [finLine, leadLine] = r.sample(LINES, 2)
    // Seven distinct figures in whole thousands: five lines plus the two suggested ones.
    const figures = r.sample(
      Array.from({ length: 200 }, (_, i) => (i + 20) * 1000 + r.int(0, 1) * 500),
      7,
    )
    const current = Object.fromEntries(LINES.map((l, i) => [l, figures[i]!]))
    const finNew = figures[5]!
    const leadNew = figures[6]!
    const title = `${team} FY27 budget - draft`
    const documents = [
      {
        title,
        owner: c.actor.id,
        content: [
          { text: title, style: 'TITLE' as const },
          { text: 'Budget lines', style: 'HEADING_1' as const },
          ...LINES.map((l) => `${cap(l)} budget: ${whole(current[l]!)} for the year.`),
          { text: 'Notes', style: 'HEADING_1' as const },
          'Figures are yearly totals in US dollars; finance reviews the draft before it is final.',
        ],
        suggestions: [
          { author: fin!.id, replace: { text: whole(current[finLine!]!), with: whole(finNew) } },
          { author: lead!.id, replace: { text: whole(current[leadLine!]!), with: whole(leadNew) } },
        ],
      },
    ]
    const messages = [
      {
        from: fin!.id,
        to: [c.actor.id],
        subject: `${team} FY27 budget`,
        at: '-4h',
        text:
          `Hi ${c.actor.first},\n\nI left a suggestion on the ${finLine} line of "${title}" with the figure we can ` +
          `fund. ${lead!.first} suggested something on another line; that one is not from finance.` +
          `\n\n${fin!.first}`,
      },
    ]
    const look = [
      gmailSearch(`from:${fin!.first}`, { mid: 'messages.0.id' }),
      gmailRead('{{mid}}'),
      driveList(`name = '${title}' and mimeType = 'application/vnd.google-apps.document'`, { doc: 'files.0.id' }),
      docs('GET', '/{{doc}}', { query: { suggestionsViewMode: 'SUGGESTIONS_INLINE' } }),
    ]
    const wrong = [current[finLine!]!, leadNew, current[leadLine!]!].map((value) => ({
      kind: 'number' as const,
      value,
    }))
    return {
      generatedBy: GENERATED_BY,
      id: `docs-suggestion-answer-${seed}`,
      family: 'docs-suggestion-answer',
      services: ['gmail', 'docs', 'drive'],
      instruction: persona(
        rng(seed * 1597 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 1597 + 101), [
          () =>
            `${fin!.first} from finance suggested a new figure in the "${title}" doc. What figure did ${fin!.first} ` +
            `suggest? ${fin!.first}'s email says which line it is on.`,
          () =>
            `Others left suggestions in our ${team} FY27 budget draft too, but I need ${fin!.first}'s: which amount ` +
            `did ${fin!.first} (finance) propose? ${fin!.first} emailed me about it.`,
          () =>
            `quick q: ${fin!.first} suggested a new number in the ${team} FY27 budget draft - what was it? ` +
            `${fin!.first}'s mail has the line`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `docs-suggestion-answer-${seed}`), gmail: { messages }, docs: { documents } },
      oracle: { id: 'final-answer', params: { actor: c.actor.id, expected: { kind: 'number', value: finNew }, wrong } },
      reference: [...look, doneStep(`${fin!.first} suggested ${dollars(finNew)} for the ${finLine} budget.`)],
      nearMisses: [
        { name: "the figure finance's suggestion replaces", program: [...look, doneStep(dollars(current[finLine!]!))] },
        { name: "the lead's suggested figure", program: [...look, doneStep(`It is ${dollars(leadNew)}.`)] },
        {
          name: "the other suggested line's current figure",
          program: [...look, doneStep(dollars(current[leadLine!]!))],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'docs', 'drive', 'answer', 'suggestions', 'near-duplicate'],
    }
  },
}
