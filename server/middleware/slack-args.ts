import type { Context } from 'hono'
import type { UploadedFile } from '../../envs/core/http.ts'
import { SlackApiError } from '../../envs/core/errors/slack.ts'
import { requestHeader, urlEncodedArgs } from './node-body.ts'
import { searchOfUrl } from '../../envs/core/request-url.ts'

/**
 * Slack accepts arguments in the query string and in form, JSON or multipart bodies, all at once.
 * This merges them into one object (body wins), turning uploaded files into `UploadedFile`s.
 */
export async function readSlackArgs(c: Context): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = {}
  for (const [k, v] of new URLSearchParams(searchOfUrl(c.req.url))) args[k] = v
  if (c.req.method !== 'POST') return args
  const type = (requestHeader(c, 'content-type') ?? '').toLowerCase()
  if (type.includes('application/json')) {
    const text = await c.req.text()
    if (text.trim() === '') return args
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new SlackApiError('invalid_json')
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SlackApiError('json_not_object')
    return { ...args, ...(body as Record<string, unknown>) }
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    let form: Record<string, string | File | (string | File)[]>
    try {
      // Url-encoded forms (most calls) skip building a Response to parse them; multipart goes through undici.
      form = /^application\/x-www-form-urlencoded\s*(;|$)/.test(type)
        ? await urlEncodedArgs(c)
        : await c.req.parseBody({ all: true })
    } catch {
      throw new SlackApiError('invalid_form_data')
    }
    for (const [k, v] of Object.entries(form)) {
      const one = Array.isArray(v) ? v[v.length - 1] : v
      args[k] = typeof one === 'string' ? one : await toUpload(one!)
    }
    return args
  }
  return args
}

export { lastValues } from './node-body.ts'

async function toUpload(file: File): Promise<UploadedFile> {
  return {
    filename: file.name,
    contentType: file.type || 'application/octet-stream',
    data: Buffer.from(await file.arrayBuffer()),
  }
}
