import { jsonShapeFault, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../envs/core/json-width.ts'
import { randomBytes } from 'node:crypto'
import { OpenAPIHono } from '@hono/zod-openapi'
import { WorldKeys } from '../envs/core/tokens.ts'
import type { Context, Next } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { bodyLimit } from 'hono/body-limit'
import type { WorldEnv } from '../envs/core/http.ts'
import { toPublicPath, toRoutingPath } from '../envs/core/custom-verbs.ts'
import { GoogleApiError, notFound, notImplemented } from '../envs/core/errors/google.ts'
import { SlackApiError } from '../envs/core/errors/slack.ts'
import { applyFields, checkSelection, parseFields, type FieldTables } from '../envs/core/fields.ts'
import type { GoogleSpecMethod } from '../envs/core/spec-method-google.ts'
import { applyRequestTick, requestTick, type ClockKeys } from '../envs/core/clock.ts'
import { matchSpecMethod } from '../envs/core/spec-method.ts'
import { WorldLostWrites, type World } from '../envs/core/world.ts'
import { services } from './registry.ts'
import type { ServiceProvider } from '../envs/core/service.ts'
import type { WorldManager } from './worlds.ts'
import { resolveGoogle, resolveSlack, userOf, type Resolved } from './middleware/identity.ts'
import { readSlackArgs } from './middleware/slack-args.ts'
import { overrideMethod } from './middleware/google-front.ts'
import { gunzipBody } from './middleware/gzip-body.ts'
import {
  bodyTextHead,
  bufferNodeBody,
  nodeIncoming,
  readHeadersInPlace,
  RequestAborted,
  requestHeader,
} from './middleware/node-body.ts'
import { logAction, MAX_BODY } from './middleware/action-log.ts'
import { jsonStream } from './json-stream.ts'
import { plainLists, stringifyWithTexts } from '../envs/core/json-text.ts'
import { pathOfUrl, searchOfUrl } from '../envs/core/request-url.ts'
import { handleGoogleBatch } from './batch.ts'
import { discoveryDirectory, discoveryDocument, hostDiscoveryDocument, isDiscoveryPath } from './api-discovery.ts'
import { checkGoogleAccess, InsufficientScopes, scopedAs } from './middleware/scopes.ts'
import { isPublicOAuthPath, unroutable, worldOfPublicRequest } from '../envs/identity/public.ts'
import { serviceAccountUser } from '../envs/core/users.ts'
import { oauthParams } from '../envs/identity/routes/params.ts'
import { MountableRouter, mountOnFirstUse } from './lazy-mount.ts'
import { routerOf } from './routers.ts'
import { answerInProcess, checkInProcessBody } from './in-process/index.ts'

export const VERSION = '0.1.0'

/**
 * Largest request body accepted: JSON calls, and media uploads; deepest JSON an API takes. `messageDepth`: the
 * gym's and the control plane's messages (step actions, MCP, OpenEnv, inline seeds) wrap an API body, so they may
 * nest deeper, but never as deep as a parser, validator or error echo would recurse past its stack.
 */
export const LIMITS = {
  jsonBytes: 8 * 1024 * 1024,
  uploadBytes: 64 * 1024 * 1024,
  jsonDepth: MAX_JSON_DEPTH,
  messageDepth: 128,
  jsonMembers: MAX_JSON_MEMBERS,
}

/** True when JSON text nests objects/arrays deeper than `max` (one pass, strings skipped; no parse). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92)
        i++ // backslash: skip the escaped character
      else if (ch === 34) inString = false
    } else if (ch === 34) inString = true
    else if (ch === 123 || ch === 91) {
      if (++depth > max) return true
    } else if (ch === 125 || ch === 93) depth--
  }
  return false
}

type Family = 'google' | 'slack'

/** Services that serve a service account's own token (the others answer it 400 failedPrecondition). */
const SERVES_SERVICE_ACCOUNTS = new Set(['drive', 'calendar', 'docs'])
/** Their batch endpoints: Drive's, Calendar's, and `/batch` (Docs' batchPath, shared with Gmail and Data Transfer). */
const SA_BATCH = /^\/batch(?:\/(?:drive|calendar)\/.*)?$/

/** Methods the Google APIs answer (OPTIONS: CORS preflight) and the two Slack's Web API takes. */
const GOOGLE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const SLACK_METHODS = new Set(['GET', 'HEAD', 'POST'])

const googleServices = services.filter((s) => s.family === 'google')
const slackService = services.find((s) => s.family === 'slack')

/** Each service's path prefixes, with each prefix's form without its trailing slash. */
const PREFIXES = services.map((s) => ({ s, prefixes: s.pathPrefixes.map((p) => [p, p.replace(/\/$/, '')] as const) }))

/** Which service a public path belongs to, if any. */
function serviceOf(path: string) {
  return PREFIXES.find(({ prefixes }) => prefixes.some(([p, bare]) => path.startsWith(p) || path === bare))?.s
}

function familyOf(path: string): Family {
  return path.startsWith('/api/') ? 'slack' : 'google'
}

type Operation = { service: string; operationId: string }

/**
 * The Google operation of each method and path matched lately (null: none). A pure function of the method, the
 * path and the services' spec tables, which never change: the memo only answers sooner. Past the cap it starts
 * over (paths carry ids, so most are seen once).
 */
const operations = new Map<string, Operation | null>()
const OPERATIONS_CAP = 512

/** The semantic operation id of a request (`gmail.users.messages.send`, `chat.postMessage`). */
export function operationIdOf(method: string, path: string): Operation | undefined {
  if (path.startsWith('/api/')) return { service: 'slack', operationId: path.slice(5) }
  const key = `${method} ${path}` // a method has no space
  const kept = operations.get(key)
  if (kept !== undefined) return kept === null ? undefined : { service: kept.service, operationId: kept.operationId }
  const found = googleOperationOf(method, path)
  if (operations.size >= OPERATIONS_CAP) operations.clear()
  operations.set(key, found ? { service: found.service, operationId: found.operationId } : null)
  return found
}

function googleOperationOf(method: string, path: string): Operation | undefined {
  const normal = path.replace(/^\/resumable\/upload\//, '/upload/')
  for (const s of googleServices) {
    const id = matchSpecMethod(s.specMethods, method, normal)
    if (id) return { service: s.name, operationId: id }
  }
  return undefined
}

/** The response schema of a Google method and its service's field tables, when the spec names one. */
function responseSchemaOf(op: ReturnType<typeof operationIdOf>): { name: string; tables: FieldTables } | undefined {
  if (!op) return undefined
  const service = googleServices.find((s) => s.name === op.service)
  if (!service?.fieldTables) return undefined
  const spec = (service.specMethods as readonly GoogleSpecMethod[]).find((m) => m.id === op.operationId)
  return spec?.response ? { name: spec.response, tables: service.fieldTables } : undefined
}

/**
 * Which services a request needs mounted before it is dispatched: the owner of its path; none for the health
 * check; every one for the OpenAPI document and for paths no prefix names (batch, anything unknown), which then
 * answer as they would with everything mounted.
 */
export function servicesNeeded(path: string): readonly ServiceProvider[] {
  if (path === '/healthz' || isDiscoveryPath(path)) return []
  const owner = path === '/openapi.json' ? undefined : serviceOf(path)
  return owner ? [owner] : services
}

/** The agent-facing app: every service at its real public paths, one origin, many worlds. */
export function createAgentApp(worlds: WorldManager) {
  const router = new MountableRouter<any>()
  const app = new OpenAPIHono<WorldEnv>({ getPath: (req) => toRoutingPath(pathOfUrl(req.url)), router })
  const decoySecret = randomBytes(32)

  // Says nothing about other worlds (how many exist is the control plane's business).
  app.get('/healthz', (c) => c.json({ ok: true }))
  let docCache: unknown
  app.get('/openapi.json', (c) => {
    docCache ??= publicDocument()
    return c.json(docCache)
  })
  // Google's API Discovery Service for the APIs served here (public, as Google's is).
  app.get('/discovery/v1/apis', discoveryDirectory)
  app.get('/discovery/v1/apis/:api/:version/rest', discoveryDocument)
  app.get('/$discovery/rest', hostDiscoveryDocument)

  // HTTP methods no route of any service answers: 405 in the family's envelope, before identity or a world.
  app.use('*', async (c, next) => {
    answerInProcess(c)
    readHeadersInPlace(c)
    const method = c.req.method
    const path = c.req.path
    const family = familyOf(path)
    const allowed = family === 'slack' ? SLACK_METHODS : GOOGLE_METHODS
    if (allowed.has(method) || path === '/healthz' || path === '/openapi.json') return next()
    c.header('allow', [...allowed].join(', '))
    if (family === 'slack') return c.json({ ok: false, error: 'method_not_allowed' }, 405)
    // Deviation: Google's front end answers an HTML 405 page; we keep its JSON envelope.
    const err = new GoogleApiError(
      'INVALID_ARGUMENT',
      'httpMethodNotAllowed',
      `HTTP method ${method} is not allowed for ${path}.`,
      {},
      405,
    )
    return c.json(googleBody(err, path), 405)
  })

  // Request bodies, checked in one middleware (a GET or HEAD passes it in one step): over the limit they are refused
  // before anything is read into a world; gzip-encoded Google bodies are decoded (to at most the same limit) before
  // anything parses them; JSON nested deeper, or with objects wider, than any API's schema is refused before a
  // parser or validator walks it. The GET and HEAD step is a function of its own (docs/decisions/0426): the body
  // check's optimized code never meets one, so a first GET after many writes does not throw that code away.
  const checkBodies = async (c: Context<WorldEnv>, next: Next) => {
    const path = c.req.path
    const isUpload = path.startsWith('/upload/') || path.startsWith('/resumable/') || path.startsWith('/_upload/')
    const maxSize = isUpload || path.startsWith('/api/') ? LIMITS.uploadBytes : LIMITS.jsonBytes
    const incoming = nodeIncoming(c)
    const checked = () => checkBody(c, path, next)
    if (!incoming && checkInProcessBody(c, maxSize, () => tooLarge(familyOf(path), maxSize))) return checked()
    if (!incoming)
      return bodyLimit({
        maxSize,
        onError: () => {
          throw tooLarge(familyOf(path), maxSize)
        },
      })(c, checked)
    await bufferNodeBody(c, incoming, maxSize, () => tooLarge(familyOf(path), maxSize))
    return checked()
  }
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : checkBodies(c, next)))

  app.use('*', async (c, next) => {
    const href = c.req.url
    const path = pathOfUrl(href)
    const search = searchOfUrl(href)
    if (path === '/healthz' || path === '/openapi.json' || isDiscoveryPath(path)) return next()
    const family = familyOf(path)
    if (family === 'slack') shapeSlackJson(c)
    readVarsInPlace(c)

    // Slack's out-of-band upload URL carries its world in the path, not a token (the client sends none).
    const upload = path.startsWith('/_upload/') ? /^\/_upload\/slack\/([a-z0-9_]+)\//.exec(path) : null
    if (upload) {
      const entry = worlds.find(upload[1]!)
      // An unknown world answers exactly as a known one does to a wrong upload id or token (no existence oracle).
      if (!entry)
        return /^\/_upload\/slack\/[a-z0-9_]+\/lists\//.test(path)
          ? c.text('Unauthorized', 401)
          : c.text('file not found', 404)
      c.set('world', entry.world)
      c.set('worldId', entry.id)
      c.set('keys', entry.keys)
      return asRequest(c, entry.world, true, next)
    }

    // OAuth endpoints without a bearer token (token, revoke, tokeninfo, discovery): the credential names the world.
    if (isPublicOAuthPath(path)) {
      const params = await oauthParams(c)
      const named = c.req.header('x-wsgym-world')
      if (named && params.world === undefined) params.world = named
      const worldId = worldOfPublicRequest(path, params)
      if (worldId === null) return next()
      const entry = worldId ? worlds.find(worldId) : undefined
      if (!entry && path === '/oauth2/v3/certs' && worldId && /^[a-z0-9_]{1,40}$/.test(worldId)) {
        // An unknown world gets a key set shaped like a real one (from a secret of this process), so the key set
        // endpoint does not tell which worlds exist.
        c.set('keys', new WorldKeys(worldId, decoySecret))
        return next()
      }
      if (!entry) {
        const answer = unroutable(path, params)
        return c.json(answer.body, answer.status)
      }
      c.set('world', entry.world)
      c.set('worldId', entry.id)
      c.set('keys', entry.keys)
      return asRequest(c, entry.world, false, next)
    }

    let found: Resolved | undefined
    if (family === 'slack') {
      const args = await readSlackArgs(c)
      c.set('slackArgs', args)
      if (path === '/api/api.test' && !args.token && !requestHeader(c, 'authorization')) return next()
      found = resolveSlack(worlds, c, args)
    } else {
      if (!serviceOf(path) && !path.startsWith('/batch'))
        throw notFound('The requested URL was not found on this server.', 'notFound')
      found = resolveGoogle(worlds, c)
    }
    let user = userOf(found)
    // A service account's own token (JWT-bearer grant without `sub`) has no Workspace account behind it: Gmail and
    // the other Workspace APIs answer it 400 failedPrecondition. Drive, Calendar and Docs serve it as the account
    // itself (its own Drive and primary calendar; files and calendars shared with it; decisions 0394, 0399).
    if (!user && found.principal.userId.startsWith('serviceAccount:')) {
      const email = found.principal.userId.slice('serviceAccount:'.length)
      // A batch endpoint's calls are each checked again as they re-enter (server/batch.ts): a Gmail call in Docs'
      // `/batch` gets its own 400 there.
      const own = SERVES_SERVICE_ACCOUNTS.has(serviceOf(path)?.name ?? '') || SA_BATCH.test(path)
      if (own) user = serviceAccountUser(found.entry.world.db, email)
      if (!user) throw new GoogleApiError('FAILED_PRECONDITION', 'failedPrecondition', 'Precondition check failed.')
    }
    if (!user) throw family === 'slack' ? new SlackApiError('invalid_auth') : notFound()
    const world = found.entry.world
    c.set('world', world)
    c.set('worldId', found.entry.id)
    c.set('keys', found.entry.keys)
    c.set('user', user)
    c.set('principal', found.principal)

    // Each call of a batch comes back through this middleware as its own request (of its world's batch or not).
    if (path.startsWith('/batch')) return handleGoogleBatch(c, app)

    const op = operationIdOf(c.req.method, path)
    if (family === 'google') {
      shapeGoogleJson(c, search, op)
      const known = found.access && { access: found.access, clockMs: Number(found.clock.clock ?? 0) }
      checkGoogleAccess(world, found.principal, op ?? scopedAs(c.req.method, path), known)
    }
    // A batched world's request joins its open transaction from its first write on (docs/decisions/0419).
    const risky = world.watchesRisk && riskyForBatch(c, path)
    const read = c.req.method === 'GET' || c.req.method === 'HEAD'
    return asRequest(c, world, risky, () => loggedCall(c, world, found, user, op, family, path, search, next), read)
  })

  // Each service's routes are mounted on the first request that needs them (server/lazy-mount.ts).
  mountOnFirstUse(app, router, services, servicesNeeded)

  app.notFound((c) => {
    const path = pathOfUrl(c.req.url)
    if (familyOf(path) === 'slack') {
      const name = path.slice(5)
      const known = slackService?.specMethods.some((m) => m.id === name)
      const body = { ok: false, error: known ? 'not_implemented' : 'unknown_method', req_method: name }
      return c.json(body, 200)
    }
    const op = operationIdOf(c.req.method, path)
    const err = op ? notImplemented(op.operationId) : notFound('The requested URL was not found on this server.')
    return c.json(googleBody(err, path), err.httpCode as 404)
  })

  app.onError((err, c) => renderError(err, c))
  // X-HTTP-Method-Override and Drive's /download/ alias decide method and path before routing.
  const dispatch = app.fetch
  app.fetch = (req, env, ctx) => dispatch(overrideMethod(req, env), env, ctx)
  return app
}

