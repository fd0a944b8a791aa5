/**
 * Quoted-printable decoding as parseMime did it before it wrote into one buffer (a string and a number per
 * character): the reference the tests hold the fast decoder to.
 */
export function referenceQp(body: Buffer): Buffer {
  const text = body.toString('latin1').replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3)
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else bytes.push(text.charCodeAt(i) & 0xff)
  }
  return Buffer.from(bytes)
}
