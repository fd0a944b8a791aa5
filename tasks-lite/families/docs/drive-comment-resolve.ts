import { baseSeed, company, rng, GENERATED_BY, type Family, MONTHS } from '../common.ts'
import { docs, drive, driveList, phrase, volumeOf } from '../dds/kit.ts'

const PRODUCTS = ['Aurora', 'Basalt', 'Cirrus', 'Dynamo', 'Eclipse', 'Fjord', 'Gemini', 'Helix', 'Ion', 'Juniper']
const DOC = 'application/vnd.google-apps.document'

/**
 * Drive comments: answer a colleague's question left as a comment on a Google Doc with a fact from another Drive file,
 * and resolve that comment — other open comments (one from a second colleague on the same doc, the same question on
 * another product's plan) stay open and unanswered.
 */
export const driveCommentResolve: Family = {
  id: 'drive-comment-resolve',
  services: ['drive', 'docs'],
  multiApp: false,
  antiGaming:
    "Only the one comment may gain a reply and be resolved: resolving every open comment, answering the same question on the other product's plan, or replying without resolving fails; the reply must carry the confirmed date (the tentative date and the other product's date are wrong answers), and deleting comments or editing the documents is collateral.",
  scenario:
    "The launch plan Doc has the target question, a second colleague's open comment and an old resolved thread; another product's plan has the same question from the same colleague. A launch calendar text file lists both products, one with a superseded tentative date. The agent lists the docs, reads the calendar file, lists comments (fields are required) and posts one reply with action resolve.",
  generate(seed) {
    const r = rng(seed * 40503 + 977)
    const c = company(r)
    const [asker, other] = c.colleagues
    const [product, otherProduct] = r.sample(PRODUCTS, 2)
    const day = (d: number, m: number) => ({
      text: `${MONTHS[m]} ${d}, 2026`,
      iso: `2026-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
    })
    const month = r.int(4, 9)
    const confirmed = day(r.int(2, 27), month)
    const tentative = day(r.int(2, 27), month - 1)
    const otherDate = day(r.int(2, 27), month + 1)
    const taskId = `drive-comment-resolve-${seed}`
    const plan = (p: string) => `${p} launch plan`
    const question = r.pick([
      'What is the confirmed launch date? The plan still says TBD.',
      'Do we have a confirmed launch date yet? Marketing needs it for the emails.',
      'Can someone fill in the launch date here? TBD is blocking the press schedule.',
    ])
    const body = (p: string) =>
      [plan(p), 'Launch date: TBD', 'Owner: Product Ops', 'Pricing', 'Channels: email, blog, partners'].join('\n')
    const docFile = (p: string, comments: unknown[]) => ({
      name: plan(p),
      mimeType: DOC,
      owner: c.actor.id,
      text: body(p),
      permissions: [
        { type: 'user', role: 'commenter', user: asker!.id },
        { type: 'user', role: 'commenter', user: other!.id },
      ],
      comments,
    })
    const files = [
      docFile(otherProduct!, [{ author: asker!.id, content: question, quoted: 'Launch date: TBD', at: '-1d' }]),
      docFile(product!, [
        {
          author: other!.id,
          content: 'Typo in the heading: "Lauch".',
          at: '-6d',
          replies: [{ author: c.actor.id, content: 'Fixed, thanks.', action: 'resolve', at: '-5d' }],
        },
        { author: asker!.id, content: question, quoted: 'Launch date: TBD', at: '-2d' },
        {
          author: other!.id,
          content: 'Should we add the pricing table from the sales deck here?',
          quoted: 'Pricing',
          at: '-1d',
        },
      ]),
      {
        name: 'Launch calendar 2026.txt',
        mimeType: 'text/plain',
        owner: c.actor.id,
        text: [
          'Launch calendar 2026 (owned by Product Ops)',
          `${product}: ${tentative.text} (tentative, superseded)`,
          `${otherProduct}: ${otherDate.text} (confirmed)`,
          `${product}: ${confirmed.text} (confirmed)`,
        ].join('\n'),
      },
    ]
    const instruction = phrase(seed, r, [
      `${asker!.name} left a comment on the ${plan(product!)} doc asking for the launch date. Reply to that comment with the confirmed date from the launch calendar in Drive and resolve it. Don't touch the other comments.`,
      `Please answer ${asker!.name.split(' ')[0]}'s question on the ${product} launch plan (it's a comment on the Google Doc): look up the confirmed ${product} launch date in our launch calendar file, reply with it, and mark the comment resolved. Other open comments stay as they are.`,
      `Comment triage on "${plan(product!)}": the open question from ${asker!.name} about the launch date needs a reply with the confirmed date (see the launch calendar in Drive) and then resolving. Leave everything else in the doc and its comments alone.`,
    ])
    const fields = 'comments(id,content,resolved,author(displayName,emailAddress),replies(id,content))'
    const look = (p: string) => [
      driveList(`name contains 'launch' and trashed = false`, {
        doc: `files[name=${plan(p)}].id`,
        cal: 'files[name=Launch calendar 2026.txt].id',
      }),
      drive('GET', 'files/{{cal}}', { query: { alt: 'media' } }),
      drive(
        'GET',
        'files/{{doc}}/comments',
        { query: { fields } },
        { comment: `comments[author.emailAddress=${asker!.email}].id`, otherComment: `comments[content~=pricing].id` },
      ),
    ]
    const reply = (text: string, action?: string, comment = '{{comment}}') =>
      drive('POST', `files/{{doc}}/comments/${comment}/replies`, {
        query: { fields: 'id,action' },
        body: { content: text, ...(action ? { action } : {}) },
      })
    const answer = (d: string) => `The confirmed ${product} launch date is ${d}.`
    return {
      generatedBy: GENERATED_BY,
      id: taskId,
      family: 'drive-comment-resolve',
      services: ['drive', 'docs'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, taskId), drive: { files } },
      world: volumeOf(seed),
      oracle: {
        id: 'drive-comment-resolve',
        params: {
          actor: c.actor.id,
          actorEmail: c.actor.email,
          file: plan(product!),
          asker: asker!.email,
          question,
          answers: [confirmed.text, confirmed.iso],
          wrong: [tentative.text, tentative.iso, otherDate.text, otherDate.iso],
        },
      },
      reference: [...look(product!), reply(answer(confirmed.text), 'resolve')],
      nearMisses: [
        { name: 'replies without resolving', program: [...look(product!), reply(answer(confirmed.text))] },
        { name: 'gives the tentative date', program: [...look(product!), reply(answer(tentative.text), 'resolve')] },
        {
          name: "answers on the other product's plan",
          program: [...look(otherProduct!), reply(answer(confirmed.text), 'resolve')],
        },
        {
          name: 'resolves the pricing comment too',
          program: [
            ...look(product!),
            reply(answer(confirmed.text), 'resolve'),
            reply('', 'resolve', '{{otherComment}}'),
          ],
        },
        { name: 'resolves without answering', program: [...look(product!), reply('', 'resolve')] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['drive', 'comments', 'docs', 'near-duplicate'],
    }
  },
}