/** One agent call: the clock's tick, the handler, then the action log's row. */
async function loggedCall(
  c: Context,
  world: World,
  found: Resolved,
  user: { id: string },
  op: ReturnType<typeof operationIdOf>,
  family: Family,
  path: string,
  search: string,
  next: () => Promise<void>,
) {
  // The clock keys read with the token: nothing since (no await, no write to world_meta) could change them.
  tick(world, found.clock)
  // A GET, HEAD or DELETE logs no body: no await (bodyForLog's own rule, decided here without a turn of the queue).
  const method = c.req.method
  const logBody = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? null : await bodyForLog(c, family)
  // A write is a call that changed rows and kept them: a refusal (a Google error, Slack's 200 `ok:false`) rolls its
  // transaction back and is none, whatever its status; a GET or HEAD is a read, never one (docs/decisions/0406).
  const changesBefore = method === 'GET' || method === 'HEAD' ? undefined : world.changeCount()
  await next()
  logAction(world, {
    userId: user.id,
    service: op?.service ?? serviceOf(path)?.name ?? null,
    operationId: op?.operationId ?? null,
    method: c.req.method,
    path,
    query: search.replace(/^\?/, ''),
    body: logBody,
    status: c.res.status,
    wrote: changesBefore !== undefined && !c.error && world.changeCount() > changesBefore,
  })
}

