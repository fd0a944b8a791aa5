import { createECDH, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { SignJWT, exportJWK, type JWK } from 'jose'
import type { WorldKeys } from '../core/tokens.ts'

/** Google's issuer: client libraries check `iss` against it. */
export const ISSUER = 'https://accounts.google.com'

const b64url = (b: Buffer) => b.toString('base64url')

/**
 * The world's ID-token signing key: a P-256 key whose private scalar is an HMAC under the world's secret, so it needs
 * no storage, survives restarts with the secret, and dies with it (a fork or a sealed episode gets another).
 */
export function signingKey(keys: WorldKeys): { kid: string; privateKey: KeyObject; publicKey: KeyObject } {
  const d = Buffer.from(keys.derive('oidc-signing-key', 64), 'hex')
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(d)
  const point = ecdh.getPublicKey()
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    d: b64url(d),
    x: b64url(point.subarray(1, 33)),
    y: b64url(point.subarray(33, 65)),
  }
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' })
  return { kid: keys.derive('oidc-kid', 40), privateKey, publicKey: createPublicKey(privateKey) }
}

/** The world's JSON Web Key Set (public half only). */
export async function jwks(keys: WorldKeys): Promise<{ keys: JWK[] }> {
  const { kid, publicKey } = signingKey(keys)
  const jwk = await exportJWK(publicKey)
  return { keys: [{ ...jwk, kid, alg: 'ES256', use: 'sig' }] }
}

export type IdTokenClaims = {
  sub: string
  aud: string
  email: string
  name: string
  givenName: string
  familyName: string
  nonce?: string | null
  scopes: readonly string[]
  nowS: number
  hd?: string
}

/** A signed ID token with the claims Google puts in one (email and profile claims only when granted). */
export async function idToken(keys: WorldKeys, c: IdTokenClaims): Promise<string> {
  const { kid, privateKey } = signingKey(keys)
  const claims: Record<string, unknown> = { azp: c.aud }
  if (c.hd) claims.hd = c.hd
  if (c.scopes.includes('https://www.googleapis.com/auth/userinfo.email')) {
    Object.assign(claims, { email: c.email, email_verified: true })
  }
  if (c.scopes.includes('https://www.googleapis.com/auth/userinfo.profile')) {
    Object.assign(claims, { name: c.name, given_name: c.givenName, family_name: c.familyName })
  }
  if (c.nonce) claims.nonce = c.nonce
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(c.sub)
    .setAudience(c.aud)
    .setIssuedAt(c.nowS)
    .setExpirationTime(c.nowS + 3599)
    .sign(privateKey)
}
