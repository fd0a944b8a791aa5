import { checkPrime, createHmac, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'

/**
 * Deterministic RSA keys for service accounts. Google's keys are RSA-2048 (RS256), and google-auth-library signs
 * with whatever PEM a key file holds, so the world needs real RSA keys; but a world must stay byte-identical for the
 * same seed and requests, and nothing secret may be stored in it (docs/decisions/0104). So a key is a pure function
 * of a 256-bit seed that the caller derives from the world's secret: an HMAC-SHA256 counter-mode stream draws
 * 1024-bit odd candidates with the top two bits set (so p*q has exactly 2048 bits), small primes are sieved out in
 * JavaScript and OpenSSL's primality test (`checkPrime`, on libuv's thread pool, so the event loop is not held for
 * the ~100 ms a key takes) decides the rest. See docs/decisions/0260.
 */

const E = 65537n
const SMALL_PRIMES = (() => {
  const out: bigint[] = []
  for (let n = 3; out.length < 300; n += 2) if (out.every((p) => n % Number(p) !== 0)) out.push(BigInt(n))
  return out
})()

/** An HMAC-SHA256 counter-mode byte stream (the DRBG): same seed, same bytes. */
function stream(seed: string, label: string) {
  let counter = 0
  return (bytes: number): Buffer => {
    const parts: Buffer[] = []
    let have = 0
    while (have < bytes) {
      const block = createHmac('sha256', seed).update(`${label}\u0000${counter++}`).digest()
      parts.push(block)
      have += block.length
    }
    return Buffer.concat(parts).subarray(0, bytes)
  }
}

const toBig = (b: Buffer) => BigInt(`0x${b.toString('hex')}`)

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m]
  let [oldS, s] = [1n, 0n]
  while (r !== 0n) {
    const q = oldR / r
    ;[oldR, r] = [r, oldR - q * r]
    ;[oldS, s] = [s, oldS - q * s]
  }
  return ((oldS % m) + m) % m
}

const isPrime = (p: bigint) => new Promise<boolean>((resolve, reject) => {
  checkPrime(p, { checks: 0 }, (err, ok) => (err ? reject(err) : resolve(ok)))
})

async function prime(next: (bytes: number) => Buffer): Promise<bigint> {
  for (;;) {
    const b = next(128)
    b[0]! |= 0xc0
    b[127]! |= 1
    const p = toBig(b)
    if (SMALL_PRIMES.some((s) => p % s === 0n)) continue
    if ((p - 1n) % E === 0n) continue
    if (await isPrime(p)) return p
  }
}

const b64u = (n: bigint) => {
  let hex = n.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  return Buffer.from(hex, 'hex').toString('base64url')
}

export type RsaKey = { privateKey: KeyObject; publicKey: KeyObject }

/** The RSA-2048 key of a 256-bit seed (hex or any string with that much entropy). */
export async function rsaKeyOf(seed: string): Promise<RsaKey> {
  const next = stream(seed, 'wsgym rsa key')
  let p = await prime(next)
  let q = await prime(next)
  while (p === q) q = await prime(next)
  if (p < q) [p, q] = [q, p]
  const n = p * q
  const d = modInverse(E, (p - 1n) * (q - 1n))
  const jwk = {
    kty: 'RSA', n: b64u(n), e: b64u(E), d: b64u(d), p: b64u(p), q: b64u(q),
    dp: b64u(d % (p - 1n)), dq: b64u(d % (q - 1n)), qi: b64u(modInverse(q, p)),
  }
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' })
  return { privateKey, publicKey: createPublicKey(privateKey) }
}
