import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { drive, driveList, phrase, volumeOf } from './kit.ts'

const FOLDER = 'application/vnd.google-apps.folder'
const UNITS = [
  {
    drive: 'Legal',
    folders: ['Signed contracts', 'Executed agreements'],
    doc: (x: string) => `${x} MSA - signed.pdf`,
    near: (x: string) => `${x} MSA - draft v3.pdf`,
    what: (x: string) => `the signed ${x} MSA`,
  },
  {
    drive: 'Finance',
    folders: ['Paid invoices', 'Settled invoices'],
    doc: (x: string) => `${x} invoice 2026-02 - paid.pdf`,
    near: (x: string) => `${x} invoice 2026-02 - unpaid reminder.pdf`,
    what: (x: string) => `${x}'s paid February invoice`,
  },
  {
    drive: 'People Ops',
    folders: ['Offer letters', 'Signed offers'],
    doc: (x: string) => `Offer letter - ${x} - countersigned.pdf`,
    near: (x: string) => `Offer letter - ${x} - template.pdf`,
    what: (x: string) => `${x}'s countersigned offer letter`,
  },
]

/**
 * Drive: move a file from My Drive into the right folder of the right shared drive (near-duplicate folders and files).
 */
export const driveSharedDriveMove: Family = {
  id: 'drive-shared-drive-move',
  services: ['drive'],
  multiApp: false,
  antiGaming:
    "The named file must end with the shared drive's folder as its only parent and the same bytes; the same-named folder in the archive shared drive and in My Drive are near-duplicates; copying instead of moving, moving the near-duplicate file too or any other change is collateral, trashing is a delete.",
  scenario:
    'My Drive holds the file, its near-duplicate (a draft/template) and a folder of the same name; an archive shared drive holds another folder of that name.',
  generate(seed) {
    const r = rng(seed * 104723 + 507)
    const c = company(r)
    const unit = r.pick(UNITS)
    const u = { ...unit, folder: r.pick(unit.folders) }
    const who =
      u.drive === 'People Ops'
        ? r.pick([
            'Jordan Blake',
            'Sam Ortiz',
            'Riley Chen',
            'Avery Moss',
            'Casey Nguyen',
            'Jamie Rossi',
            'Robin Adeyemi',
            'Taylor Kim',
          ])
        : r.pick(c.customers).company
    const other = u.drive === 'People Ops' ? 'Morgan Lee' : c.customers.find((x) => x.company !== who)!.company
    const pdf = (s: string) => Buffer.from(`%PDF-1.4\n% ${s}\n%%EOF\n`).toString('base64')
    const archive = `${u.drive} Archive`
    const sharedDrives = r.shuffle([
      {
        key: 'main',
        name: u.drive,
        creator: c.colleagues[0]!.id,
        members: [{ user: c.actor.id, role: 'writer' as const }],
      },
      {
        key: 'arch',
        name: archive,
        creator: c.colleagues[0]!.id,
        members: [{ user: c.actor.id, role: 'writer' as const }],
      },
    ])
    const files = [
      { key: 'f1', name: u.folder, mimeType: FOLDER, owner: c.colleagues[0]!.id, parent: 'main' },
      { name: 'Precedents', mimeType: FOLDER, owner: c.colleagues[0]!.id, parent: 'main' },
      { name: u.folder, mimeType: FOLDER, owner: c.colleagues[0]!.id, parent: 'arch' },
      { name: u.folder, mimeType: FOLDER, owner: c.actor.id },
      {
        name: u.doc(other),
        mimeType: 'application/pdf',
        owner: c.colleagues[0]!.id,
        parent: 'f1',
        base64: pdf(other),
        at: '-20d',
      },
      {
        name: u.doc(who),
        mimeType: 'application/pdf',
        owner: c.actor.id,
        base64: pdf(`${who} ${r.int(1000, 9999)}`),
        at: '-1d',
      },
      { name: u.near(who), mimeType: 'application/pdf', owner: c.actor.id, base64: pdf(`${who} draft`), at: '-9d' },
    ]
    const req = c.colleagues[1]!.first
    const instruction = phrase(seed, r, [
      `Move ${u.what(who)} from my Drive into the "${u.folder}" folder of the ${u.drive} shared drive.`,
      `${u.what(who)[0]!.toUpperCase()}${u.what(who).slice(1)} is still sitting in My Drive. ${req} wants it filed under ${u.folder} in our ${u.drive} shared drive (the live drive, not the archive).`,
      `Please put ${u.what(who)} where it belongs: the ${u.drive} shared drive, folder "${u.folder}". Move it, don't copy it (${req} needs it there).`,
      `Tidy-up request: ${u.what(who)} should live in ${u.drive} (shared drive) under "${u.folder}", not in my own Drive. Can you move it?`,
      `Could you file ${u.what(who)} into the ${u.folder} folder on the ${u.drive} shared drive? It's currently in My Drive and ${req} can't find it.`,
    ])
    const all = { supportsAllDrives: true }
    const look = [
      drive('GET', 'drives', {}, { main: `drives[name=${u.drive}].id`, arch: `drives[name=${archive}].id` }),
      drive(
        'GET',
        'files',
        {
          query: {
            corpora: 'drive',
            driveId: '{{main}}',
            includeItemsFromAllDrives: true,
            supportsAllDrives: true,
            q: `name = '${u.folder}' and mimeType = '${FOLDER}'`,
          },
        },
        { dest: 'files.0.id' },
      ),
      driveList(`name contains '${who.split(' ')[0]}' and 'me' in owners`, {
        file: `files[name=${u.doc(who)}].id`,
        near: `files[name=${u.near(who)}].id`,
      }),
      drive('GET', 'files/{{file}}', { query: { fields: 'id,name,parents', ...all } }, { from: 'parents.0' }),
    ]
    const move = (file: string, dest = '{{dest}}') =>
      drive('PATCH', `files/${file}`, { query: { addParents: dest, removeParents: '{{from}}', ...all }, body: {} })
    const archLook = drive(
      'GET',
      'files',
      {
        query: {
          corpora: 'drive',
          driveId: '{{arch}}',
          includeItemsFromAllDrives: true,
          supportsAllDrives: true,
          q: `name = '${u.folder}'`,
        },
      },
      { archDest: 'files.0.id' },
    )
    return {
      generatedBy: GENERATED_BY,
      id: `drive-shared-drive-move-${seed}`,
      family: 'drive-shared-drive-move',
      services: ['drive'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-shared-drive-move-${seed}`), drive: { sharedDrives, files } },
      world: volumeOf(seed),
      oracle: {
        id: 'drive-move-into',
        params: {
          actor: c.actor.id,
          fileName: u.doc(who),
          folderName: u.folder,
          driveName: u.drive,
          wrongFiles: [u.near(who)],
        },
      },
      reference: [...look, move('{{file}}')],
      nearMisses: [
        { name: "into the archive drive's folder", program: [...look, archLook, move('{{file}}', '{{archDest}}')] },
        { name: 'moves the draft too', program: [...look, move('{{file}}'), move('{{near}}')] },
        {
          name: 'copies instead of moving',
          program: [...look, drive('POST', 'files/{{file}}/copy', { query: all, body: { parents: ['{{dest}}'] } })],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['drive', 'shared-drives', 'near-duplicate'],
    }
  },
}
