import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { phrase, slack, volumeOf } from './kit.ts'

const AREAS = ['db', 'web', 'infra', 'billing', 'mobile', 'search']

/**
 * Slack: update an on-call user group's members as a manager announced (one joins, one leaves; a retracted proposal).
 */
export const slackUsergroupRotation: Family = {
  id: 'slack-usergroup-rotation',
  services: ['slack'],
  multiApp: false,
  antiGaming:
    "The named group must end with exactly the announced members (the joiner in, the leaver out, the others kept; the retracted proposal not applied); only that group's member list may change, so also editing the near-duplicate backup group, disabling any group (even if enabled again), wiping members or posting is collateral.",
  scenario:
    "A manager's announcement changes one group; an earlier proposal for the same group was retracted in its thread; a near-duplicate backup group exists.",
  generate(seed) {
    const r = rng(seed * 31337 + 506)
    const c = company(r, 6)
    const [mgr, joiner, leaver, stay1, stay2, proposed] = c.colleagues
    const [area, otherArea] = r.sample(AREAS, 2)
    const handle = `${area}-oncall`
    const ch = r.pick(['sre', 'oncall', 'ops', 'reliability', 'incident-mgmt'])
    const usergroups = r.shuffle([
      {
        handle,
        name: `${area!.toUpperCase()} on-call`,
        description: `Paged for ${area} incidents`,
        users: [leaver!.id, stay1!.id, stay2!.id],
      },
      {
        handle: `${area}-oncall-backup`,
        name: `${area!.toUpperCase()} on-call backup`,
        description: 'Second line',
        users: [stay1!.id, joiner!.id],
      },
      {
        handle: `${otherArea}-oncall`,
        name: `${otherArea!.toUpperCase()} on-call`,
        description: `Paged for ${otherArea} incidents`,
        users: [proposed!.id, stay2!.id],
      },
    ])
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: ch, topic: 'Reliability and on-call' },
      ],
      usergroups,
      messages: [
        {
          channel: ch,
          user: mgr!.id,
          text: `Proposal: ${proposed!.first} joins @${handle} next month?`,
          at: '-6d',
          key: 'prop',
        },
        {
          channel: ch,
          user: mgr!.id,
          text: `Scratch that, ${proposed!.first} stays on @${otherArea}-oncall.`,
          at: '-5d',
          thread: 'prop',
        },
        {
          channel: ch,
          user: mgr!.id,
          text: `Rotation change, effective now: ${joiner!.first} joins @${handle}, and ${leaver!.first} comes off it (parental leave). Everyone else stays.`,
          at: '-1d',
        },
        { channel: ch, user: joiner!.id, text: 'Happy to help!', at: '-1d' },
      ],
    }
    const instruction = phrase(seed, r, [
      `${mgr!.first} announced an on-call rotation change in #${ch}. Update the @${handle} user group in Slack to match.`,
      `Please apply the latest @${handle} rotation change that ${mgr!.first} posted in #${ch} to the Slack user group.`,
      `The @${handle} group is out of date - ${mgr!.first} posted who joins and who leaves in #${ch} yesterday. Fix the group's members.`,
      `Sync the Slack user group @${handle} with the rotation change ${mgr!.first} announced in #${ch} (ignore anything that was retracted).`,
      `${mgr!.first} changed who is on @${handle} - it's in #${ch}. Please make the user group's membership reflect that.`,
    ])
    const first = (p: { first: string }) => `members[real_name~=${p.first}].id`
    const look = [
      slack('conversations.list', {}, { ch: `channels[name=${ch}].id` }, true),
      slack('conversations.history', { channel: '{{ch}}' }, undefined, true),
      slack(
        'usergroups.list',
        { include_users: true },
        { grp: `usergroups[handle=${handle}].id`, bak: `usergroups[handle=${handle}-backup].id` },
        true,
      ),
      slack(
        'users.list',
        {},
        { j: first(joiner!), s1: first(stay1!), s2: first(stay2!), l: first(leaver!), p: first(proposed!) },
        true,
      ),
    ]
    const set = (users: string, grp = '{{grp}}') => slack('usergroups.users.update', { usergroup: grp, users })
    return {
      generatedBy: GENERATED_BY,
      id: `slack-usergroup-rotation-${seed}`,
      family: 'slack-usergroup-rotation',
      services: ['slack'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `slack-usergroup-rotation-${seed}`), slack: slackSeed },
      world: volumeOf(seed),
      oracle: {
        id: 'slack-usergroup-members',
        params: { actor: c.actor.id, handle, members: [stay1!.id, stay2!.id, joiner!.id] },
      },
      reference: [...look, set('{{s1}},{{s2}},{{j}}')],
      nearMisses: [
        { name: 'adds the joiner, keeps the leaver', program: [...look, set('{{l}},{{s1}},{{s2}},{{j}}')] },
        { name: 'also applies the retracted proposal', program: [...look, set('{{s1}},{{s2}},{{j}},{{p}}')] },
        {
          name: 'also rewrites the backup group',
          program: [...look, set('{{s1}},{{s2}},{{j}}'), set('{{s1}}', '{{bak}}')],
        },
        {
          // It ends as it was, but paged nobody in between: the log shows it (docs/decisions/0481).
          name: 'switches the backup group off and on again',
          program: [
            ...look,
            set('{{s1}},{{s2}},{{j}}'),
            slack('usergroups.disable', { usergroup: '{{bak}}' }),
            slack('usergroups.enable', { usergroup: '{{bak}}' }),
          ],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['slack', 'usergroups', 'near-duplicate'],
    }
  },
}
