import {
  constants,
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  publicEncrypt,
  type KeyObject,
} from 'node:crypto'

/**
 * Deterministic RSA keys for service accounts. Google's keys are RSA-2048 (RS256), and google-auth-library signs
 * with whatever PEM a key file holds, so the world needs real RSA keys; but a world must stay byte-identical for the
 * same seed and requests, and nothing secret may be stored in it (docs/decisions/0104). So a key is a pure function
 * of a 256-bit seed that the caller derives from the world's secret: an HMAC-SHA256 counter-mode stream draws
 * 1024-bit odd candidates with the top two bits set (so p*q has exactly 2048 bits), primes below 10,000 are sieved
 * out in JavaScript and Miller-Rabin rounds on OpenSSL's modular exponentiation decide the rest, yielding to the event
 * loop between candidates. See docs/decisions/0260 and 0308.
 */

const E = 65537n

/**
 * The odd primes below 10,000 in groups whose product stays below 2^53: a candidate's remainder modulo a group's
 * product is one BigInt division, and the remainders modulo the group's primes are plain number arithmetic. A
 * 1,024-bit candidate with a factor this small is composite, so sieving deeper changes no key: it only spares the
 * Miller-Rabin rounds that would have rejected it (~18% of the candidates that reach them with primes < 2,000).
 */
const SIEVE = (() => {
  const primes: number[] = []
  for (let n = 3; n < 10_000; n += 2) if (primes.every((p) => p * p > n || n % p !== 0)) primes.push(n)
  const groups: { product: bigint; primes: number[] }[] = []
  let group: number[] = []
  let product = 1
  for (const p of primes) {
    if (product * p > Number.MAX_SAFE_INTEGER) {
      groups.push({ product: BigInt(product), primes: group })
      group = []
      product = 1
    }
    group.push(p)
    product *= p
  }
  groups.push({ product: BigInt(product), primes: group })
  return groups
})()

/** True when `n` has an odd prime factor below 10,000 (`n` itself larger than that). */
function smallFactor(n: bigint): boolean {
  for (const g of SIEVE) {
    const r = Number(n % g.product)
    for (const p of g.primes) if (r % p === 0) return true
  }
  return false
}

/** An HMAC-SHA256 counter-mode byte stream (the DRBG): same seed, same bytes. */
function stream(seed: string, label: string) {
  let counter = 0
  // The key imported once (a string key is imported again by every createHmac: ~40% of each block's cost).
  const key = seed ? createSecretKey(Buffer.from(seed, 'utf8')) : seed
  return (bytes: number): Buffer => {
    const parts: Buffer[] = []
    let have = 0
    while (have < bytes) {
      const block = createHmac('sha256', key).update(`${label}\u0000${counter++}`).digest()
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

/**
 * Miller-Rabin bases. The candidates are HMAC output nobody can choose, and for random 1024-bit odd numbers a few
 * rounds already bound the chance of passing a composite far below 2^-80 (Damgard, Landrock and Pomerance, 1993);
 * seven is a wide margin. Node's `checkPrime` cannot be asked for fewer than OpenSSL's 64 rounds, ~15 ms a prime.
 */
const BASES = [2n, 3n, 5n, 7n, 11n, 13n, 17n]

const toBuffer = (n: bigint, bytes: number) => Buffer.from(n.toString(16).padStart(bytes * 2, '0'), 'hex')

/**
 * `base^exp mod m` for every base, by OpenSSL: a raw (unpadded) RSA public operation with modulus `m` and
 * exponent `exp` is exactly that exponentiation (OpenSSL accepts any exponent below a modulus of ≤ 3,072 bits).
 */
function powers(m: bigint, exp: bigint): (base: bigint) => bigint {
  const bytes = Math.ceil(m.toString(16).length / 2)
  const key = createPublicKey({ key: { kty: 'RSA', n: b64u(m), e: b64u(exp) }, format: 'jwk' })
  return (base) => {
    const out = publicEncrypt({ key, padding: constants.RSA_NO_PADDING }, toBuffer(base, bytes))
    return BigInt(`0x${out.toString('hex')}`)
  }
}

/** Miller-Rabin with BASES on an odd `n` greater than every base. */
export function probablePrime(n: bigint): boolean {
  let d = n - 1n
  let s = 0
  while ((d & 1n) === 0n) {
    d >>= 1n
    s++
  }
  const pow = powers(n, d)
  const last = n - 1n
  for (const a of BASES) {
    let x = pow(a)
    if (x === 1n || x === last) continue
    let witness = true
    for (let i = 1; i < s && witness; i++) {
      x = (x * x) % n
      if (x === last) witness = false
    }
    if (witness) return false
  }
  return true
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

async function prime(next: (bytes: number) => Buffer): Promise<bigint> {
  for (;;) {
    const b = next(128)
    b[0]! |= 0xc0
    b[127]! |= 1
    const p = toBig(b)
    if (smallFactor(p)) continue
    if ((p - 1n) % E === 0n) continue
    if (probablePrime(p)) return p
    await yieldToLoop()
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
    kty: 'RSA',
    n: b64u(n),
    e: b64u(E),
    d: b64u(d),
    p: b64u(p),
    q: b64u(q),
    dp: b64u(d % (p - 1n)),
    dq: b64u(d % (q - 1n)),
    qi: b64u(modInverse(q, p)),
  }
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' })
  return { privateKey, publicKey: createPublicKey(privateKey) }
}
