import { OpenAPIHono, type OpenAPIHonoOptions, type RouteConfig } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { z } from 'zod'
import type { World } from './world.ts'
import type { WorldKeys } from './tokens.ts'
import type { Db } from './db.ts'
import type { WorldUserRow } from './world-tables.ts'
import { type GoogleApiError } from './errors/google.ts'
import { SlackApiError } from './errors/slack.ts'
import { withSyncValidation } from './folded-validation.ts'
import { bodyError, queryParamError, type ParamStyle } from './param-errors.ts'
import { parseJsonWithin } from './json-width.ts'

/** Who is calling: the user behind the token, and what kind of token it is. */
export type Principal = {
  userId: string
  tokenKind: 'google' | 'slack_user' | 'slack_bot'
  scopes: readonly string[]
  /** The world_tokens key of the token presented (the identity service tells OAuth-issued tokens by it). */
  tokenKey?: string
  /**
   * The service account whose domain-wide delegation issued this token (the JWT-bearer grant with `sub`), by email;
   * absent for the user's own tokens. Gmail's sharing settings are open to such tokens only.
   */
  serviceAccount?: string
}

/** A file that arrived in a multipart Slack request. */
export type UploadedFile = { filename: string; contentType: string; data: Buffer }

/** Per-request variables every handler can read (`c.var.world`, `c.var.user`, …). */
export type WorldEnv = {
  Variables: {
    world: World
    worldId: string
    /** The world's secrets: mints and checks tokens, derives OAuth secrets and upload ids. */
    keys: WorldKeys
    user: WorldUserRow
    principal: Principal
    /** Slack only: query + body arguments merged (form, JSON or multipart), files as UploadedFile. */
    slackArgs: Record<string, unknown>
  }
}

export type WorldContext = Context<WorldEnv>

/** The world's drizzle handle for this request (read per request: restore swaps connections). */
export const dbOf = (c: WorldContext): Db => c.var.world.db

/**
 * Request validation failures in Google's 400 envelope. One function for every Google router (it reads nothing of
 * its router): the folded validation middleware calls it from one call site for every route, where V8 optimizes
 * for the function it met, so a hook per router threw that code away at each new service (docs/decisions/0426).
 */
const googleDefaultHook: NonNullable<OpenAPIHonoOptions<WorldEnv>['defaultHook']> = (result, c) => {
  if (result.success) return
  const { target, data } = result as { target?: string; data?: unknown }
  throw googleValidationError(result.error, target, data, styleOf(c.req.path))
}

/** Router for one Google-shaped service; request validation failures use Google's 400 envelope. */
export function createGoogleRouter() {
  return withSyncValidation(new OpenAPIHono<WorldEnv>({ defaultHook: googleDefaultHook }))
}

/** Calendar and the Admin SDK answer from the older front end; the others from the proto layer. */
const styleOf = (path: string): ParamStyle =>
  path.startsWith('/calendar/') || path.startsWith('/admin/') ? 'legacy' : 'proto'

/**
 * Turns a zod failure into Google's INVALID_ARGUMENT envelope in Google's words (`envs/core/param-errors.ts`),
 * naming the offending parameter; zod's own wording never reaches the client.
 */
export function googleValidationError(
  error: z.ZodError,
  target = 'query',
  data: unknown = {},
  style: ParamStyle = 'proto',
): GoogleApiError {
  const issue = error.issues[0]
  if (target === 'json') return bodyError(issue, data, style)
  const name = issue && issue.path.length > 0 ? String(issue.path[0]) : 'request'
  const given = (data as Record<string, unknown> | undefined)?.[name]
  const raw = Array.isArray(given) ? String(given[0] ?? '') : given === undefined ? '' : String(given)
  return queryParamError(issue, name, raw, style)
}

/** Router for Slack; methods are registered with `slackMethod`. */
export function createSlackRouter() {
  return new OpenAPIHono<WorldEnv>()
}

export type SlackMethodConfig<S extends z.ZodType> = {
  /** Slack method name, e.g. `chat.postMessage`. */
  name: string
  /** Arguments, valid for form strings and JSON values alike (see `slackBool`, `slackJson`). */
  args: S
  /** Scopes any one of which allows the call (user or bot); empty = no scope needed. */
  scopes?: { user?: readonly string[]; bot?: readonly string[] }
  /** Token kinds accepted (default both). */
  tokens?: readonly Principal['tokenKind'][]
  description?: string
  /** True for the few methods that work without a token (`api.test`). */
  noAuth?: boolean
  handler: (c: WorldContext, args: z.output<S>) => Record<string, unknown> | Promise<Record<string, unknown>>
}

/**
 * Registers one Slack method at `/api/<name>` for GET and POST. Arguments come from `c.var.slackArgs`
 * (set by the server for every transport); the handler's object is sent as `{ok:true, ...result}`.
 */
export function slackMethod<S extends z.ZodType>(router: OpenAPIHono<WorldEnv>, config: SlackMethodConfig<S>) {
  const path = `/api/${config.name}`
  const run = async (c: WorldContext) => {
    const principal = c.var.principal
    if (!principal) {
      if (!config.noAuth) throw new SlackApiError('not_authed')
    } else if (config.tokens && !config.tokens.includes(principal.tokenKind)) {
      throw new SlackApiError(principal.tokenKind === 'slack_bot' ? 'not_allowed_token_type' : 'not_allowed_token_type')
    }
    const needed = !principal
      ? undefined
      : principal.tokenKind === 'slack_bot'
        ? config.scopes?.bot
        : config.scopes?.user
    if (principal && needed && needed.length > 0 && !needed.some((s) => principal.scopes.includes(s))) {
      throw new SlackApiError('missing_scope', { needed: needed.join(','), provided: principal.scopes.join(',') })
    }
    const parsed = config.args.safeParse(c.var.slackArgs)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new SlackApiError('invalid_arguments', {
        response_metadata: {
          messages: [`[ERROR] ${issue?.message ?? 'invalid'} [json-pointer:/${issue?.path.join('/') ?? ''}]`],
        },
      })
    }
    const result = await config.handler(c, parsed.data)
    return c.json({ ok: true, ...result }, 200)
  }
  router.on(['GET', 'POST'], path, run)
  const doc: RouteConfig = {
    method: 'post',
    path,
    operationId: config.name,
    description: config.description ?? `Slack Web API method ${config.name}`,
    responses: { 200: { description: 'Slack envelope: `{ok:true,…}` or `{ok:false,error}`' } },
  }
  router.openAPIRegistry.registerPath(doc)
}

/** A Slack boolean argument: `true`/`false`, `1`/`0` strings from forms, or JSON booleans. */
export const slackBool = () =>
  z.preprocess((v) => {
    if (typeof v === 'string')
      return v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v
    if (typeof v === 'number') return v !== 0
    return v
  }, z.boolean())

/** A Slack integer argument given as a number or a numeric string. */
export const slackInt = () =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int())

/** A structured Slack argument (blocks, attachments, …): JSON text in forms, a value in JSON bodies. */
export const slackJson = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v
    try {
      return parseJsonWithin(v)
    } catch {
      return v
    }
  }, inner)