/** Uploads and large bodies: a batched world commits before them (World.requestStarted). */
const RISKY_PATH = /^\/(?:upload|resumable|_upload)\//
/** A body larger than this may grow a world by more than a batch may risk losing; JSON is capped at 8 MiB anyway. */
const RISKY_BODY_BYTES = 1024 * 1024

function riskyForBatch(c: Context, path: string): boolean {
  if (RISKY_PATH.test(path)) return true
  const length = requestHeader(c, 'content-length')
  if (length !== undefined) return Number(length) > RISKY_BODY_BYTES
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') return false
  // A body of unknown length: JSON and forms are bounded by the body limit; anything else may be an upload.
  return !/json|x-www-form-urlencoded/i.test(requestHeader(c, 'content-type') ?? '')
}

/** `next()` as one request of a batched world that is `risky` or not, a `read` or not (World.requestStarted). */
async function asRequest(c: Context, world: World, risky: boolean, next: () => Promise<void>, read = false) {
  world.requestStarted(risky, read)
  try {
    await next()
  } finally {
    world.requestEnded(risky)
  }
  if (world.lostWrites) c.res = renderError(new WorldLostWrites(world.lostWrites), c)
}

/** Google's error envelope in the style of the service the path belongs to (legacy services omit `status`). */
function googleBody(err: GoogleApiError, path: string) {
  const body = err.toBody()
  if (serviceOf(path)?.googleErrorStyle !== 'legacy') return body
  const { status: _status, ...rest } = body.error
  return { error: rest }
}

