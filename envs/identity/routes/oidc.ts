import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { googleUserId } from '../ids.ts'
import { ISSUER, jwks } from '../oidc.ts'

/** The OpenID Provider metadata, with this server's own origin for every endpoint. */
function configuration(c: WorldContext) {
  const origin = new URL(c.req.url).origin
  return c.json(
    {
      issuer: ISSUER,
      authorization_endpoint: `${origin}/o/oauth2/v2/auth`,
      token_endpoint: `${origin}/token`,
      userinfo_endpoint: `${origin}/v1/userinfo`,
      revocation_endpoint: `${origin}/revoke`,
      // Deviation: each world signs with its own key, so the key set is per world (`?world=<id>`).
      jwks_uri: `${origin}/oauth2/v3/certs`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      scopes_supported: ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      claims_supported: [
        'aud',
        'email',
        'email_verified',
        'exp',
        'family_name',
        'given_name',
        'iat',
        'iss',
        'name',
        'sub',
      ],
      code_challenge_methods_supported: ['plain', 'S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    },
    200,
  )
}

async function certs(c: WorldContext) {
  return c.json(await jwks(c.var.keys), 200)
}

const USERINFO_SCOPES = [
  'openid',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
]

function userinfo(c: WorldContext) {
  const scopes = c.var.principal.scopes
  if (!scopes.some((s) => USERINFO_SCOPES.includes(s))) {
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'insufficientPermissions',
      'Request had insufficient authentication scopes.',
    )
  }
  const u = c.var.user
  const body: Record<string, unknown> = { sub: googleUserId(c.var.world.db, u.id) }
  if (scopes.includes('https://www.googleapis.com/auth/userinfo.profile')) {
    Object.assign(body, { name: u.name, given_name: u.givenName, family_name: u.familyName })
  }
  if (scopes.includes('https://www.googleapis.com/auth/userinfo.email')) {
    Object.assign(body, { email: u.email, email_verified: true, hd: u.email.split('@')[1] })
  }
  return c.json(body, 200)
}

export const oidcRouter = createGoogleRouter()
oidcRouter.get('/.well-known/openid-configuration', configuration)
oidcRouter.get('/oauth2/v3/certs', certs)
for (const path of ['/v1/userinfo', '/oauth2/v3/userinfo']) {
  oidcRouter.get(path, userinfo)
  oidcRouter.post(path, userinfo)
}
