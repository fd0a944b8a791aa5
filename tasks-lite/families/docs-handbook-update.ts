import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const STREETS = [
  'Harbor Street',
  'Elm Avenue',
  'Market Square',
  'Riverside Drive',
  'Kings Road',
  'Mill Lane',
  'Station Road',
]
const CITIES = ['Portland', 'Leeds', 'Utrecht', 'Austin', 'Lyon', 'Graz']

/**
 * Docs: the handbook's own "Updates" section announces a new office address; fix the stale mentions in that doc only.
 */
export const docsHandbookUpdate: Family = {
  id: 'docs-handbook-update',
  services: ['docs', 'drive'],
  multiApp: false,
  antiGaming:
    'The final text must equal the original with only the address replaced (the same oracle as gmail-docs-correction), so deleting the paragraphs or appending the new address fails; the archived near-duplicate handbook must stay unchanged; so must the rest of the document (styles, tabs, headers and footers), so striking a paragraph through fails.',
  generate(seed) {
    const r = rng(seed * 982451653 + 37)
    const c = company(r)
    const city = r.pick(CITIES)
    const [s1, s2] = r.sample(STREETS, 2)
    const oldAddr = `${r.int(2, 99)} ${s1}, ${city}`
    const newAddr = `${r.int(100, 400)} ${s2}, ${city}`
    const title = `${c.org} team handbook`
    const content = (updates: boolean) => [
      { text: title, style: 'TITLE' as const },
      { text: 'Office', style: 'HEADING_1' as const },
      `Our office is at ${oldAddr}. Visitors sign in at reception.`,
      { text: 'Mail and deliveries', style: 'HEADING_1' as const },
      `Send packages to ${c.org}, ${oldAddr}, attention: Operations.`,
      { text: 'Working hours', style: 'HEADING_1' as const },
      'Core hours are 10:00-16:00 local time.',
      ...(updates
        ? [
            { text: 'Updates', style: 'HEADING_1' as const },
            `From next month the office moves to ${newAddr}; the rest of this handbook still needs to be updated.`,
          ]
        : []),
    ]
    const documents = [
      { title: `${title} (archive 2024)`, owner: c.actor.id, content: content(false) },
      { title, owner: c.actor.id, content: content(true) },
    ]
    // Look first: list the handbooks (the archived one is the near-duplicate), open the live one and read it.
    const find = (t: string) => [
      {
        tool: 'http_request',
        args: {
          method: 'GET',
          path: '/drive/v3/files',
          query: { q: `name contains 'handbook' and mimeType = 'application/vnd.google-apps.document'` },
        },
        save: { doc: `files[name=${t}].id` },
      },
      { tool: 'http_request', args: { method: 'GET', path: '/v1/documents/{{doc}}' } },
    ]
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
      id: `docs-handbook-update-${seed}`,
      family: 'docs-handbook-update',
      services: ['docs', 'drive'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Our team handbook in Google Docs announces an office move in its Updates section, but the rest of the handbook still gives the old address. Update the handbook accordingly; leave everything else as it is.`,
          () =>
            `The Updates section of the team handbook (a Google Doc) says we moved offices, yet other parts of the handbook still show the old address. Bring those up to date and leave the rest untouched.`,
          () =>
            `Please fix the team handbook in Docs: the office address is out of date in places, even though its Updates section already announces the move. Don't change anything else.`,
          () =>
            `Office move! The handbook's Updates section has it, the rest of the Google Doc doesn't yet. Make the handbook consistent with the announcement, nothing more.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `docs-handbook-update-${seed}`), docs: { documents } },
      oracle: { id: 'doc-correction', params: { actor: c.actor.id, title, wrong: oldAddr, right: newAddr } },
      reference: [...find(title), replace(oldAddr, newAddr)],
      nearMisses: [
        { name: 'edits the archive', program: [...find(`${title} (archive 2024)`), replace(oldAddr, newAddr)] },
        { name: 'replaces only the street', program: [...find(title), replace(s1!, s2!)] },
        {
          name: 'also updates the archive',
          program: [
            ...find(title),
            replace(oldAddr, newAddr),
            ...find(`${title} (archive 2024)`),
            replace(oldAddr, newAddr),
          ],
        },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['docs', 'drive', 'near-duplicate'],
    }
  },
}