/** One place turns every thrown error into the right protocol's envelope. */
export function renderError(err: Error, c: Context) {
  const path = pathOfUrl(c.req.url)
  // Whatever failed, a world that lost answered writes says so (the error that lost them is SQLite's).
  const lost = (c.var as { world?: World }).world?.lostWrites
  if (lost !== undefined && !(err instanceof WorldLostWrites)) err = new WorldLostWrites(lost)
  if (err instanceof GoogleApiError) {
    if (err instanceof InsufficientScopes) for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
    return c.json(googleBody(err, path), err.httpCode as 400)
  }
  if (err instanceof SlackApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
    return c.json(err.toBody(), err.httpStatus)
  }
  if (err instanceof HTTPException && err.status < 500) {
    if (familyOf(path) === 'slack') return c.json({ ok: false, error: 'invalid_arguments' }, 200)
    const parse = /json/i.test(err.message)
    const e = new GoogleApiError(
      'INVALID_ARGUMENT',
      parse ? 'parseError' : 'badRequest',
      parse ? 'Invalid JSON payload received.' : err.message,
    )
    return c.json(e.toBody(), 400)
  }
  if (err instanceof WorldLostWrites) {
    // Deviation: no real API loses answered writes; the world refuses until restored, in the service's envelope.
    if (familyOf(path) === 'slack') return c.json({ ok: false, error: 'fatal_error', detail: err.message }, 200)
    return c.json(googleBody(new GoogleApiError('UNAVAILABLE', 'backendError', err.message), path), 503)
  }
  // A client gone before its body ended reads no answer: nothing to log (a cut slow body must not flood the log).
  if (!(err instanceof RequestAborted)) console.error('unhandled error', c.req.method, path, err)
  if (familyOf(path) === 'slack') return c.json({ ok: false, error: 'internal_error' }, 200)
  return c.json(new GoogleApiError('INTERNAL', 'backendError', 'Internal error encountered.').toBody(), 500)
}

