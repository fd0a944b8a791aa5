import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { drive, driveList } from '../dds/kit.ts'
import { doneStep } from './kit.ts'

const FILES = ['vendor contract', 'pricing model', 'launch budget', 'hiring plan', 'partner agreement', 'board deck']

/**
 * Drive answer task: who besides the actor can edit a file. A reader and a commenter on the same file and the editor
 * of last year's copy are near-duplicates.
 */
export const driveSharingAnswer: Family = {
  id: 'drive-sharing-answer',
  services: ['drive'],
  multiApp: false,
  antiGaming:
    "Judged by the final-answer oracle: the answer must name the colleague with edit access and none of the near-duplicates (the reader, the commenter, the editor of last year's copy); changing any permission or file is collateral (sharing outside the domain: public_share / leak).",
  scenario:
    "The actor owns this year's file and last year's copy. This year's is shared with one editor, one commenter and one reader; last year's copy has another editor. The reference finds the file and lists its permissions.",
  generate(seed) {
    const r = rng(seed * 4057 + 31)
    const c = company(r, 5)
    const [editor, commenter, reader, oldEditor] = r.sample(c.colleagues, 4)
    const what = r.pick(FILES)
    const name = `${c.org} ${what} 2026`
    const files = [
      {
        name,
        mimeType: 'application/vnd.google-apps.document',
        owner: c.actor.id,
        text: `${what}: current version.`,
        permissions: r.shuffle([
          { type: 'user', role: 'writer', user: editor!.id },
          { type: 'user', role: 'commenter', user: commenter!.id },
          { type: 'user', role: 'reader', user: reader!.id },
        ]),
      },
      {
        name: `${c.org} ${what} 2025`,
        mimeType: 'application/vnd.google-apps.document',
        owner: c.actor.id,
        text: `${what}: last year.`,
        permissions: [{ type: 'user', role: 'writer', user: oldEditor!.id }],
      },
    ]
    const look = [
      driveList(`name = '${name}'`, { fid: 'files.0.id' }),
      drive('GET', 'files/{{fid}}/permissions', {
        query: { fields: 'permissions(id,type,role,emailAddress,displayName)' },
      }),
    ]
    const full = (p: { name: string }) => p.name
    return {
      generatedBy: GENERATED_BY,
      id: `drive-sharing-answer-${seed}`,
      family: 'drive-sharing-answer',
      services: ['drive'],
      instruction: persona(
        rng(seed * 4057 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 4057 + 101), [
          () => `Who besides me can edit "${name}" in Drive? Just the name.`,
          () => `I want to know who has edit rights on our ${what} for 2026 (the "${name}" file), other than me.`,
          () => `Check the sharing on "${name}": which colleague can make changes to it?`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `drive-sharing-answer-${seed}`), drive: { files } },
      oracle: {
        id: 'final-answer',
        params: {
          actor: c.actor.id,
          expected: { kind: 'name', value: editor!.first, aliases: [full(editor!), editor!.email] },
          wrong: [commenter!, reader!, oldEditor!].map((p) => ({ kind: 'name' as const, value: p.first })),
        },
      },
      reference: [...look, doneStep(`${full(editor!)} (${editor!.email}) can edit it.`)],
      nearMisses: [
        { name: 'the commenter', program: [...look, doneStep(full(commenter!))] },
        { name: "last year's editor", program: [...look, doneStep(`${full(oldEditor!)}`)] },
        {
          name: 'everyone it is shared with',
          program: [...look, doneStep(`${full(editor!)}, ${full(commenter!)} and ${full(reader!)}`)],
        },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['drive', 'answer', 'sharing', 'near-duplicate'],
    }
  },
}
