import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { docs, drive, driveList, phrase, slack, volumeOf } from './kit.ts'

const REGIONS = ['EMEA', 'APAC', 'North America', 'LATAM']
const METRICS = [
  {
    name: 'revenue',
    unit: (n: number) => `$${(n / 10).toFixed(1)}M`,
    sentence: (v: string, plan: string) => `Revenue for the quarter was ${v} (plan: ${plan}).`,
  },
  {
    name: 'gross margin',
    unit: (n: number) => `${n}%`,
    sentence: (v: string, plan: string) => `Gross margin came in at ${v} against a plan of ${plan}.`,
  },
  {
    name: 'new customers',
    unit: (n: number) => `${n}`,
    sentence: (v: string, plan: string) => `We signed ${v} new customers (plan: ${plan}).`,
  },
]

/**
 * Slack + Docs: a correction posted in Slack fixes one region's figure
 * in the quarterly review; the same figure appears in another region.
 */
export const slackDocsFixFigure: Family = {
  id: 'slack-docs-fix-figure',
  services: ['slack', 'docs', 'drive'],
  multiApp: true,
  antiGaming:
    "Judged by doc-correction: the final text must equal the original with only the corrected region's sentence changed, so a replace-all of the bare figure (which also sits in another region's section), rewriting or appending fails; last quarter's review (same sentence) must stay unchanged; so must the rest of the document (styles, tabs, headers and footers), so striking a paragraph through fails.",
  scenario:
    "The wrong figure appears in two regions' sections of this quarter's review; last quarter's review repeats the corrected region's sentence; Slack also holds an unrelated, already-applied correction.",
  generate(seed) {
    const r = rng(seed * 524287 + 508)
    const c = company(r)
    const [cfo, other] = c.colleagues
    const m = METRICS[seed % METRICS.length]!
    const [region, twin, third] = r.sample(REGIONS, 3)
    const base = r.int(20, 60)
    const wrongV = m.unit(base)
    const rightV = m.unit(base + r.int(2, 9))
    const plans = r.sample([base - 4, base - 1, base + 3, base + 5, base + 12].map(m.unit), 3)
    const kind = r.pick(['business review', 'board report', 'quarterly report'])
    const fin = r.pick(['finance', 'fp-and-a', 'finance-team', 'revenue-ops'])
    const title = `Q1 2026 ${kind}`
    const old = `Q4 2025 ${kind}`
    const sec = (reg: string, v: string, plan: string) => [
      { text: reg, style: 'HEADING_1' as const },
      m.sentence(v, plan),
      `Pipeline for ${reg} remains healthy.`,
    ]
    const content = (t: string) => [
      { text: t, style: 'TITLE' as const },
      `Figures are final unless a correction is posted in #${fin}.`,
      ...sec(region!, wrongV, plans[0]!),
      ...sec(twin!, wrongV, plans[1]!),
      ...sec(third!, m.unit(base + 20), plans[2]!),
    ]
    const documents = [
      { title: old, owner: c.actor.id, content: content(old) },
      { title, owner: c.actor.id, content: content(title) },
    ]
    const wrong = m.sentence(wrongV, plans[0]!)
    const right = m.sentence(rightV, plans[0]!)
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: fin, topic: 'Numbers, closes, corrections' },
      ],
      messages: [
        {
          channel: fin,
          user: cfo!.id,
          text: `Correction for the Q4 ${kind}: ${third} headcount was 41, not 44 (already fixed in the doc).`,
          at: '-40d',
        },
        {
          channel: fin,
          user: cfo!.id,
          text: `Correction for the Q1 2026 ${kind}: ${region} ${m.name} should be ${rightV}, not ${wrongV}. The ${twin} figure is right as it stands.`,
          at: '-2h',
        },
        { channel: fin, user: other!.id, text: 'Thanks for catching that.', at: '-1h' },
      ],
    }
    const instruction = phrase(seed, r, [
      `${cfo!.first} posted a correction in #${fin} for our Q1 ${kind} doc. Apply it to the doc; don't change anything else.`,
      `Please fix the Q1 ${kind} in Docs according to the correction ${cfo!.first} just shared on Slack (#${fin}).`,
      `There's a figure in the Q1 2026 ${kind} that ${cfo!.first} says is wrong - see #${fin}. Correct it in the document and leave the rest untouched.`,
      `Apply ${cfo!.first}'s latest correction from #${fin} to the Q1 ${kind} (Google Docs). Only that figure should change.`,
      `The Q1 2026 ${kind} has an error that ${cfo!.first} flagged in the #${fin} channel. Make the doc match the correction.`,
    ])
    const look = (t: string) => [
      slack('conversations.list', {}, { ch: `channels[name=${fin}].id` }, true),
      slack('conversations.history', { channel: '{{ch}}' }, undefined, true),
      driveList(`name contains '${kind.split(' ')[0]}' and mimeType = 'application/vnd.google-apps.document'`, {
        doc: `files[name=${t}].id`,
      }),
      drive('GET', 'files/{{doc}}/export', { query: { mimeType: 'text/plain' } }),
    ]
    const replace = (from: string, to: string) =>
      docs('POST', '/{{doc}}:batchUpdate', {
        body: { requests: [{ replaceAllText: { containsText: { text: from, matchCase: true }, replaceText: to } }] },
      })
    return {
      generatedBy: GENERATED_BY,
      id: `slack-docs-fix-figure-${seed}`,
      family: 'slack-docs-fix-figure',
      services: ['slack', 'docs', 'drive'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `slack-docs-fix-figure-${seed}`), docs: { documents }, slack: slackSeed },
      world: volumeOf(seed),
      oracle: { id: 'doc-correction', params: { actor: c.actor.id, title, wrong, right } },
      reference: [...look(title), replace(wrong, right)],
      nearMisses: [
        { name: 'replaces the bare figure everywhere', program: [...look(title), replace(wrongV, rightV)] },
        { name: "fixes last quarter's review", program: [...look(old), replace(wrong, right)] },
        {
          name: 'fixes both reviews',
          program: [...look(title), replace(wrong, right), ...look(old), replace(wrong, right)],
        },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['slack', 'docs', 'find-and-fix', 'near-duplicate'],
    }
  },
}
