import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'

const KINDS = ['statement of work', 'kickoff notes', 'invoice log', 'security review', 'renewal forecast', 'contact list', 'meeting minutes']
const FOLDER = 'application/vnd.google-apps.folder'

/** Drive: move one client's loose files into its (existing) client folder; a similarly named client is the distractor. */
export const driveOrganize: Family = {
  id: 'drive-organize',
  services: ['drive'],
  multiApp: false,
  antiGaming: 'Precision and recall over the folder\'s contents: moving everything (or every file whose name shares a prefix with the near-duplicate client) fails; copies are new files (collateral) and trashing is an unrequested delete.',
  generate(seed) {
    const r = rng(seed * 373587883 + 41)
    const c = company(r)
    const client = c.customers[0]!.company.split(' ')[0]!
    const near = `${client}Tech`
    const id = (s: string, i: number) => `${s}${seed.toString().padStart(4, '0')}${i}xxxxxxxxx`.slice(0, 18)
    const kinds = r.sample(KINDS, 6)
    const mine = kinds.slice(0, r.int(2, 4)).map((k, i) => ({ id: id('fileMine', i), name: `${client} - ${k}`, owner: c.actor.id, text: `${client} ${k}` }))
    const others = kinds.slice(4).map((k, i) => ({ id: id('fileNear', i), name: `${near} - ${k}`, owner: c.actor.id, text: `${near} ${k}` }))
    const files = [
      { id: id('fldClients', 0), key: 'clients', name: 'Clients', mimeType: FOLDER, owner: c.actor.id },
      { id: id('fldClient', 0), key: 'cf', name: client, mimeType: FOLDER, owner: c.actor.id, parent: 'clients' },
      { id: id('fldNear', 0), name: near, mimeType: FOLDER, owner: c.actor.id, parent: 'clients' },
      { id: id('fileInside', 0), name: `${client} - contract.pdf`, mimeType: 'application/pdf', owner: c.actor.id, parent: 'cf', text: 'contract' },
      ...r.shuffle([...mine, ...others, { id: id('fileMisc', 0), name: 'Team lunch ideas', owner: c.actor.id, text: 'tacos' }]),
    ]
    const root = { tool: 'http_request', args: { method: 'GET', path: '/drive/v3/files/root', query: { fields: 'id' } }, save: { root: 'id' } }
    const move = (fileIds: string[]) => [root, ...fileIds.map((f) => ({ tool: 'http_request', args: { method: 'PATCH', path: `/drive/v3/files/${f}`, query: { addParents: id('fldClient', 0), removeParents: '{{root}}' }, body: {} } }))]
    return {
      generatedBy: GENERATED_BY,
      id: `drive-organize-${seed}`,
      family: 'drive-organize',
      services: ['drive'],
      instruction: `Some of our ${client} files are lying loose in My Drive. Move every one of them into the ${client} folder under Clients (move, don't copy), and leave everything else where it is.`,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-organize-${seed}`), drive: { files } },
      oracle: { id: 'drive-organize', params: { folderName: client, fileIds: [id('fileInside', 0), ...mine.map((f) => f.id)] } },
      reference: move(mine.map((f) => f.id)),
      nearMisses: [
        { name: 'prefix match takes the near-duplicate client', program: move([...mine, ...others].map((f) => f.id)) },
        { name: 'misses one file', program: move(mine.slice(1).map((f) => f.id)) },
        { name: 'copies instead of moving', program: mine.map((f) => ({ tool: 'http_request', args: { method: 'POST', path: `/drive/v3/files/${f.id}/copy`, body: { parents: [id('fldClient', 0)] } } })) },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['drive', 'organize', 'near-duplicate'],
    }
  },
}
