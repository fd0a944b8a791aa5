import { createSign, createVerify } from 'node:crypto'
import type { WorldKeys } from '../core/tokens.ts'
import { rsaKeyOf, type RsaKey } from './rsa.ts'
import type { ServiceAccountRow } from './store/service-accounts.ts'
import { parseJsonWithin } from '../core/json-width.ts'
import { BoundedMap } from '../core/bounded-map.ts'

/** Google's token endpoint: the `aud` a service account's assertion names (a key file's `token_uri` adds the world). */
export const TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token'

/**
 * The RSA-2048 key behind a service-account key id: derived from the world's secret, so it is never stored, a
 * snapshot does not reveal it, and the same key id in another world (same seed) is another key.
 */
export function keyPairOf(keys: WorldKeys, keyId: string): Promise<RsaKey> {
  const seed = keys.derive(`service-account-key\u0000${keyId}`, 64)
  let key = derived.get(seed)
  if (!key) {
    // Deriving takes 100-300 ms of prime search; the key is a pure function of `seed` (which changes with the world's
    // secret), so a bounded memo never serves a stale or another world's key.
    key = rsaKeyOf(seed)
    key.catch(() => derived.delete(seed))
    derived.set(seed, key)
  }
  return key
}
const derived = new BoundedMap<string, Promise<RsaKey>>(256)

/** The JSON key file Google hands out (`privateKeyType` TYPE_GOOGLE_CREDENTIALS_FILE), which client libraries read. */
export async function keyFile(keys: WorldKeys, sa: ServiceAccountRow, keyId: string) {
  const { privateKey } = await keyPairOf(keys, keyId)
  return {
    type: 'service_account',
    project_id: sa.projectId,
    private_key_id: keyId,
    private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    client_email: sa.email,
    client_id: sa.uniqueId,
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    // Deviation: Google's token endpoint with the world named (one endpoint serves many worlds here): a library
    // reading the file (google-auth for Python) posts there and signs it as `aud`, which /token accepts.
    token_uri: `${TOKEN_AUDIENCE}?world=${encodeURIComponent(keys.worldId)}`,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(sa.email)}`,
    universe_domain: 'googleapis.com',
  }
}

const b64u = (v: string | Buffer) => Buffer.from(v).toString('base64url')

/** An RS256 compact JWS over `payload` (JSON text, passed through as given) with the key's id in the header. */
export async function signJwt(keys: WorldKeys, keyId: string, payload: string): Promise<string> {
  const { privateKey } = await keyPairOf(keys, keyId)
  const input = `${b64u(JSON.stringify({ alg: 'RS256', kid: keyId, typ: 'JWT' }))}.${b64u(payload)}`
  return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')}`
}

/** RSA-SHA256 signature of raw bytes (signBlob). */
export async function signBytes(keys: WorldKeys, keyId: string, data: Buffer): Promise<string> {
  const { privateKey } = await keyPairOf(keys, keyId)
  return createSign('RSA-SHA256').update(data).sign(privateKey).toString('base64')
}

export type ParsedJwt = { header: Record<string, unknown>; claims: Record<string, unknown>; input: string; sig: Buffer }

/**
 * Splits a compact JWS; undefined when it is not three base64url parts with JSON objects in the first two. A part
 * may end in `=` padding: older google-auth for Python (Debian's, which duplicity uses) pads every segment, and
 * Google's token endpoint accepts it.
 */
export function parseJwt(jwt: string): ParsedJwt | undefined {
  const parts = jwt.split('.')
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*={0,2}$/.test(p))) return undefined
  try {
    const header = parseJsonWithin(Buffer.from(parts[0]!, 'base64url').toString('utf8'))
    const claims = parseJsonWithin(Buffer.from(parts[1]!, 'base64url').toString('utf8'))
    if (!header || typeof header !== 'object' || Array.isArray(header)) return undefined
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return undefined
    return {
      header: header as Record<string, unknown>,
      claims: claims as Record<string, unknown>,
      input: `${parts[0]}.${parts[1]}`,
      sig: Buffer.from(parts[2]!, 'base64url'),
    }
  } catch {
    return undefined
  }
}

/** Whether `jwt` carries a valid RS256 signature by the key `keyId` of this world. */
export async function verifiedBy(keys: WorldKeys, keyId: string, jwt: ParsedJwt): Promise<boolean> {
  if (jwt.header.alg !== 'RS256' || jwt.sig.length !== 256) return false
  const { publicKey } = await keyPairOf(keys, keyId)
  return createVerify('RSA-SHA256').update(jwt.input).verify(publicKey, jwt.sig)
}
