import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const TASKS = [
  'update the pricing page',
  'send the renewal quote to Globex',
  'fix the flaky login test',
  'book the offsite venue',
  'draft the Q3 hiring plan',
  'review the security questionnaire',
  'migrate the billing cron job',
  'prepare the board deck',
  'clean up the staging buckets',
  'write the launch blog post',
]

/**
 * Docs + Slack: post the latest meeting notes' action items in the team channel, mentioning owners, and set a reminder.
 */
export const docsSlackActionItems: Family = {
  id: 'docs-slack-action-items',
  services: ['docs', 'drive', 'slack'],
  multiApp: true,
  antiGaming:
    "Exactly one post, in #team, with every item and every owner mentioned and nobody else; items from the previous week's near-duplicate notes anywhere a reader sees fail (posting both documents fails); exactly one new reminder, for the actor, in the future; anything else is collateral.",
  generate(seed) {
    const r = rng(seed * 179424673 + 29)
    const c = company(r, 4)
    const tasks = r.sample(TASKS, 6)
    const owners = r.sample(c.colleagues, 3)
    const items = owners.map((o, i) => ({ owner: o.id, first: o.first, task: tasks[i]! }))
    const stale = tasks.slice(3).map((t, i) => ({ first: owners[i]!.first, task: t }))
    const week = r.int(10, 40)
    const notes = (w: number, list: { first: string; task: string }[]) => ({
      title: `Weekly sync notes - week ${w}`,
      owner: c.actor.id,
      content: [
        { text: `Weekly sync - week ${w}`, style: 'TITLE' as const },
        `Attendees: ${c.people.map((p) => p.first).join(', ')}`,
        { text: 'Discussion', style: 'HEADING_1' as const },
        "We reviewed last week's metrics and the launch timeline.",
        { text: 'Action items', style: 'HEADING_1' as const },
        { bullets: list.map((i) => `${i.first}: ${i.task}`) },
      ],
    })
    const slack = {
      channels: [
        { name: 'general', general: true },
        { name: 'team', purpose: 'Team updates' },
      ],
      messages: [
        { channel: 'team', user: owners[0]!.id, text: 'Notes from the weekly sync are in Drive as usual.', at: '-1h' },
      ],
    }
    const post = (list: { owner: string; task: string }[]) => [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/api/conversations.list' },
        save: { ch: 'channels[name=team].id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/api/users.list' },
        save: Object.fromEntries(
          list.map((i, n) => [`u${n}`, `members[real_name~=${c.people.find((p) => p.id === i.owner)!.first}].id`]),
        ),
      },
      {
        tool: 'http_request',
        args: {
          method: 'POST',
          path: '/api/chat.postMessage',
          body: {
            channel: '{{ch}}',
            text: `Action items from week ${week}:\n${list.map((i, n) => `• <@{{u${n}}}> ${i.task}`).join('\n')}`,
          },
        },
      },
    ]
    const remind = {
      tool: 'http_request',
      args: {
        method: 'POST',
        path: '/api/reminders.add',
        body: { text: 'Follow up on the weekly sync action items', time: 'tomorrow' },
      },
    }
    // Look first: list the sync notes (last week's are the near-duplicate), open the most recent and read it.
    const read = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/drive/v3/files', query: { q: `name contains 'Weekly sync notes'` } },
        save: { doc: `files[name=Weekly sync notes - week ${week}].id` },
      },
      { tool: 'http_request', args: { method: 'GET', path: '/v1/documents/{{doc}}' } },
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `docs-slack-action-items-${seed}`,
      family: 'docs-slack-action-items',
      services: ['docs', 'drive', 'slack'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Post the action items from the most recent weekly sync notes (a Google Doc) in the #team channel on Slack, mentioning each item's owner, and set yourself a Slack reminder to follow up on them tomorrow.`,
          () =>
            `Two things: set yourself a Slack reminder for tomorrow to follow up on the action items from our latest weekly sync, and post those items in #team with each owner mentioned. The notes are a Google Doc.`,
          () =>
            `Could you share the action items from the latest weekly sync notes in Google Docs with the #team channel on Slack? Mention whoever owns each one, and remind yourself on Slack to follow up tomorrow.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `docs-slack-action-items-${seed}`),
        docs: { documents: [notes(week - 1, stale), notes(week, items)] },
        slack,
      },
      oracle: {
        id: 'action-items',
        params: {
          actor: c.actor.id,
          channel: 'team',
          items: items.map(({ owner, task }) => ({ owner, task })),
          staleTasks: stale.map((s) => s.task),
          reminderIncludes: 'follow up',
        },
      },
      reference: [...read, ...post(items), remind],
      nearMisses: [
        {
          name: "uses last week's notes",
          program: [...post(stale.map((s, i) => ({ owner: items[i]!.owner, task: s.task }))), remind],
        },
        { name: 'no reminder', program: [...read, ...post(items)] },
        { name: 'drops an item', program: [...post(items.slice(0, 2)), remind] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['docs', 'drive', 'slack', 'reminders', 'near-duplicate'],
    }
  },
}
