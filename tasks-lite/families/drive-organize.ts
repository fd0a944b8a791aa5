import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const KINDS = [
  'statement of work',
  'kickoff notes',
  'invoice log',
  'security review',
  'renewal forecast',
  'contact list',
  'meeting minutes',
]
const FOLDER = 'application/vnd.google-apps.folder'

/**
 * Drive: move one client's loose files into its (existing) client folder; a similarly named client is the distractor.
 */
export const driveOrganize: Family = {
  id: 'drive-organize',
  services: ['drive'],
  multiApp: false,
  antiGaming:
    "Precision and recall over the folder's contents, and only the client's files may change parents: moving everything, the near-duplicate client's files, or any unrelated file anywhere (e.g. into the near-duplicate folder) fails; copies are new files (collateral) and trashing is an unrequested delete.",
  generate(seed) {
    const r = rng(seed * 373587883 + 41)
    const c = company(r)
    const client = c.customers[0]!.company.split(' ')[0]!
    const near = `${client}Tech`
    const kinds = r.sample(KINDS, 6)
    const mine = kinds
      .slice(0, r.int(2, 4))
      .map((k) => ({ name: `${client} - ${k}`, owner: c.actor.id, text: `${client} ${k}` }))
    const others = kinds.slice(4).map((k) => ({ name: `${near} - ${k}`, owner: c.actor.id, text: `${near} ${k}` }))
    const inside = `${client} - contract.pdf`
    const files = [
      { key: 'clients', name: 'Clients', mimeType: FOLDER, owner: c.actor.id },
      { key: 'cf', name: client, mimeType: FOLDER, owner: c.actor.id, parent: 'clients' },
      { name: near, mimeType: FOLDER, owner: c.actor.id, parent: 'clients' },
      { name: inside, mimeType: 'application/pdf', owner: c.actor.id, parent: 'cf', text: 'contract' },
      ...r.shuffle([...mine, ...others, { name: 'Team lunch ideas', owner: c.actor.id, text: 'tacos' }]),
    ]
    const get = (q: string, save: Record<string, string>) => ({
      tool: 'http_request',
      args: { method: 'GET', path: '/drive/v3/files', query: { q, fields: 'files(id,name,mimeType,parents)' } },
      save,
    })
    // Look first: find the client folder under Clients, then list every file whose name mentions the client (the
    // near-duplicate client's files show up too) with their parents, and move exactly the client's loose ones.
    const look = (loose: { name: string }[]) => [
      get(`name = 'Clients' and mimeType = '${FOLDER}'`, { clients: 'files.0.id' }),
      get(`'{{clients}}' in parents and mimeType = '${FOLDER}'`, { cf: `files[name=${client}].id` }),
      get(
        `name contains '${client}' and mimeType != '${FOLDER}'`,
        Object.fromEntries(
          loose.flatMap((f, i) => [
            [`f${i}`, `files[name=${f.name}].id`],
            [`p${i}`, `files[name=${f.name}].parents.0`],
          ]),
        ),
      ),
    ]
    const move = (loose: { name: string }[]) => [
      ...look(loose),
      ...loose.map((_, i) => ({
        tool: 'http_request',
        args: {
          method: 'PATCH',
          path: `/drive/v3/files/{{f${i}}}`,
          query: { addParents: '{{cf}}', removeParents: `{{p${i}}}` },
          body: {},
        },
      })),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `drive-organize-${seed}`,
      family: 'drive-organize',
      services: ['drive'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Some of our ${client} files are lying loose in My Drive. Move every one of them into the ${client} folder under Clients (move, don't copy), and leave everything else where it is.`,
          () =>
            `Under Clients in Drive there's a ${client} folder, but several ${client} files are still loose in My Drive. Move (not copy) all of them into that folder and leave other files alone.`,
          () =>
            `Tidy-up please: every loose ${client} file in My Drive belongs in Clients/${client}. Move them there (no copies), don't touch anything else.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-organize-${seed}`), drive: { files } },
      oracle: {
        id: 'drive-organize',
        params: {
          actor: c.actor.id,
          folderName: client,
          parentName: 'Clients',
          fileNames: [inside, ...mine.map((f) => f.name)],
        },
      },
      reference: move(mine),
      nearMisses: [
        { name: 'prefix match takes the near-duplicate client', program: move([...mine, ...others]) },
        { name: 'misses one file', program: move(mine.slice(1)) },
        {
          name: 'copies instead of moving',
          program: [
            ...look(mine),
            ...mine.map((_, i) => ({
              tool: 'http_request',
              args: { method: 'POST', path: `/drive/v3/files/{{f${i}}}/copy`, body: { parents: ['{{cf}}'] } },
            })),
          ],
        },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['drive', 'organize', 'near-duplicate'],
    }
  },
}
