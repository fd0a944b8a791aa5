import { hash } from 'node:crypto'

export type Address = { name?: string; email: string }
export type OutgoingAttachment = { filename: string; mimeType: string; data: Buffer }

/** A message to build: what deliverInternalMail, vacation replies and seeds provide. */
export type OutgoingMail = {
  from: Address
  to: Address[]
  cc?: Address[]
  bcc?: Address[]
  subject: string
  text: string
  html?: string
  attachments?: OutgoingAttachment[]
  date: Date
  messageId: string
  inReplyTo?: string
  references?: string
  headers?: Record<string, string>
}

const ascii = (s: string) => /^[\x20-\x7e]*$/.test(s)

/** RFC 2047 B-encoding for header text that is not plain ASCII. */
export function encodeWord(s: string): string {
  return ascii(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`
}

export function formatAddress(a: Address): string {
  if (!a.name) return a.email
  const name = ascii(a.name)
    ? /[(),.:;<>@[\]"]/.test(a.name)
      ? `"${a.name.replace(/(["\\])/g, '\\$1')}"`
      : a.name
    : encodeWord(a.name)
  return `${name} <${a.email}>`
}

/** RFC 5322 date in a fixed zone (UTC, written +0000) so builds are deterministic. */
export function rfc822Date(d: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  const p = (n: number) => String(n).padStart(2, '0')
  return `${days[d.getUTCDay()]}, ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`
}

/** Base64 text as lines of 76 characters, each ending in CRLF (what `replace(/.{1,76}/g, '$&\r\n')` writes). */
export function wrap76(b64: string): string {
  let out = ''
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\r\n`
  return out
}

function textPart(mime: string, content: string): string {
  if (ascii(content.replace(/\r?\n/g, ''))) {
    return `Content-Type: ${mime}; charset="UTF-8"\r\nContent-Transfer-Encoding: 7bit\r\n\r\n${content.replace(/\r?\n/g, '\r\n')}\r\n`
  }
  return `Content-Type: ${mime}; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap76(Buffer.from(content, 'utf8').toString('base64'))}`
}

function attachmentPart(a: OutgoingAttachment): string {
  const name = encodeWord(a.filename).replace(/"/g, '')
  return (
    `Content-Type: ${a.mimeType}; name="${name}"\r\nContent-Disposition: attachment; filename="${name}"\r\n` +
    `Content-Transfer-Encoding: base64\r\n\r\n${wrap76(a.data.toString('base64'))}`
  )
}

/** Builds RFC 822 bytes synchronously (boundaries derive from the Message-ID, so output is deterministic). */
export function buildMessage(mail: OutgoingMail): Buffer {
  const seed = hash('sha256', mail.messageId, 'hex')
  const head: string[] = [
    'MIME-Version: 1.0',
    `Date: ${rfc822Date(mail.date)}`,
    `Message-ID: ${mail.messageId}`,
    `Subject: ${encodeWord(mail.subject)}`,
    `From: ${formatAddress(mail.from)}`,
  ]
  if (mail.to.length) head.push(`To: ${mail.to.map(formatAddress).join(', ')}`)
  if (mail.cc?.length) head.push(`Cc: ${mail.cc.map(formatAddress).join(', ')}`)
  if (mail.bcc?.length) head.push(`Bcc: ${mail.bcc.map(formatAddress).join(', ')}`)
  if (mail.inReplyTo) head.push(`In-Reply-To: ${mail.inReplyTo}`)
  if (mail.references) head.push(`References: ${mail.references}`)
  for (const [k, v] of Object.entries(mail.headers ?? {})) head.push(`${k}: ${encodeWord(v)}`)

  let body = mail.html
    ? multipart('alternative', `${seed.slice(0, 24)}a`, [
        textPart('text/plain', mail.text),
        textPart('text/html', mail.html),
      ])
    : textPart('text/plain', mail.text)
  if (mail.attachments?.length) {
    body = multipart('mixed', `${seed.slice(24, 48)}m`, [body, ...mail.attachments.map(attachmentPart)])
  }
  return Buffer.from(`${head.join('\r\n')}\r\n${body}`, 'utf8')
}

function multipart(kind: string, boundary: string, parts: string[]): string {
  return `Content-Type: multipart/${kind}; boundary="${boundary}"\r\n\r\n${parts.map((p) => `--${boundary}\r\n${p}`).join('\r\n')}\r\n--${boundary}--\r\n`
}
