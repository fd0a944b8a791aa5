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
