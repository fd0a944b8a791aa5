import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { docs, driveList, phrase, volumeOf } from './kit.ts'

const TEAMS = [
  'Platform',
  'Payments',
  'Mobile',
  'Data',
  'Design',
  'Support',
  'Security',
  'Growth',
  'Infra',
  'Sales',
  'Marketing',
  'Research',
]
const STEPS = [
  'Collect your laptop from IT',
  'Set up two-factor authentication',
  'Read the engineering handbook',
  'Pair with your onboarding buddy',
  'Join the team rituals',
  'Ship a small first change',
  'Book intro chats with each team lead',
  'Review the on-call guide',
]
const LINKS = [
  'Team wiki: see the Drive folder',
  'Status page: status.internal',
  'Expense tool: ask Finance for access',
  'Office map: pinned in #general',
]

/**
 * Docs: turn the plain lines of one section into a numbered list
 * (the other plain section and the other team's guide untouched).
 */
export const docsNumberedSteps: Family = {
  id: 'docs-numbered-steps',
  services: ['docs', 'drive'],
  multiApp: false,
  antiGaming:
    "The section's paragraphs must become one ordered top-level list with the text unchanged; retyping numbers, bullets instead of numbers, listing the neighbouring plain section too, restyling other paragraphs or the steps' text, or adding headers or tabs fails; the other team's guide (same section) is collateral.",
  scenario:
    "The guide has a bulleted section, the plain-line section to number and another plain-line section after it; another team's guide is a near-duplicate document.",
  generate(seed) {
    const r = rng(seed * 15485863 + 509)
    const c = company(r)
    const [team, otherTeam] = r.sample(TEAMS, 2)
    const section = r.pick([
      'First week',
      'Your first days',
      'Week one',
      'Getting started',
      'Day one to five',
      'Your first month',
      'Settling in',
    ])
    const steps = r.sample(STEPS, r.int(3, 5))
    const links = r.sample(LINKS, 3)
    const title = `Onboarding guide - ${team} team`
    const otherTitle = `Onboarding guide - ${otherTeam} team`
    const guide = (t: string) => [
      { text: t, style: 'TITLE' as const },
      { text: 'Before day one', style: 'HEADING_1' as const },
      { bullets: ['Sign the contract', 'Send your bank details'] },
      { text: section, style: 'HEADING_1' as const },
      ...steps,
      { text: 'Useful links', style: 'HEADING_1' as const },
      ...links,
    ]
    const documents = [
      { title: otherTitle, owner: c.actor.id, content: guide(otherTitle) },
      { title, owner: c.actor.id, content: guide(title) },
    ]
    const phrasings = [
      `In the ${team} team's onboarding guide, the steps under "${section}" are plain lines. Make them a numbered list; leave the rest of the doc alone.`,
      `Please format the "${section}" steps of our ${team} onboarding guide (Google Docs) as a numbered list.`,
      `The ${team} onboarding doc reads badly: the "${section}" section should be a numbered list of steps. Fix just that section.`,
      `Quick formatting fix in Docs: number the steps in the "${section}" part of the ${team} team onboarding guide (1, 2, 3...).`,
      `New joiners find the ${team} onboarding guide hard to follow. Turn the lines under "${section}" into a numbered list and change nothing else.`,
      `Make the "${section}" steps in our ${team} onboarding doc a proper numbered list, please - the other sections stay as they are.`,
    ]
    const instruction = phrase(seed, r, phrasings)
    // "(1, 2, 3...)" asks for digits: roman numerals do not follow it (docs/decisions/0460).
    const digits = instruction === phrasings[3]
    const line = (s: string) => `body.content[paragraph.elements.0.textRun.content~=${s}]`
    const look = (t: string) => [
      driveList(`name contains 'Onboarding' and mimeType = 'application/vnd.google-apps.document'`, {
        doc: `files[name=${t}].id`,
      }),
      docs(
        'GET',
        '/{{doc}}',
        {},
        {
          from: `${line(steps[0]!)}.startIndex`,
          to: `${line(steps.at(-1)!)}.endIndex`,
          linksTo: `${line(links.at(-1)!)}.endIndex`,
        },
      ),
    ]
    const bullets = (preset: string, to = '{{to}}') =>
      docs('POST', '/{{doc}}:batchUpdate', {
        body: {
          requests: [
            { createParagraphBullets: { range: { startIndex: '{{from}}', endIndex: to }, bulletPreset: preset } },
          ],
        },
      })
    const NUM = 'NUMBERED_DECIMAL_ALPHA_ROMAN'
    return {
      generatedBy: GENERATED_BY,
      id: `docs-numbered-steps-${seed}`,
      family: 'docs-numbered-steps',
      services: ['docs', 'drive'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `docs-numbered-steps-${seed}`), docs: { documents } },
      world: volumeOf(seed),
      // A whole document's JSON is read to find the section's indexes: room for it in one observation.
      maxObservationChars: 40_000,
      oracle: {
        id: 'docs-numbered-list',
        params: { actor: c.actor.id, title, items: steps, ...(digits ? { digits: true } : {}) },
      },
      reference: [...look(title), bullets(NUM)],
      nearMisses: [
        { name: 'bullets instead of numbers', program: [...look(title), bullets('BULLET_DISC_CIRCLE_SQUARE')] },
        { name: 'numbers the links section too', program: [...look(title), bullets(NUM, '{{linksTo}}')] },
        { name: "the other team's guide", program: [...look(otherTitle), bullets(NUM)] },
        {
          // The rest of the document is judged too: restyling it beside the list fails (docs/decisions/0481).
          name: 'strikes the links section through',
          program: [
            ...look(title),
            bullets(NUM),
            docs('POST', '/{{doc}}:batchUpdate', {
              body: {
                requests: [
                  {
                    updateTextStyle: {
                      range: { startIndex: '{{to}}', endIndex: '{{linksTo}}' },
                      textStyle: { strikethrough: true },
                      fields: 'strikethrough',
                    },
                  },
                ],
              },
            }),
          ],
        },
        ...(digits
          ? [
              {
                name: 'roman numerals for "1, 2, 3"',
                program: [...look(title), bullets('NUMBERED_UPPERROMAN_UPPERALPHA_DECIMAL')],
              },
            ]
          : []),
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['docs', 'structure', 'lists', 'near-duplicate'],
    }
  },
}
