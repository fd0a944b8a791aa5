import { createHash, generatePrimeSync } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { probablePrime, rsaKeyOf } from '../../envs/identity/rsa.ts'

// Service-account keys are derived from a world's secret (docs/decisions/0260, 0308): the same seed must give the
// same key in every version, or key files handed out before an upgrade would stop signing in.
describe('derived service-account keys', () => {
  test('a seed gives the key it always gave (public key fingerprint pinned)', async () => {
    const { publicKey, privateKey } = await rsaKeyOf('a'.repeat(64))
    const spki = publicKey.export({ format: 'der', type: 'spki' })
    expect(createHash('sha256').update(spki).digest('hex')).toBe(
      'e801599e948400f7b1e76931b2e75fd253110b74180cba76806e176c4d401a8c',
    )
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048)
  })

  // Pinned from the derivation before the deeper sieve and the imported HMAC key (docs/decisions/0312): both only
  // spare work, so every seed must still give the same key.
  test.each([
    ['b'.repeat(64), '7dab1b841cc7961fd15c6c446be6a55e879c616835961793b0c539e2e57dc735'],
    [
      createHash('sha256').update('wsgym').digest('hex'),
      'ae7dfb4d3fc07704952934dd23d220897806ee83e6037940ff30d0a406034cc5',
    ],
  ])('seed %s… keeps its key', async (seed, fingerprint) => {
    const { publicKey } = await rsaKeyOf(seed)
    const spki = publicKey.export({ format: 'der', type: 'spki' })
    expect(createHash('sha256').update(spki).digest('hex')).toBe(fingerprint)
  })

  test('the primality test accepts primes and rejects composites, strong pseudoprimes included', () => {
    expect(probablePrime(2n ** 127n - 1n)).toBe(true)
    expect(probablePrime(2n ** 521n - 1n)).toBe(true)
    const p = generatePrimeSync(1024, { bigint: true })
    const q = generatePrimeSync(1024, { bigint: true })
    expect(probablePrime(p)).toBe(true)
    expect(probablePrime(p * q)).toBe(false)
    expect(probablePrime(561n)).toBe(false) // a Carmichael number
    expect(probablePrime(2047n)).toBe(false) // a strong pseudoprime to base 2
    expect(probablePrime(3215031751n)).toBe(false) // a strong pseudoprime to bases 2, 3, 5 and 7
  })
})
