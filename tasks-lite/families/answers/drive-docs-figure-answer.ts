import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { docs, driveList } from '../dds/kit.ts'
import { amount, dollars, doneStep } from './kit.ts'

const LINES = ['travel', 'training', 'software', 'events', 'contractor']
const TEAMS = ['Platform', 'Growth', 'Support', 'Data', 'Security', 'Partnerships']

/**
 * Drive + Docs answer task: one budget line of a team's final FY27 plan. The draft, last year's final plan and another
 * team's plan carry the same line with other figures; in half the seeds an amendment at the end of the final plan
 * revises the figure (the answer is the revised one).
 */
export const driveDocsFigureAnswer: Family = {
  id: 'drive-docs-figure-answer',
  services: ['drive', 'docs'],
  multiApp: true,
  antiGaming:
    "Judged by the final-answer oracle: the answer must state the figure that stands in the final FY27 plan (the amendment's when it has one) as a value, and none of the near-duplicates (the draft's, last year's, the other team's, the figure the amendment replaced); editing, moving or sharing any file is collateral.",
  scenario:
    "Four planning docs share a naming pattern: the team's FY27 final, its FY27 draft, its FY26 final and another team's FY27 final. In half the seeds the final plan ends with an amendment that revises the asked budget line. The reference lists the plans in Drive, opens the final one in Docs and reads it to the end.",
  generate(seed) {
    const r = rng(seed * 2741 + 61)
    const c = company(r, 3)
    const [team, otherTeam] = r.sample(TEAMS, 2)
    const line = r.pick(LINES)
    const others = LINES.filter((l) => l !== line)
    // Five distinct figures in thousands (a shared figure would make a near-duplicate the right answer too).
    const figures = r.sample(
      Array.from({ length: 220 }, (_, i) => (i + 20) * 1000 + r.int(0, 1) * 500),
      5,
    )
    const [fin, draft, last, other, revised] = figures
    const amended = seed % 2 === 0
    const plan = (title: string, figure: number, extra: (string | { text: string; style: 'HEADING_1' })[] = []) => ({
      title,
      owner: c.actor.id,
      content: [
        { text: title, style: 'TITLE' as const },
        { text: 'Budget', style: 'HEADING_1' as const },
        `${line[0]!.toUpperCase()}${line.slice(1)} budget: ${dollars(figure)} for the year.`,
        ...others
          .slice(0, 2)
          .map((o) => `${o[0]!.toUpperCase()}${o.slice(1)} budget: ${dollars(Math.round(amount(r, 20, 240)) * 1000)}.`),
        { text: 'Headcount', style: 'HEADING_1' as const },
        `Planned hires: ${r.int(2, 9)} (see the hiring plan).`,
        ...extra,
      ],
    })
    const finalTitle = `${team} FY27 plan - final`
    const documents = [
      plan(`${team} FY27 plan - draft`, draft!),
      plan(`${team} FY26 plan - final`, last!),
      plan(`${otherTeam} FY27 plan - final`, other!),
      plan(
        finalTitle,
        fin!,
        amended
          ? [
              { text: 'Amendments', style: 'HEADING_1' as const },
              `Amendment (February): the ${line} budget is revised to ${dollars(revised!)}; this replaces the figure above.`,
            ]
          : [],
      ),
    ]
    const standing = amended ? revised! : fin!
    const wrong = [draft!, last!, other!, ...(amended ? [fin!] : [])].map((value) => ({
      kind: 'number' as const,
      value,
    }))
    const look = [
      driveList(`name contains '${team} FY27 plan'`, { doc: `files[name=${finalTitle}].id` }),
      docs('GET', '/{{doc}}'),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `drive-docs-figure-answer-${seed}`,
      family: 'drive-docs-figure-answer',
      services: ['drive', 'docs'],
      instruction: persona(
        rng(seed * 2741 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 2741 + 101), [
          () => `What is the ${line} budget in the final ${team} FY27 plan? It's a doc in my Drive.`,
          () => `Look up the ${team} team's FY27 ${line} budget for me - use the final plan, not a draft.`,
          () => `From our FY27 planning docs: how much is budgeted for ${line} in ${team}'s final plan?`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-docs-figure-answer-${seed}`), docs: { documents } },
      oracle: {
        id: 'final-answer',
        params: { actor: c.actor.id, expected: { kind: 'number', value: standing }, wrong },
      },
      reference: [...look, doneStep(`The ${line} budget in ${finalTitle} is ${dollars(standing)}.`)],
      nearMisses: [
        {
          name: amended ? 'the figure the amendment replaced' : 'the draft',
          program: [...look, doneStep(dollars(amended ? fin! : draft!))],
        },
        { name: "last year's plan", program: [...look, doneStep(`${dollars(last!)}`)] },
        { name: 'the other team', program: [...look, doneStep(`It is ${dollars(other!)}.`)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['drive', 'docs', 'answer', 'near-duplicate'],
    }
  },
}
