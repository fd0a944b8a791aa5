import { nextTurn } from '../envs/core/turns.ts'
import { elementOf } from '../envs/core/json-text.ts'

/**
 * A long listing (2,500 calendar instances, 1,000 Drive files: megabytes of pretty-printed JSON) is not built as one
 * string in one turn of the event loop: its biggest top-level array is serialised a chunk of elements at a time
 * while the body streams out, and other requests get a turn between chunks. The bytes are exactly what
 * `JSON.stringify(value, null, indent)` gives (tests/security/stall.test.ts compares them).
 */

/** Arrays shorter than this are serialised in one go (the common case: nothing changes). */
export const STREAM_MIN_ELEMENTS = 200
/** Elements serialised per chunk. */
const CHUNK = 100

/** The top-level key holding the longest array of at least STREAM_MIN_ELEMENTS elements, if any. */
function bigArrayKey(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  let best: string | undefined
  let len = STREAM_MIN_ELEMENTS - 1
  // Own enumerable string keys in Object.entries' order, without an array of pairs per response.
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k]
    if (Array.isArray(v) && v.length > len) {
      best = k
      len = v.length
    }
  }
  return best
}

/**
 * `JSON.stringify(value, null, indent)` as a stream of chunks when `value` has a long top-level array, else
 * undefined (the caller sends the plain string).
 */
export function jsonStream(value: unknown, indent: number | undefined): ReadableStream<Uint8Array> | undefined {
  const key = bigArrayKey(value)
  if (key === undefined) return undefined
  const items = (value as Record<string, unknown[]>)[key]!
  const sentinel = `\u0000wsgym-stream-${key}`
  const whole = JSON.stringify({ ...(value as object), [key]: sentinel }, null, indent)
  const at = whole.indexOf(JSON.stringify(sentinel))
  const head = whole.slice(0, at)
  const tail = whole.slice(at + JSON.stringify(sentinel).length)
  // Elements of a top-level array sit two levels deep: their own lines are indented by two more levels.
  const element = (v: unknown) => elementOf(v, indent)
  const close = indent ? `\n${' '.repeat(indent)}]` : ']'
  const encoder = new TextEncoder()
  let next = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0) await nextTurn()
      let text = next === 0 ? `${head}[` : ''
      const end = Math.min(next + CHUNK, items.length)
      for (let i = next; i < end; i++) text += (i > 0 ? ',' : '') + element(items[i])
      next = end
      if (next >= items.length) {
        text += close + tail
        controller.enqueue(encoder.encode(text))
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(text))
    },
  })
}
