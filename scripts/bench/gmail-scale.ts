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

/**
 * A 50,000-message mailbox (10,000 seeded messages, their rows copied four more times with new ids and dates):
 * the cost of messages.list must not follow the mailbox's size.
 */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(7)
  const messages = Array.from({ length: 10_000 }, (_, i) => ({
    from: rng.pick(['Priya <priya@acme.test>', 'Tom <tom@globex.test>', 'ben']),
    to: ['ann'],
    subject: `${rng.pick(WORDS)} ${rng.pick(WORDS)} #${i}`,
    text: Array.from({ length: 200 }, () => rng.pick(WORDS)).join(' '),
    at: `-${rng.int(0, 365)}d${rng.int(0, 23)}h`,
    unread: rng.chance(0.3),
  }))
  const seed = {
    name: 'bench-gmail-scale',
    users: [
      { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
      { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
    ],
    gmail: { messages },
  }
  const { worlds, app, headers } = await benchWorld(seed)
  const world = [...worlds.list()][0]!
  const sqlite = worlds.get(world.id)!.world.sqlite
  const cols = (
    sqlite.prepare('SELECT name FROM pragma_table_info(?)').all('gmail_messages') as { name: string }[]
  ).map((c) => c.name)
  const labelCols = ['user_id', 'message_id', 'label_id']
  for (let copy = 1; copy <= 4; copy++) {
    const pick = cols.map((c) =>
      c === 'id' ? `id || '${copy}'` : c === 'internal_date' ? `internal_date - ${copy} * 400 * 86400000` : c,
    )
    sqlite.exec(
      `INSERT INTO gmail_messages (${cols.join(', ')}) SELECT ${pick.join(', ')} FROM gmail_messages WHERE length(id) = 16`,
    )
    sqlite.exec(
      `INSERT INTO gmail_message_labels (${labelCols.join(', ')}) SELECT user_id, message_id || '${copy}', label_id FROM gmail_message_labels WHERE length(message_id) = 16`,
    )
  }
  const total = (
    sqlite.prepare("SELECT count(*) AS n FROM gmail_messages WHERE user_id = 'ann'").get() as { n: number }
  ).n
  const get = async (path: string) => (await app.request(path, { headers })).json() as Promise<Record<string, any>>
  const M = '/gmail/v1/users/me/messages'
  const plain = await timeIt(() => get(`${M}?prettyPrint=false`), 100, 10)
  const inbox = await timeIt(() => get(`${M}?labelIds=INBOX&prettyPrint=false`), 100, 10)
  const q = encodeURIComponent('from:priya invoice')
  const search = await timeIt(() => get(`${M}?q=${q}&prettyPrint=false`), 50, 5)
  // A whole address: one sender's entries of gmail_messages_by_from (docs/decisions/0405).
  const qAddress = encodeURIComponent('from:priya@acme.test subject:invoice')
  const byAddress = await timeIt(() => get(`${M}?q=${qAddress}&prettyPrint=false`), 50, 5)
  let token: string | undefined
  let pages = 0
  const t = performance.now()
  do {
    const page = await get(`${M}?maxResults=500&prettyPrint=false${token ? `&pageToken=${token}` : ''}`)
    token = page.nextPageToken
    pages++
  } while (token)
  const walk = performance.now() - t
  worlds.close()
  return [
    { name: `messages.list first page, no q (${total} messages) p50`, value: plain.p50, unit: 'ms', target: '≤ 5 ms' },
    { name: 'messages.list first page, labelIds=INBOX p50', value: inbox.p50, unit: 'ms', target: '≤ 5 ms' },
    { name: 'messages.list first page, q="from:priya invoice" p50', value: search.p50, unit: 'ms', target: '≤ 5 ms' },
    {
      name: 'messages.list first page, q="from:priya@acme.test subject:invoice" p50',
      value: byAddress.p50,
      unit: 'ms',
      target: '≤ 5 ms',
    },
    { name: `messages.list walk every page (${pages} × 500), per page`, value: walk / pages, unit: 'ms' },
  ]
}
