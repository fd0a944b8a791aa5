import { GoogleApiError, invalidCredentials } from '../../envs/core/errors/google.ts'
import { nowMs } from '../../envs/core/clock.ts'
import type { Principal } from '../../envs/core/http.ts'
import type { World } from '../../envs/core/world.ts'
import { methodScopes as gmail } from '../../envs/gmail/api/scopes.gen.ts'
import { methodScopes as calendar } from '../../envs/calendar/api/scopes.gen.ts'
import { methodScopes as drive } from '../../envs/drive/api/scopes.gen.ts'
import { methodScopes as docs } from '../../envs/docs/api/scopes.gen.ts'
import { methodScopes as directory } from '../../envs/identity/api/scopes.gen.ts'
import { touchGrant } from '../../envs/identity/store/oauth.ts'
import { stmt } from '../../envs/core/db.ts'
import type { AccessAndFacts } from './identity.ts'

/**
 * Each Google service's method scopes, by service name. A Map, not an object: a keyed read of an object by the
 * service's name is compiled by V8 for the first name it met, and the next service's first call threw away the
 * optimized code of the agent app's identity middleware, into which this check is inlined (docs/decisions/0426).
 */
const TABLES = new Map<string, Readonly<Record<string, readonly string[]>>>([
  ['gmail', gmail],
  ['calendar', calendar],
  ['drive', drive],
  ['docs', docs],
  ['identity', directory],
])

/** The API host Google names in ACCESS_TOKEN_SCOPE_INSUFFICIENT's `service` field. */
const HOSTS: Record<string, string> = {
  gmail: 'gmail.googleapis.com',
  calendar: 'calendar-json.googleapis.com',
  drive: 'drive.googleapis.com',
  docs: 'docs.googleapis.com',
  identity: 'admin.googleapis.com',
}

/**
 * Paths outside the discovery documents that serve a method's data, checked with that method's scopes: a Doc's
 * `exportLinks` URL (docs.google.com's export path) gives what drive.files.export gives, so it needs a Drive scope
 * too. Before, no scope was checked there, and a token granted only `gmail.readonly` could read every Doc its user
 * can open.
 */
const SCOPED_AS: Readonly<Record<string, { service: string; operationId: string }>> = {
  'GET /feeds/download/documents/export/Export': { service: 'drive', operationId: 'drive.files.export' },
  'HEAD /feeds/download/documents/export/Export': { service: 'drive', operationId: 'drive.files.export' },
}

/** The method whose scopes a request outside the discovery documents needs (undefined: none). */
export const scopedAs = (method: string, path: string) =>
  Object.hasOwn(SCOPED_AS, `${method} ${path}`) ? SCOPED_AS[`${method} ${path}`] : undefined

/** Google's 403 for a token without any of the method's scopes, with its ErrorInfo detail. */
export class InsufficientScopes extends GoogleApiError {
  constructor(
    readonly service: string,
    readonly operationId: string,
    readonly needed: readonly string[],
  ) {
    super('PERMISSION_DENIED', 'insufficientPermissions', 'Request had insufficient authentication scopes.')
  }

  /** The challenge Google sends with it, naming the scopes that would do. */
  get headers(): Record<string, string> {
    return {
      'www-authenticate': `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${this.needed.join(' ')}"`,
    }
  }

  override toBody() {
    const body = super.toBody()
    const detail = {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      domain: 'googleapis.com',
      metadata: { service: HOSTS[this.service] ?? '', method: this.operationId },
    }
    return { error: { ...body.error, details: [detail] } }
  }
}

/**
 * What findAccess (the OAuth-issued token, if the token is one) and isActive (the user's directory facts) read,
 * in one statement: exactly one row, its columns NULL where either row is missing.
 */
const ACCESS_AND_FACTS =
  'SELECT a.user_id AS a_user, a.client_id AS a_client, a.expires_ms AS a_expires, ' +
  'u.suspended, u.deleted_ms FROM (SELECT 1) LEFT JOIN identity_access_tokens a ON a.key = ? ' +
  'LEFT JOIN identity_users u ON u.user_id = ?'

/**
 * Checks a Google request's token against the method: an OAuth-issued token must be unexpired (world clock), and
 * every token needs one of the scopes the method's discovery document lists, and its user must be active. A use of
 * an app's token stamps its grant's "last used". `known`: the access row and facts and the clock as the agent app
 * read them with the token, in the same synchronous turn (identity.ts); read here when not given.
 */
export function checkGoogleAccess(
  world: World,
  principal: Principal,
  op: { service: string; operationId: string } | undefined,
  known?: { access: AccessAndFacts; clockMs: number },
) {
  const db = world.db
  const row =
    known?.access ?? (stmt(db, ACCESS_AND_FACTS).get(principal.tokenKey ?? null, principal.userId) as AccessAndFacts)
  const access =
    row.a_user === null ? undefined : { userId: row.a_user, clientId: row.a_client!, expiresMs: row.a_expires! }
  if (access && access.expiresMs < (known ? known.clockMs : nowMs(db))) throw invalidCredentials()
  // A suspended (or deleted) account can no longer use any token (isActive: no identity_users row is active).
  if (Number(row.suspended) === 1 || row.deleted_ms !== null) throw invalidCredentials()
  if (op) {
    const needed = TABLES.get(op.service)?.[op.operationId]
    if (needed && needed.length > 0 && !needed.some((s) => principal.scopes.includes(s))) {
      throw new InsufficientScopes(op.service, op.operationId, needed)
    }
  }
  if (access) world.tx((tx) => touchGrant(tx, access.userId, access.clientId))
}
