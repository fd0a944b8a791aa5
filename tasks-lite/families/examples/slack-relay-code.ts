import { baseSeed, company, nearCode, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'

/**
 * The worked example of docs/authoring-tasks.md (not in the corpus): relay the current office door code, announced
 * in #office, to #front-desk. Near duplicates: last month's code from the same person and a colleague's wrong guess.
 */
export const slackRelayCode: Family = {
  id: 'example-slack-relay-code',
  services: ['slack'],
  multiApp: false,
  antiGaming:
    'Exactly one post, in #front-desk, with the current code and neither the stale code nor the guess ' +
    '(a post per candidate, or the right code plus a wrong one anywhere a reader sees, fails); posts in other ' +
    'channels and any other change are collateral.',
  scenario: 'The code is announced in #office (the newer of two announcements); a colleague guesses another one.',
  generate(seed) {
    const r = rng(seed * 91815541 + 7)
    const c = company(r)
    const [facilities, asker, other] = c.colleagues
    const floor = r.pick(['2nd', '3rd', '4th', '5th'])
    const code = String(r.int(10000, 99999))
    const stale = nearCode(r, code)
    let guess = nearCode(r, code)
    if (guess === stale) guess = String((Number(code) + 1111) % 100000).padStart(5, '0')
    const slack = {
      channels: [
        { name: 'general', general: true },
        { name: 'office', topic: 'Facilities announcements' },
        { name: 'front-desk', topic: 'Visitors and deliveries' },
      ],
      messages: [
        { channel: 'office', user: facilities!.id, text: `Door code for the ${floor} floor: ${stale}`, at: '-20d' },
        { channel: 'office', user: facilities!.id, text: `New ${floor} floor code from today: ${code}`, at: '-1d' },
        { channel: 'office', user: other!.id, text: `Is the ${floor} floor code still ${guess}?`, at: '-20h' },
        { channel: 'front-desk', user: asker!.id, text: `Could someone post the ${floor} floor code here?`, at: '-1h' },
      ],
    }
    // Look first: find the channels, read #office (the code is observed before it is posted), then post once.
    const find = {
      tool: 'http_request',
      args: { method: 'GET', path: '/api/conversations.list' },
      save: { office: 'channels[name=office].id', desk: 'channels[name=front-desk].id' },
    }
    const read = {
      tool: 'http_request',
      args: { method: 'GET', path: '/api/conversations.history', query: { channel: '{{office}}' } },
    }
    const post = (text: string, channel = '{{desk}}') => ({
      tool: 'http_request',
      args: { method: 'POST', path: '/api/chat.postMessage', body: { channel, text } },
    })
    return {
      generatedBy: GENERATED_BY,
      id: `example-slack-relay-code-${seed}`,
      family: 'example-slack-relay-code',
      services: ['slack'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `${asker!.first} needs the current ${floor} floor door code in #front-desk. ${facilities!.first} ` +
            'announced it in #office; post it there.',
          () => `Post the ${floor} floor door code in #front-desk for ${asker!.first}. It was announced in #office.`,
          () =>
            `In #front-desk, ${asker!.first} is asking for the ${floor} floor door code: find the current one in ` +
            '#office and post it.',
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `example-slack-relay-code-${seed}`), slack },
      oracle: {
        id: 'example-relay-code',
        params: { actor: c.actor.id, channel: 'front-desk', answer: code, wrong: [stale, guess] },
      },
      reference: [find, read, post(`The ${floor} floor door code is ${code}.`)],
      nearMisses: [
        { name: 'the stale code', program: [find, read, post(`The ${floor} floor door code is ${stale}.`)] },
        { name: 'the guess', program: [find, read, post(`The ${floor} floor door code is ${guess}.`)] },
        { name: 'right code, wrong channel', program: [find, read, post(`The door code is ${code}.`, '{{office}}')] },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['slack', 'near-duplicate', 'example'],
    }
  },
}