function tooLarge(family: Family, max: number) {
  if (family === 'slack') return new SlackApiError('request_too_large')
  return new GoogleApiError(
    'INVALID_ARGUMENT',
    'uploadTooLarge',
    `Request body exceeds the maximum size of ${max} bytes.`,
    {},
    413,
  )
}

/** A body within the size limit: a gzip-encoded Google body decoded, then JSON's depth and width checked. */
async function checkBody(c: Context, path: string, next: () => Promise<void>): Promise<void> {
  const family = familyOf(path)
  if (family === 'google') {
    const maxSize =
      path.startsWith('/upload/') || path.startsWith('/resumable/') ? LIMITS.uploadBytes : LIMITS.jsonBytes
    const bad = () => new GoogleApiError('INVALID_ARGUMENT', 'badRequest', 'The request body is not valid gzip data.')
    await gunzipBody(c, maxSize, () => tooLarge(family, maxSize), bad)
  }
  if (!(requestHeader(c, 'content-type') ?? '').toLowerCase().includes('json')) return next()
  const fault = jsonShapeFault(await c.req.text(), LIMITS.jsonDepth, LIMITS.jsonMembers)
  if (fault === undefined) return next()
  if (family === 'slack') throw new SlackApiError('invalid_json')
  // Deviation: Google's wording for an object this wide is not recorded.
  const what =
    fault === 'deep'
      ? `Nesting deeper than ${LIMITS.jsonDepth} levels.`
      : `An object has over ${LIMITS.jsonMembers} members.`
  throw new GoogleApiError('INVALID_ARGUMENT', 'parseError', `Invalid JSON payload received. ${what}`)
}

