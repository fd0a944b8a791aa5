import { describe, expect, test } from 'vitest'
import { parseMime } from '../../envs/gmail/mime/parse.ts'
import { referenceQp } from './reference-qp.ts'

const ALPHABET = [
  '=',
  '=',
  '=',
  '0',
  '9',
  'a',
  'F',
  'f',
  'G',
  'g',
  'z',
  ' ',
  '\r',
  '\n',
  '\r\n',
  '=\r\n',
  '=\n',
  'é',
  '\xff',
]

describe('quoted-printable bodies', () => {
  test('decode as the per-character reference does, soft breaks, bad escapes and a trailing = included', () => {
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let n = 0; n < 2000; n++) {
      const length = next() % 40
      const body = Array.from({ length }, () => ALPHABET[next() % ALPHABET.length]).join('')
      const raw = Buffer.from(
        `Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${body}`,
        'latin1',
      )
      const decoded = parseMime(raw).body!
      expect(decoded.equals(referenceQp(Buffer.from(body, 'latin1'))), JSON.stringify(body)).toBe(true)
    }
    const fixed = parseMime(Buffer.from('Content-Transfer-Encoding: quoted-printable\n\nCaf=C3=A9 =3D =\n=4', 'latin1'))
    expect(fixed.body!.toString('latin1')).toBe('Caf\xc3\xa9 = =4')
  })
})
