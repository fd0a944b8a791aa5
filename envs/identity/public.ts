import { parseToken } from '../core/tokens.ts'
import { worldOfCredential } from './store/oauth.ts'
import { BAD_SIGNATURE, JWT_BEARER } from './routes/jwt-bearer.ts'

const WORLD_ID = /^[a-z0-9_]{1,40}$/

/** OAuth endpoints called without a bearer token: the world comes from the credential they carry. */
const PUBLIC: Record<string, 'token' | 'revoke' | 'tokeninfo' | 'none' | 'world'> = {
  '/token': 'token',
  '/o/oauth2/token': 'token',
  '/oauth2/v4/token': 'token',
  '/revoke': 'revoke',
  '/o/oauth2/revoke': 'revoke',
  '/tokeninfo': 'tokeninfo',
  '/oauth2/v3/tokeninfo': 'tokeninfo',
  '/.well-known/openid-configuration': 'none',
  '/oauth2/v3/certs': 'world',
}

export const isPublicOAuthPath = (path: string) => Object.hasOwn(PUBLIC, path)

const worldOfAny = (value: string | undefined) =>
  value ? (worldOfCredential(value) ?? parseToken(value)?.worldId) : undefined

/**
 * The world a public OAuth request belongs to: the world in its code, refresh or access token, or `?world=` for the
 * key set; `null` when the endpoint needs no world, undefined when none can be told.
 */
export function worldOfPublicRequest(path: string, params: Record<string, string>): string | null | undefined {
  switch (PUBLIC[path]) {
    case 'none':
      return null
    case 'world':
      return params.world
    case 'token':
      // A service account's assertion carries no world: the request names it (`world`, the X-Wsgym-World header, or
      // the world of a bearer token sent along, as the gym's http_request does). Only routing: the signature decides.
      if (params.grant_type === JWT_BEARER) {
        if (params.world !== undefined) return WORLD_ID.test(params.world) ? params.world : undefined
        return params.access_token ? parseToken(params.access_token)?.worldId : undefined
      }
      return worldOfAny(params.grant_type === 'refresh_token' ? params.refresh_token : params.code)
    case 'revoke':
      return worldOfAny(params.token)
    case 'tokeninfo':
      return worldOfAny(params.access_token)
    default:
      return undefined
  }
}

/** What a public endpoint answers when the request names no world this server holds (as for a bad credential). */
export function unroutable(path: string, params: Record<string, string>): { status: 400 | 401; body: object } {
  switch (PUBLIC[path]) {
    case 'token':
      // Deviation: Google has one token endpoint; ours must be told the world, and an unknown one answers as a bad
      // signature does (no existence oracle).
      if (params.grant_type === JWT_BEARER) {
        return { status: 400, body: { error: 'invalid_grant', error_description: BAD_SIGNATURE } }
      }
      if (params.grant_type !== 'authorization_code' && params.grant_type !== 'refresh_token') {
        return {
          status: 400,
          body: {
            error: 'unsupported_grant_type',
            error_description: `Invalid grant_type: ${params.grant_type ?? ''}`,
          },
        }
      }
      return params.grant_type === 'refresh_token'
        ? { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } }
        : { status: 400, body: { error: 'invalid_grant', error_description: 'Malformed auth code.' } }
    case 'revoke':
      return { status: 400, body: { error: 'invalid_token', error_description: 'Token expired or revoked' } }
    default:
      return { status: 400, body: { error: 'invalid_token', error_description: 'Invalid Value' } }
  }
}