/** Moves the world clock one tick (within the world's tick cap) and lets services run what became due. */
function tick(world: World, keys: ClockKeys) {
  // The write and the work that became due are one transaction, so a failing hook leaves the clock and every
  // service as they were.
  const moved = requestTick(world.db, keys)
  if (!moved) return
  // Usually nothing is due: the clock (and the cap's use) is then one autocommit statement, atomic on its own.
  const due = services.some((s) => s.onClockAdvance && (s.hasDueWork?.(world, moved.from, moved.to) ?? true))
  if (!due) return applyRequestTick(world.db, moved)
  world.tx((db) => {
    applyRequestTick(db, moved)
    for (const s of services) s.onClockAdvance?.(world, moved.from, moved.to)
  })
}

async function bodyForLog(c: Context, family: Family): Promise<string | null> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'DELETE') return null
  const type = (requestHeader(c, 'content-type') ?? '').toLowerCase()
  if (type.includes('json') || type.includes('x-www-form-urlencoded') || type.startsWith('text/')) {
    try {
      // The log keeps a head of the text (MAX_BODY units, then a mark that it was cut): only that much is decoded.
      return await bodyTextHead(c, MAX_BODY + 1)
    } catch {
      return null
    }
  }
  if (family === 'slack' && type.includes('multipart/form-data')) {
    const form = await slackFormForLog(c)
    if (form !== undefined) return form
  }
  const length = requestHeader(c, 'content-length')
  return length ? `<${length} bytes ${type || 'unknown type'}>` : null
}

