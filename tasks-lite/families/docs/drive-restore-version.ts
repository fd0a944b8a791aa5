import { createHash } from 'node:crypto'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { drive, driveList, phrase, volumeOf } from '../dds/kit.ts'

const SHEETS = ['Price list', 'Rate card', 'Vendor rates', 'Discount tiers', 'Service catalogue', 'Shipping rates']
const ITEMS = [
  'Starter',
  'Team',
  'Business',
  'Enterprise',
  'Support add-on',
  'Onboarding',
  'Training day',
  'Extra seat',
]
const sha = (s: string) => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex')

/**
 * Drive revisions: a shared CSV was overwritten by mistake; put back the version saved before that edit (download
 * that revision, upload it as the new content). Older versions and a near-duplicate file of another year are there too.
 */
export const driveRestoreVersion: Family = {
  id: 'drive-restore-version',
  services: ['drive'],
  multiApp: false,
  antiGaming:
    "The file must hold the revision saved before the bad edit: its bytes (sha256), or its text typed out again with only line endings or a final newline differing; the oldest version, the bad edit itself, a retyped approximation (one price off) or the other year's file all fail; the file keeps its name, type and place, and no other file may change. Deleting a revision is an unrequested delete.",
  scenario:
    "The CSV has three versions: the original, a colleague's correction last week (the one to restore) and yesterday's accidental overwrite by another colleague; last year's file has the same name with another year. The agent lists the file's revisions (who saved each, when), downloads the right one with alt=media and uploads it with uploadType=media.",
  generate(seed) {
    const r = rng(seed * 69069 + 1013)
    const c = company(r)
    const [fixer, clobberer] = c.colleagues
    const sheet = r.pick(SHEETS)
    const items = r.sample(ITEMS, 4)
    const csv = (prices: number[]) =>
      ['item,price_usd', ...items.map((it, i) => `${it},${prices[i]}`)].join('\n') + '\n'
    const original = items.map(() => r.int(10, 90) * 10)
    const fixed = r.int(0, 3)
    const corrected = original.map((p, i) => (i === fixed ? p + 50 : p))
    const good = csv(corrected)
    const bad = ['item,price_usd', ...items.map((it) => `${it},TBD`)].join('\n') + '\n'
    const name = `${sheet} 2026.csv`
    const files = [
      {
        name,
        mimeType: 'text/csv',
        owner: c.actor.id,
        text: bad,
        at: '-1d',
        modifiedBy: clobberer!.id,
        permissions: [
          { type: 'user', role: 'writer', user: fixer!.id },
          { type: 'user', role: 'writer', user: clobberer!.id },
        ],
        history: [
          { text: csv(original), at: '-30d' },
          { text: good, at: '-7d', by: fixer!.id },
        ],
      },
      {
        name: `${sheet} 2025.csv`,
        mimeType: 'text/csv',
        owner: c.actor.id,
        text: csv(original.map((p) => p - 10)),
        at: '-300d',
      },
    ]
    const instruction = phrase(seed, r, [
      `Someone overwrote our "${name}" in Drive yesterday and all the prices now say TBD. Restore the version ${fixer!.name} saved last week (before the overwrite). Don't touch any other file.`,
      `The ${sheet.toLowerCase()} CSV for 2026 got clobbered yesterday. Please roll "${name}" back to ${fixer!.name.split(' ')[0]}'s version from last week; leave everything else as is.`,
      `Drive: "${name}" lost its prices in yesterday's edit. Put back the revision that ${fixer!.name} saved about a week ago (the file should read exactly as it did then).`,
    ])
    const program = (pick: string) => [
      driveList(`name contains '${sheet}'`, { fid: `files[name=${name}].id` }),
      drive(
        'GET',
        'files/{{fid}}/revisions',
        { query: { fields: 'revisions(id,modifiedTime,lastModifyingUser(displayName,emailAddress))' } },
        { rev: pick },
      ),
      { ...drive('GET', 'files/{{fid}}/revisions/{{rev}}', { query: { alt: 'media' } }), save: { content: '$text' } },
      {
        tool: 'http_request',
        args: {
          method: 'PATCH',
          path: '/upload/drive/v3/files/{{fid}}',
          query: { uploadType: 'media' },
          body: '{{content}}',
        },
      },
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `drive-restore-version-${seed}`,
      family: 'drive-restore-version',
      services: ['drive'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-restore-version-${seed}`), drive: { files } },
      world: volumeOf(seed),
      oracle: {
        id: 'drive-restore-version',
        params: { actor: c.actor.id, file: name, sha256: sha(good), wrong: [sha(csv(original)), sha(bad)] },
      },
      reference: program(`revisions[lastModifyingUser.emailAddress=${fixer!.email}].id`),
      nearMisses: [
        { name: 'restores the original version', program: program('revisions.0.id') },
        { name: 'restores the latest version (no change)', program: program('revisions.-1.id') },
        {
          // The text typed out again is the version (a lost final newline too: 0466); a price off by one is not.
          name: 'retypes the prices, the last one off by one',
          program: [
            ...program('revisions.0.id').slice(0, 1),
            {
              tool: 'http_request',
              args: {
                method: 'PATCH',
                path: '/upload/drive/v3/files/{{fid}}',
                query: { uploadType: 'media' },
                body: good.replace(/(\d)\n$/, (m, d: string) => `${(Number(d) + 1) % 10}\n`),
              },
            },
          ],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['drive', 'revisions', 'near-duplicate'],
    }
  },
}
