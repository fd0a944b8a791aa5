import { Rng } from '../../envs/core/rng.ts'
import { benchWorld, timeIt, type BenchFigure } from './types.ts'

const WORDS = [
  'invoice',
  'budget',
  'roadmap',
  'launch',
  'contract',
  'review',
  'meeting',
  'hiring',
  'design',
  'report',
  'travel',
  'offsite',
]

/** A 10,000-message mailbox: search latency and message reads. */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(42)
  const messages = Array.from({ length: 10_000 }, (_, i) => ({
    from: rng.pick(['Priya <priya@acme.test>', 'Tom <tom@globex.test>', 'ben', 'cy']),
    to: ['ann'],
    subject: `${rng.pick(WORDS)} ${rng.pick(WORDS)} #${i}`,
    text: Array.from({ length: 40 }, () => rng.pick(WORDS)).join(' '),
    at: `-${rng.int(0, 365)}d${rng.int(0, 23)}h`,
    unread: rng.chance(0.3),
    attachments: rng.chance(0.1) ? [{ filename: `doc-${i}.pdf`, mimeType: 'application/pdf', text: '%PDF' }] : [],
  }))
  const seed = {
    name: 'bench-gmail',
    users: [
      { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
      { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
      { id: 'cy', email: 'cy@example.com', name: 'Cy Ray' },
    ],
    gmail: { messages },
  }
  const { worlds, app, seedMs, headers } = await benchWorld(seed)
  const get = async (path: string) => (await app.request(path, { headers })).json() as Promise<Record<string, any>>
  const q = encodeURIComponent('from:priya invoice newer_than:90d')
  const search = await timeIt(() => get(`/gmail/v1/users/me/messages?q=${q}&prettyPrint=false`), 100, 10)
  const ids = ((await get('/gmail/v1/users/me/messages?maxResults=500')).messages as { id: string }[]).map((m) => m.id)
  let i = 0
  const n = 2000
  const start = performance.now()
  for (; i < n; i++) await get(`/gmail/v1/users/me/messages/${ids[i % ids.length]}?format=full&prettyPrint=false`)
  const perSecond = n / ((performance.now() - start) / 1000)
  worlds.close()
  return [
    { name: 'seed a 10,000-message mailbox', value: seedMs, unit: 'ms' },
    {
      name: 'messages.list q="from:priya invoice newer_than:90d" p50',
      value: search.p50,
      unit: 'ms',
      target: '≤ 20 ms',
    },
    { name: 'messages.list (same) p99', value: search.p99, unit: 'ms' },
    { name: 'messages.get format=full', value: perSecond, unit: 'req/s', target: '≥ 2000' },
  ]
}