/**
 * A Slack multipart body's fields as a url-encoded form (a file as `<N bytes name>`), so the log can say what a
 * `chat.postMessage` sent that way showed (oracles/post-versions.ts, docs/decisions/0371); undefined when it cannot be
 * parsed. Hono keeps the parsed form, so the handler's own parse reads it again for free.
 */
async function slackFormForLog(c: Context): Promise<string | undefined> {
  let form: Record<string, string | File | (string | File)[]>
  try {
    form = await c.req.parseBody({ all: true })
  } catch {
    return undefined
  }
  const out = new URLSearchParams()
  for (const [k, v] of Object.entries(form))
    for (const x of Array.isArray(v) ? v : [v]) out.append(k, typeof x === 'string' ? x : `<${x.size} bytes ${x.name}>`)
  return out.toString()
}

/**
 * Google response conventions, applied as handlers render: `fields=` partial responses (2xx only) and
 * `prettyPrint` (on by default, as Google does). The selection is parsed before the handler runs, so a
 * malformed one is a 400 that changes nothing.
 */
const JSON_TYPE = 'application/json; charset=UTF-8'

function shapeGoogleJson(c: Context, search: string, op: ReturnType<typeof operationIdOf>) {
  // No query, no parameters (most calls): no URLSearchParams to build.
  const params = search === '' ? undefined : new URLSearchParams(search)
  const fields = params?.get('fields')
  const selection = fields ? parseFields(fields) : undefined
  if (selection) {
    const schema = responseSchemaOf(op)
    if (schema) checkSelection(selection, schema.name, schema.tables)
  }
  const indent = params?.get('prettyPrint') === 'false' ? undefined : 2
  const render = (object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>) => {
    const status = typeof arg === 'number' ? arg : (arg?.status ?? 200)
    const shaped = selection && status >= 200 && status < 300 ? applyFields(plainLists(object), selection) : object
    const merged = headers ? { ...headers, 'content-type': JSON_TYPE } : { 'content-type': JSON_TYPE }
    // A long listing streams out a chunk of elements per turn, so other worlds' requests are served meanwhile.
    const stream = jsonStream(shaped, indent)
    return c.body(stream ?? stringifyWithTexts(shaped, indent), arg as 200, merged)
  }
  ;(c as unknown as { json: typeof render }).json = render
}

/**
 * Hono's `c.var` copies every request variable into a new object on each read (`Object.fromEntries`), and handlers
 * read it several times a call (`c.var.world`, `c.var.user`, …). This request's `c.var` becomes a view that reads
 * each variable from the context as `c.get` does, so it always shows what `c.set` stored, with no copy.
 */
function readVarsInPlace(c: Context) {
  Object.defineProperty(c, 'var', { value: new Proxy(c, VARS_OF_CONTEXT), configurable: true })
}

/** One handler for every request's `c.var` view (its target is the context): no closure per request. */
const VARS_OF_CONTEXT: ProxyHandler<Context> = {
  get: (c, key) => (typeof key === 'string' ? c.get(key as never) : undefined),
}

/** Slack answers JSON as `application/json; charset=utf-8` (success and error envelopes alike). */
function shapeSlackJson(c: Context) {
  // Hono's c.json is `JSON.stringify` and this content type; kept texts of listed messages are copied in.
  const render = (object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>) =>
    c.body(stringifyWithTexts(object, undefined), arg as 200, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
    })
  ;(c as unknown as { json: typeof render }).json = render
}

/**
 * The agent API's OpenAPI document. It is built from every service's router in registry order (not from the
 * app, whose routes are mounted in the order requests first reached them), so it is the same whatever was called.
 */
function publicDocument() {
  const all = new OpenAPIHono<WorldEnv>()
  for (const s of services) all.route('/', routerOf(s))
  const doc = all.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'workspace-gym agent API',
      version: VERSION,
      description: 'Gmail, Calendar, Drive, Docs and Slack Web API, served per world.',
    },
  })
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([p, item]) => [toPublicPath(p), item]))
  return { ...doc, paths }
}
