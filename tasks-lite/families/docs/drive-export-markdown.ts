import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { drive, driveList, phrase, volumeOf } from '../dds/kit.ts'
import { persona } from '../../world/phrasing.ts'

const FOLDER = 'application/vnd.google-apps.folder'
const SERVICES = ['Payments', 'Checkout', 'Search', 'Notifications', 'Billing', 'Login', 'Reporting', 'Shipping']
const PAGERS = ['PagerDuty', 'Opsgenie', 'the on-call bot']
const STEPS = [
  'Acknowledge the page and open an incident channel',
  'Check the error-rate dashboard for the last hour',
  'Roll back the latest deploy if it started the errors',
  'Fail over to the standby region',
  'Pause the nightly batch jobs',
  'Post a first update on the status page',
  'Ask the database team to check replication lag',
  'Turn off the newest feature flag',
]
const AFTER = ['File the postmortem within two working days', 'Close the status page entry', 'Thank the responders']

/**
 * Drive exports: save the current runbook (a Google Doc) as a Markdown file in the wiki's import folder. A draft of the
 * same runbook (other escalation contact and steps), another service's runbook and a same-named archive folder are
 * the near-duplicates; the Doc itself must stay where and as it is.
 */
export const driveExportMarkdown: Family = {
  id: 'drive-export-markdown',
  services: ['drive', 'docs'],
  multiApp: false,
  antiGaming:
    "Exactly one new file may appear: named as asked, a Markdown type, only in the import folder, and its text must be the current runbook's text with Markdown headings and a numbered list (files.export as text/markdown gives this; a plain-text export, the draft's or the other service's runbook, a copy of the Doc itself, or a file in another folder fail). Moving, renaming, sharing or editing the Doc, a second file or anything else is collateral.",
  scenario:
    'My Drive holds the service\'s runbook Doc (title, owner line, Escalation, Steps as a numbered list, After the incident), its older draft and another service\'s runbook; a colleague shares the "Wiki import" folder with the actor as writer, and the actor\'s own "Wiki import (archive)" folder is a near-duplicate. The agent finds the Doc and the folder, exports the Doc as text/markdown, creates the .md file in the folder and uploads the export as its content.',
  generate(seed) {
    const r = rng(seed * 40503 + 977)
    const c = company(r)
    const [svc, otherSvc] = r.sample(SERVICES, 2)
    const [lead, draftLead, wikiOwner] = c.colleagues
    const pager = r.pick(PAGERS)
    const minutes = r.pick([5, 10, 15])
    const steps = r.sample(STEPS, 4)
    const draftSteps = [...steps.slice(0, 2), r.pick(STEPS.filter((s) => !steps.includes(s))), steps[3]!]
    const title = (s: string, draft = false) => `${s} incident runbook${draft ? ' (draft)' : ''}`
    const fileName = `${svc!.toLowerCase()}-incident-runbook.md`
    const runbook = (s: string, who: { name: string }, wait: number, list: string[], draft = false) => ({
      title: title(s, draft),
      owner: c.actor.id,
      content: [
        { text: title(s), style: 'TITLE' as const },
        `Owner: ${s} platform team. Keep this page current after every incident.`,
        { text: 'Escalation', style: 'HEADING_1' as const },
        `Page the on-call engineer through ${pager}. If nobody answers within ${wait} minutes, call ${who.name}.`,
        { text: 'Steps', style: 'HEADING_1' as const },
        { bullets: list, numbered: true },
        { text: 'After the incident', style: 'HEADING_1' as const },
        { bullets: AFTER },
      ],
    })
    const documents = [
      runbook(svc!, draftLead!, minutes + 5, draftSteps, true),
      runbook(otherSvc!, lead!, minutes, r.sample(STEPS, 4)),
      runbook(svc!, lead!, minutes, steps),
    ]
    const files = [
      {
        key: 'wiki',
        name: 'Wiki import',
        mimeType: FOLDER,
        owner: wikiOwner!.id,
        permissions: [{ type: 'user', role: 'writer', user: c.actor.id }],
      },
      { name: 'Wiki import (archive)', mimeType: FOLDER, owner: c.actor.id },
      {
        name: `${svc!.toLowerCase()}-incident-runbook-2025.md`,
        mimeType: 'text/markdown',
        owner: c.actor.id,
        at: '-200d',
        text: `# ${title(svc!)}\n\nSuperseded.\n`,
      },
    ]
    const instruction = persona(
      rng(seed * 40503 + 983),
      c.actor,
      c.org,
      phrase(seed, r, [
        `We're moving our runbooks into the engineering wiki, which imports Markdown files from the Drive folder "Wiki import" (${wikiOwner!.name} shared it with me). Export the ${svc} incident runbook (the current Doc, not the draft) as Markdown and save it in that folder as ${fileName}. Leave the Doc itself where it is.`,
        `Please put a Markdown copy of "${title(svc!)}" into the shared "Wiki import" folder, named ${fileName}, so the wiki can pick it up. Use the Google Doc's own Markdown export (headings and numbered steps must survive), and don't move or change the Doc.`,
        `Drive housekeeping: the wiki sync reads .md files from "Wiki import". Save our current ${svc} incident runbook there as ${fileName} (a Markdown export of the Doc). The draft version and the archive folder are not what they want.`,
      ]),
    )
    const find = (t: string) =>
      driveList(`name contains 'incident runbook' and mimeType = 'application/vnd.google-apps.document'`, {
        doc: `files[name=${t}].id`,
      })
    const folder = (name: string) => driveList(`name = '${name}' and mimeType = '${FOLDER}'`, { folder: 'files.0.id' })
    const exportAs = (mimeType: string) =>
      drive('GET', 'files/{{doc}}/export', { query: { mimeType } }, { md: '$text' })
    const save = (o: { parents?: boolean; mimeType?: string } = {}) => [
      drive(
        'POST',
        'files',
        {
          body: {
            name: fileName,
            mimeType: o.mimeType ?? 'text/markdown',
            ...(o.parents === false ? {} : { parents: ['{{folder}}'] }),
          },
        },
        { fid: 'id' },
      ),
      {
        tool: 'http_request',
        args: {
          method: 'PATCH',
          path: '/upload/drive/v3/files/{{fid}}',
          query: { uploadType: 'media' },
          body: '{{md}}',
        },
      },
    ]
    const program = (o: { t?: string; as?: string; parents?: boolean; folderName?: string } = {}) => [
      find(o.t ?? title(svc!)),
      folder(o.folderName ?? 'Wiki import'),
      exportAs(o.as ?? 'text/markdown'),
      ...save({ parents: o.parents }),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `drive-export-markdown-${seed}`,
      family: 'drive-export-markdown',
      services: ['drive', 'docs'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-export-markdown-${seed}`), drive: { files }, docs: { documents } },
      world: volumeOf(seed),
      oracle: {
        id: 'drive-export-markdown',
        params: {
          actor: c.actor.id,
          doc: title(svc!),
          folder: 'Wiki import',
          fileName,
          headings: ['Escalation', 'Steps', 'After the incident'],
          steps,
        },
      },
      reference: program(),
      nearMisses: [
        { name: 'exports the draft', program: program({ t: title(svc!, true) }) },
        { name: "exports the other service's runbook", program: program({ t: title(otherSvc!) }) },
        { name: 'saves a plain-text export', program: program({ as: 'text/plain' }) },
        { name: 'saves it in the archive folder', program: program({ folderName: 'Wiki import (archive)' }) },
        { name: 'saves it in My Drive', program: program({ parents: false }) },
        {
          name: 'moves the Doc into the folder instead',
          program: [
            find(title(svc!)),
            folder('Wiki import'),
            drive('PATCH', 'files/{{doc}}', { query: { addParents: '{{folder}}' }, body: {} }),
          ],
        },
        {
          name: 'copies the Doc into the folder',
          program: [
            find(title(svc!)),
            folder('Wiki import'),
            drive('POST', 'files/{{doc}}/copy', { body: { name: fileName, parents: ['{{folder}}'] } }),
          ],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['drive', 'docs', 'export', 'folders', 'near-duplicate'],
    }
  },
}
