import { Rng } from '../../envs/core/rng.ts'
import { benchWorld, timeIt, type BenchFigure } from './types.ts'

const WORDS = ['deploy', 'review', 'incident', 'roadmap', 'launch', 'customer', 'budget', 'design', 'hiring', 'metrics']

/** conversations.history (first page and a deep page) over a 20,000-message channel. */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(7)
  const users = ['ann', 'ben', 'cy']
  const messages = Array.from({ length: 20_000 }, (_, i) => ({
    key: `m${i}`,
    channel: 'firehose',
    user: rng.pick(users),
    text: Array.from({ length: 12 }, () => rng.pick(WORDS)).join(' '),
    at: `-${20_000 - i}m`,
    reactions: rng.chance(0.1) ? { eyes: [rng.pick(users)] } : undefined,
  }))
  const seed = {
    name: 'bench-slack',
    users: users.map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })),
    slack: { channels: [{ name: 'firehose', members: 'all' }], messages },
  }
  const { worlds, app, seedMs, headers } = await benchWorld(seed, 'slackUserToken')
  const call = async (method: string, query: string) =>
    (await app.request(`/api/${method}?${query}`, { headers })).json() as Promise<Record<string, any>>
  const channel = ((await call('conversations.list', 'limit=10')).channels as { id: string }[])[0]!.id
  const first = await timeIt(() => call('conversations.history', `channel=${channel}&limit=100`), 200, 20)
  const mid = (await call('conversations.history', `channel=${channel}&limit=999`)).messages.at(-1).ts as string
  const deep = await timeIt(() => call('conversations.history', `channel=${channel}&limit=100&latest=${mid}`), 200, 20)
  return [
    { name: 'slack.seed 20k messages', value: seedMs, unit: 'ms' },
    { name: 'slack conversations.history p50 (20k channel, limit=100)', value: first.p50, unit: 'ms', target: '<= 10' },
    { name: 'slack conversations.history p99 (20k channel, limit=100)', value: first.p99, unit: 'ms' },
    { name: 'slack conversations.history p50 (deep page via latest)', value: deep.p50, unit: 'ms', target: '<= 10' },
  ]
}
