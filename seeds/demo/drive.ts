import type { DemoContext } from './context.ts'
import { demoExternals } from './people.ts'

type SeedFile = Record<string, unknown> & { name: string; owner: string }

const pdf = (title: string) => `%PDF-1.4\n% ${title}\n%%EOF`

/**
 * Demo Drive: team folders with files, customer invoices, a payroll folder (confidential, owner-only), a
 * marketing folder shared "anyone with the link" (a lock-down candidate), domain-shared handbook, and
 * near-duplicate file names as distractors.
 */
export function demoDrive(
  ctx: DemoContext,
  scale = 1,
): { files: SeedFile[]; sharedDrives: Record<string, unknown>[]; accessProposals: Record<string, unknown>[] } {
  const rng = ctx.rng.fork('drive')
  const files: SeedFile[] = [
    {
      key: 'eng',
      name: 'Engineering',
      mimeType: 'application/vnd.google-apps.folder',
      owner: 'bob',
      permissions: [{ type: 'user', role: 'writer', user: 'carol' }],
    },
    {
      key: 'finance',
      name: 'Finance',
      mimeType: 'application/vnd.google-apps.folder',
      owner: 'erin',
      permissions: [
        { type: 'user', role: 'reader', user: 'dan' },
        { type: 'user', role: 'writer', user: 'alice' },
      ],
    },
    {
      key: 'invoices',
      name: 'Invoices 2026',
      mimeType: 'application/vnd.google-apps.folder',
      owner: 'erin',
      parent: 'finance',
    },
    {
      key: 'payroll',
      name: 'Payroll',
      mimeType: 'application/vnd.google-apps.folder',
      owner: 'erin',
      description: 'Confidential. Do not share outside Finance.',
    },
    {
      key: 'marketing',
      name: 'Marketing assets',
      mimeType: 'application/vnd.google-apps.folder',
      owner: 'dan',
      permissions: [
        { type: 'anyone', role: 'reader' },
        { type: 'user', role: 'writer', user: 'carol' },
        { type: 'user', role: 'reader', emailAddress: 'agency@brightpixel.test' },
      ],
    },
    {
      key: 'handbook',
      name: 'Company handbook.txt',
      mimeType: 'text/plain',
      owner: 'alice',
      text: 'Northwind Labs handbook. Expenses over $500 need approval from your manager.',
      permissions: [{ type: 'domain', role: 'reader', domain: ctx.domain, allowFileDiscovery: true }],
    },
    {
      name: 'Payroll March 2026.csv',
      mimeType: 'text/csv',
      owner: 'erin',
      parent: 'payroll',
      text: 'name,salary\nAlice Moreno,185000\nBob Okafor,172000\n',
    },
    {
      name: 'Architecture overview.txt',
      mimeType: 'text/plain',
      owner: 'bob',
      parent: 'eng',
      text: 'Services: api, worker, web. Data in Postgres; events through a queue.',
    },
    {
      name: 'On-call runbook.txt',
      mimeType: 'text/plain',
      owner: 'bob',
      parent: 'eng',
      text: 'Page the on-call engineer for sev1 incidents. Escalate after 15 minutes.',
    },
    {
      name: 'Brand guidelines.pdf',
      mimeType: 'application/pdf',
      owner: 'dan',
      parent: 'marketing',
      text: pdf('Brand guidelines'),
    },
    {
      name: 'Logo pack.zip',
      mimeType: 'application/zip',
      owner: 'carol',
      parent: 'marketing',
      base64: Buffer.from('PK\u0003\u0004 logo pack').toString('base64'),
    },
  ]
  demoExternals.slice(0, 4).forEach((ext, i) => {
    for (let k = 0; k < 2 * scale; k++) {
      const number = 1040 + i * 10 + k
      files.push({
        name: `invoice-${number}.pdf`,
        mimeType: 'application/pdf',
        owner: 'erin',
        parent: 'invoices',
        text: pdf(`Invoice ${number} — ${ext.company}, amount $${rng.int(12, 95) * 100}`),
        properties: { customer: ext.company, invoice: String(number) },
      })
    }
  })
  // Near-duplicates: a draft and a final version of the same deck.
  files.push({
    name: 'Q2 board deck (draft).pdf',
    mimeType: 'application/pdf',
    owner: 'alice',
    text: pdf('Q2 board deck draft'),
  })
  files.push({
    name: 'Q2 board deck (final).pdf',
    mimeType: 'application/pdf',
    owner: 'alice',
    text: pdf('Q2 board deck final'),
    starred: true,
  })
  for (let n = 0; n < 20 * scale; n++) {
    const owner = rng.pick(ctx.users).id
    files.push({
      name: `notes-${owner}-${n}.txt`,
      mimeType: 'text/plain',
      owner,
      text: `Notes ${n}: ${rng.pick(['pricing', 'hiring', 'roadmap', 'customer feedback', 'retro'])}.`,
      at: `-${rng.int(1, 60)}d`,
    })
  }
  // A shared drive for the launch team (Bob organizes, Carol manages content, Dan contributes), and Dan asking for
  // edit access to Bob's architecture folder.
  const sharedDrives = [
    {
      key: 'launch',
      name: 'Product Launch',
      creator: 'bob',
      members: [
        { user: 'carol', role: 'fileOrganizer' },
        { user: 'dan', role: 'writer' },
        { user: 'alice', role: 'reader' },
      ],
    },
  ]
  files.push({
    key: 'launchPlans',
    name: 'Plans',
    mimeType: 'application/vnd.google-apps.folder',
    owner: 'bob',
    parent: 'launch',
  })
  files.push({
    name: 'Launch checklist.txt',
    mimeType: 'text/plain',
    owner: 'carol',
    parent: 'launchPlans',
    text: 'Launch checklist: press release, pricing page, support macros, on-call rota.',
  })
  files.push({
    name: 'Press release draft.txt',
    mimeType: 'text/plain',
    owner: 'dan',
    parent: 'launch',
    text: 'Northwind Labs announces its new product. Embargoed until launch day.',
  })
  const accessProposals = [
    {
      file: 'eng',
      requester: 'dan',
      role: 'writer',
      message: 'I need to update the launch section of the architecture notes.',
    },
  ]
  return { files, sharedDrives, accessProposals }
}

/** About 2,000 files for the large world. */
export function largeDrive(ctx: DemoContext): ReturnType<typeof demoDrive> {
  return demoDrive(ctx, 100)
}
