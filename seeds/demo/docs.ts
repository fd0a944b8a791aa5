import type { DemoContext } from './context.ts'
import type { SeedBlock } from '../../envs/docs/build.ts'

type SeedDoc = { title: string; owner: string; content: SeedBlock[]; namedRanges?: { name: string; text: string }[] }

const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const
const CUSTOMERS = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Supplies'] as const

/**
 * Demo Docs for Northwind Labs: a roadmap, an onboarding checklist, a postmortem, weekly meeting
 * notes, a contract summary with a named range, and a budget memo. Owners are demo users; the
 * files are created in Drive (My Drive root) by the docs seeder.
 */
export function demoDocs(ctx: DemoContext): { documents: SeedDoc[] } {
  const rng = ctx.rng.fork('docs')
  const q = rng.pick(QUARTERS)
  const customer = rng.pick(CUSTOMERS)
  const budget = rng.int(180, 260) * 1000
  const outageMin = rng.int(25, 95)
  const documents: SeedDoc[] = [
    {
      title: `${q} Product Roadmap`,
      owner: 'alice',
      content: [
        { text: `${q} Product Roadmap`, style: 'TITLE' },
        { text: 'Northwind Labs — draft for leadership review', style: 'SUBTITLE' },
        { text: 'Goals', style: 'HEADING_1' },
        {
          bullets: [
            'Ship the self-serve onboarding flow',
            `Close the ${customer} pilot`,
            'Cut p95 API latency below 200 ms',
          ],
        },
        { text: 'Milestones', style: 'HEADING_1' },
        {
          table: [
            ['Milestone', 'Owner', 'Due'],
            ['Onboarding beta', 'Bob Okafor', `${q} week 4`],
            ['Design system v2', 'Carol Lindqvist', `${q} week 7`],
            ['Pilot review', 'Dan Whitfield', `${q} week 10`],
          ],
        },
        { text: 'Risks', style: 'HEADING_1' },
        'Hiring for the platform team is behind plan; the latency work depends on it.',
      ],
    },
    {
      title: 'Engineering Onboarding Checklist',
      owner: 'bob',
      content: [
        { text: 'Engineering Onboarding Checklist', style: 'HEADING_1' },
        'Work through this list in your first week. Ask in #eng-help when stuck.',
        {
          bullets: [
            'Get laptop and accounts from IT',
            'Read the architecture overview',
            'Set up the local dev environment',
            'Pair with a buddy on a starter ticket',
            'Ship your first pull request',
          ],
          numbered: true,
        },
        { text: 'Useful links', style: 'HEADING_2' },
        { text: 'Architecture overview', link: 'https://wiki.northwind.test/architecture' },
      ],
    },
    {
      title: 'Postmortem: API outage',
      owner: 'bob',
      content: [
        { text: 'Postmortem: API outage', style: 'TITLE' },
        { text: 'Summary', style: 'HEADING_1' },
        `The public API returned errors for ${outageMin} minutes after a configuration change to the load balancer.`,
        { text: 'Timeline', style: 'HEADING_1' },
        {
          table: [
            ['Time (UTC)', 'Event'],
            ['14:02', 'Config change deployed'],
            ['14:05', 'Error rate alert fires'],
            [`14:${String(5 + Math.min(outageMin, 50)).padStart(2, '0')}`, 'Rollback complete'],
          ],
        },
        { text: 'Action items', style: 'HEADING_1' },
        { bullets: ['Add a canary stage for load balancer changes', 'Alert on 5xx ratio, not only absolute counts'] },
      ],
    },
    {
      title: 'Weekly Sync — Meeting Notes',
      owner: 'dan',
      content: [
        { text: 'Weekly Sync — Meeting Notes', style: 'HEADING_1' },
        { text: 'Attendees: Alice, Bob, Carol, Dan, Erin', italic: true },
        { text: 'Notes', style: 'HEADING_2' },
        {
          bullets: [
            `${customer} asked for SSO before signing`,
            'Design review moved to Thursday',
            'Finance closes the books on the 5th',
          ],
        },
        { text: 'Action items', style: 'HEADING_2' },
        {
          bullets: [
            'Dan: send the SSO timeline to the customer',
            'Carol: share the updated mockups',
            'Erin: circulate the budget memo',
          ],
        },
      ],
    },
    {
      title: `Contract Summary — ${customer}`,
      owner: 'dan',
      content: [
        { text: `Contract Summary — ${customer}`, style: 'HEADING_1' },
        { text: 'Renewal date: TBD', bold: true },
        'Term: 12 months, auto-renewing unless either party gives 60 days notice.',
        'Pricing: per-seat, billed annually in advance.',
      ],
      namedRanges: [{ name: 'renewal_date', text: 'TBD' }],
    },
    {
      title: 'Budget Memo',
      owner: 'erin',
      content: [
        { text: 'Budget Memo', style: 'TITLE' },
        `Proposed operating budget for ${q}: $${budget.toLocaleString('en-US')}.`,
        {
          table: [
            ['Category', 'Amount'],
            ['Salaries', `$${Math.round(budget * 0.7).toLocaleString('en-US')}`],
            ['Infrastructure', `$${Math.round(budget * 0.2).toLocaleString('en-US')}`],
            ['Travel', `$${Math.round(budget * 0.1).toLocaleString('en-US')}`],
          ],
        },
        'Please send comments by Friday.',
      ],
    },
  ]
  return { documents }
}

const WORDS =
  'the team will review plan launch customer design budget quarter metric latency release report meeting action owner risk goal update draft feedback contract renewal onboarding pilot support'.split(
    ' ',
  )

/** The large world's Docs slice: 300 documents of 3–40 paragraphs each, owned across the five users. */
export function largeDocs(ctx: DemoContext): { documents: SeedDoc[] } {
  const rng = ctx.rng.fork('docs.large')
  const owners = ctx.users.map((u) => u.id)
  const sentence = () => {
    const n = rng.int(6, 16)
    const w = Array.from({ length: n }, () => rng.pick(WORDS)).join(' ')
    return `${w[0]!.toUpperCase()}${w.slice(1)}.`
  }
  const documents: SeedDoc[] = Array.from({ length: 300 }, (_, i) => {
    const content: SeedBlock[] = [{ text: `Document ${i + 1}: ${sentence().slice(0, 40)}`, style: 'HEADING_1' }]
    const paras = rng.int(3, 40)
    for (let k = 0; k < paras; k++) {
      if (k > 0 && k % 12 === 0) content.push({ bullets: [sentence(), sentence(), sentence()] })
      else content.push(Array.from({ length: rng.int(1, 4) }, sentence).join(' '))
    }
    return { title: `Doc ${i + 1} — ${rng.pick(WORDS)} ${rng.pick(WORDS)}`, owner: rng.pick(owners), content }
  })
  return { documents }
}
