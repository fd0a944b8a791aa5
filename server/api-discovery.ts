import { readFileSync } from 'node:fs'
import type { Context } from 'hono'
import { GoogleApiError } from '../envs/core/errors/google.ts'
import { BoundedMap } from '../envs/core/bounded-map.ts'

/**
 * Google's API Discovery Service for the Google APIs this server implements, so discovery-driven clients (the Python
 * client's `build(..., discoveryServiceUrl=…)`, googleapis' `google.discoverAPI`, tools built on them) find every
 * method at this server: the documents are the vendored ones in specs/ (their sources in specs/SOURCES.md), with
 * `rootUrl`, `baseUrl` and `mtlsRootUrl` pointing at the origin the request came to (Google's own, unchanged, when
 * that origin is a Google host name: see GOOGLE_HOST).
 *
 * Served: `GET /discovery/v1/apis` (the directory, `name` and `preferred` filters), `GET /discovery/v1/apis/{api}/
 * {version}/rest`, and `GET /$discovery/rest?version=…` for a host named `<api>.…` (the per-API form that the Python
 * client tries second, e.g. through a proxy that keeps Google's host names).
 */

/** The documents served: specs/<file>.discovery.json. */
const DOCUMENTS = [
  'gmail.v1',
  'calendar.v3',
  'drive.v3',
  'docs.v1',
  'admin.directory_v1',
  'admin.datatransfer_v1',
] as const

type Doc = Record<string, unknown> & { name: string; version: string; servicePath?: string }

/** specs/ beside server/ in the sources; dist/specs/ beside dist/server/ when bundled (`npm run build` copies it). */
const specsRoot = new URL('../specs/', import.meta.url)
const parsed = new Map<string, Doc>()
const docOf = (file: string): Doc => {
  let doc = parsed.get(file)
  if (!doc) {
    doc = JSON.parse(readFileSync(new URL(`${file}.discovery.json`, specsRoot), 'utf8')) as Doc
    parsed.set(file, doc)
  }
  return doc
}
const fileOf = (api: string, version: string) =>
  DOCUMENTS.find((f) => f === `${api}.${version}`) as (typeof DOCUMENTS)[number] | undefined

/** Rewritten documents by file and origin; a few origins at most in practice, bounded so that Host cannot grow it. */
const rendered = new BoundedMap<string, string>(64)

/**
 * A request that reached this server under one of Google's own host names came through an intercepting proxy: the
 * client expects Google's URLs, so the document keeps them (the bytes Google serves, re-serialised).
 */
const GOOGLE_HOST = /(^|\.)googleapis\.com$/i

function render(file: string, url: URL): string {
  const origin = GOOGLE_HOST.test(url.hostname) ? '' : url.origin
  const key = `${file} ${origin}`
  const hit = rendered.get(key)
  if (hit !== undefined) return hit
  const doc = docOf(file)
  if (!origin) {
    const text = JSON.stringify(doc)
    rendered.set(key, text)
    return text
  }
  const root = `${origin}/`
  const out: Record<string, unknown> = { ...doc, rootUrl: root, baseUrl: `${root}${doc.servicePath ?? ''}` }
  // Deviation: mutual-TLS clients are sent to the same origin (this server has no separate mTLS endpoint).
  if ('mtlsRootUrl' in doc) out.mtlsRootUrl = root
  const text = JSON.stringify(out)
  rendered.set(key, text)
  return text
}

const notFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Requested entity was not found.')
const json = (c: Context, text: string) => c.body(text, 200, { 'content-type': 'application/json; charset=UTF-8' })

/** `GET /discovery/v1/apis/{api}/{version}/rest`. */
export function discoveryDocument(c: Context) {
  const file = fileOf(c.req.param('api') ?? '', c.req.param('version') ?? '')
  if (!file) throw notFound()
  return json(c, render(file, new URL(c.req.url)))
}

/** `GET /$discovery/rest?version=v1`: the API is the first label of the host the client asked for. */
export function hostDiscoveryDocument(c: Context) {
  const url = new URL(c.req.url)
  const api = url.hostname.split('.')[0] ?? ''
  const version = c.req.query('version')
  if (!version) throw new GoogleApiError('INVALID_ARGUMENT', 'badRequest', 'Missing required parameter: version')
  const file = fileOf(api, version)
  if (!file) throw notFound()
  return json(c, render(file, url))
}

/** `GET /discovery/v1/apis`: the directory of the APIs served, optionally filtered by `name` and `preferred`. */
export function discoveryDirectory(c: Context) {
  const origin = new URL(c.req.url).origin
  const name = c.req.query('name')
  const preferred = c.req.query('preferred')
  if (preferred !== undefined && preferred !== 'true' && preferred !== 'false') {
    throw new GoogleApiError('INVALID_ARGUMENT', 'invalidParameter', `Invalid value for boolean: ${preferred}`)
  }
  // Every version served is the one Google marks preferred, so `preferred=true` filters nothing out.
  const items = DOCUMENTS.map(docOf)
    .filter((d) => name === undefined || d.name === name)
    .map((d) => ({
      kind: 'discovery#directoryItem',
      id: d.id,
      name: d.name,
      version: d.version,
      title: d.title,
      description: d.description,
      // Deviation: Google points some APIs at `https://<api>.googleapis.com/$discovery/rest?version=…`; here every
      // document is served from this origin's directory path.
      discoveryRestUrl: `${origin}/discovery/v1/apis/${d.name}/${d.version}/rest`,
      icons: d.icons,
      documentationLink: d.documentationLink,
      preferred: true,
    }))
  const body: Record<string, unknown> = { kind: 'discovery#directoryList', discoveryVersion: 'v1' }
  if (items.length) body.items = items
  return json(c, JSON.stringify(body))
}

/** Paths this module answers (they need no credential, world or service). */
export const isDiscoveryPath = (path: string) =>
  path === '/$discovery/rest' || path === '/discovery/v1/apis' || path.startsWith('/discovery/v1/apis/')
