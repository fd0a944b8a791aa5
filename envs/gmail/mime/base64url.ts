/**
 * URL-safe base64 with `=` padding, as Gmail writes `raw`, `body.data` and attachment `data`
 * (recorded answers end in `=`/`==`; Python's `urlsafe_b64decode` refuses the unpadded form).
 * Decoding (Node's `base64url`) accepts both the padded and unpadded forms.
 */
export function base64urlPadded(data: Buffer): string {
  const s = data.toString('base64url')
  return s + '='.repeat((4 - (s.length % 4)) % 4)
}
