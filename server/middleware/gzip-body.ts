import { gunzipSync } from 'node:zlib'
import type { Context } from 'hono'
import { requestHeader } from './node-body.ts'

/**
 * Google's front ends accept request bodies sent with `Content-Encoding: gzip` (the official Java client gzips
 * every JSON and direct-upload body by default). Such a body, already read and size-checked on the wire, is
 * replaced in Hono's body cache by its decoded bytes, at most `max` of them (beyond that, `tooLarge()` is thrown);
 * a body that is not gzip data throws `bad()`. Other encodings are left as they are.
 */
export async function gunzipBody(c: Context, max: number, tooLarge: () => Error, bad: () => Error) {
  const encoding = requestHeader(c, 'content-encoding')
  if (!encoding || encoding.trim().toLowerCase() !== 'gzip') return
  const wire = new Uint8Array(await c.req.arrayBuffer())
  if (wire.length === 0) return
  let plain: Buffer
  try {
    plain = gunzipSync(wire, { maxOutputLength: max })
  } catch (e) {
    throw (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : bad()
  }
  // A buffer of its own (gunzip's output may share a pooled one).
  const own = new Uint8Array(new ArrayBuffer(plain.length))
  own.set(plain)
  ;(c.req as { bodyCache: unknown }).bodyCache = { arrayBuffer: Promise.resolve(own.buffer) }
}
