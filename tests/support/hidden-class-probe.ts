// Run by tests/core/hidden-classes.test.ts as `node --allow-natives-syntax --import tsx <this file>`: builds objects
// the request path builds, many times (so that V8 has optimised the builders and their inline caches are warm), and
// prints, per builder, how many of 200 consecutive pairs got different hidden classes and how many of the 200 objects
// are in dictionary mode (read by hash lookups) (docs/decisions/0446).
import { parseMime } from '../../envs/gmail/mime/parse.ts'
import { toMessage } from '../../envs/gmail/map.ts'
import { eventRowOf } from '../../envs/calendar/store/events.ts'
import { contentToWire } from '../../envs/docs/model/wire.ts'
import type { Block } from '../../envs/docs/model/types.ts'

// The intrinsic only parses where the flag is given, so it is compiled at run time.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean
const fast = new Function('a', 'return %HasFastProperties(a)') as (a: unknown) => boolean

const mime = (i: number) =>
  Buffer.from(
    `From: a@example.com\r\nTo: b@example.com\r\nSubject: s ${i}\r\nContent-Type: multipart/alternative; ` +
      `boundary="b${i}"\r\n\r\n--b${i}\r\nContent-Type: text/plain\r\n\r\nhello ${i}\r\n--b${i}\r\n` +
      `Content-Type: text/html\r\n\r\n<p>hello ${i}</p>\r\n--b${i}--\r\n`,
  )
const view = (i: number) => ({
  id: `m${i}`,
  threadId: `t${i}`,
  internalDate: 1_767_000_000_000 + i,
  historyId: i,
  payload: '{"mimeType":"text/plain","headers":[],"body":{"size":0}}',
  snippet: `s${i}`,
  size: 100 + i,
})
const para = (i: number): Block[] => [{ t: 'p', style: {}, els: [{ t: 'text', text: `line ${i}\n`, style: {} }] }]

const builders: Record<string, (i: number) => unknown> = {
  'gmail parseMime (a part)': (i) => parseMime(mime(i)).parts[0],
  'gmail parseMime (the tree)': (i) => parseMime(mime(i)),
  'gmail toMessage minimal': (i) => toMessage(view(i), ['INBOX'], 'minimal'),
  'gmail toMessage full': (i) => toMessage(view(i), ['INBOX'], 'full'),
  'calendar event row': (i) => eventRowOf(Array.from({ length: 20 }, (_, k) => (k % 2 ? i : `v${k}`))),
  'docs paragraph on the wire': (i) => contentToWire(para(i), 1)[0],
  'docs text run on the wire': (i) => (contentToWire(para(i), 1)[0]!.paragraph as { elements: unknown[] }).elements[0],
}
const out: Record<string, { changes: number; dictionary: number }> = {}
for (const [name, build] of Object.entries(builders)) {
  for (let i = 0; i < 20_000; i++) build(i)
  let changes = 0
  let dictionary = 0
  let prev = build(0)
  for (let i = 1; i <= 200; i++) {
    const next = build(i)
    if (!sameMap(prev, next)) changes++
    if (!fast(next)) dictionary++
    prev = next
  }
  out[name] = { changes, dictionary }
}
console.log(JSON.stringify(out))
