import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Decision 0392: HTML an agent sends (a Gmail body, an HTML file imported as a Google Doc) is stripped and tokenised
// in linear time. The regular expressions used before backtracked: an unclosed `<script>`, `<!--`, quote or `<`
// was retried from every later `<` to the end of the text (80 KB of `<a` cost 15 s of CPU in one request). Work is
// observed, never timed: no expression that scans for a `>` (`[^>]`) or lazily (`*?`) runs over a long text that
// does not end at a `>`, which is what made each retry run to the end.
const replace = RegExp.prototype[Symbol.replace]
const matchAll = RegExp.prototype[Symbol.matchAll]
let risky: string[] = []
const note = (re: RegExp, input: unknown) => {
  const s = String(input)
  if (s.length > 10_000 && /\[\^>|\*\?/.test(re.source) && !s.endsWith('>')) risky.push(re.source)
}
beforeEach(() => {
  risky = []
  RegExp.prototype[Symbol.replace] = function (this: RegExp, s: string, by: never) {
    note(this, s)
    return replace.call(this, s, by)
  } as typeof replace
  RegExp.prototype[Symbol.matchAll] = function (this: RegExp, s: string) {
    note(this, s)
    return matchAll.call(this, s)
  } as typeof matchAll
})
afterEach(() => {
  RegExp.prototype[Symbol.replace] = replace
  RegExp.prototype[Symbol.matchAll] = matchAll
})

const HOSTILE = ['<a'.repeat(6_000), '<script>'.repeat(2_000), '<!--'.repeat(4_000) + '<b>x', '<a "'.repeat(4_000)]

describe('gmail.users.messages.send', () => {
  test('an HTML body of unclosed tags is stripped without backtracking', async () => {
    const h = harness('demo')
    for (const html of HOSTILE) {
      const mail = `From: alice@northwind.test\r\nTo: bob@northwind.test\r\nSubject: tags\r\nContent-Type: text/html\r\n\r\n${html}`
      const raw = Buffer.from(mail).toString('base64url')
      const res = await h.call('POST', '/gmail/v1/users/me/messages/send', { json: { raw } })
      expect(res.status).toBe(200)
      const got = await h.call('GET', `/gmail/v1/users/me/messages/${res.body.id}?format=metadata`)
      expect(typeof got.body.snippet).toBe('string')
    }
    expect(risky).toEqual([])
  })
})

describe('drive.files.create', () => {
  test('an HTML upload converted to a Google Doc is tokenised without backtracking', async () => {
    const h = harness('demo')
    for (const html of HOSTILE) {
      const head = `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({
        name: 'Imported',
        mimeType: 'application/vnd.google-apps.document',
      })}\r\n--b\r\nContent-Type: text/html\r\n\r\n`
      const res = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart', {
        body: new Uint8Array(Buffer.from(`${head}${html}\r\n--b--`)),
        headers: { 'content-type': 'multipart/related; boundary=b' },
      })
      expect(res.status).toBe(200)
    }
    expect(risky).toEqual([])
  })
})
