import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type gmail_v1 } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'
import { gmailSeed, rfc822 } from '../gmail/fixtures.ts'

let server: SdkServer
let ann: gmail_v1.Gmail
let ben: gmail_v1.Gmail
beforeAll(async () => {
  server = await startSdkServer(gmailSeed)
  ann = google.gmail({ version: 'v1', auth: server.auth('ann'), rootUrl: server.url })
  ben = google.gmail({ version: 'v1', auth: server.auth('ben'), rootUrl: server.url })
})
afterAll(async () => server.close())

describe('gmail workflows through googleapis', () => {
  test('search, read and label a customer mail', async () => {
    const list = await ann.users.messages.list({ userId: 'me', q: 'from:acme.test has:attachment' })
    expect(list.data.messages).toHaveLength(1)
    const msg = await ann.users.messages.get({ userId: 'me', id: list.data.messages![0]!.id! })
    expect(msg.data.payload?.headers?.find((h) => h.name === 'Subject')?.value).toBe('Invoice 1042')
    const label = await ann.users.labels.create({ userId: 'me', requestBody: { name: 'Needs reply' } })
    const modified = await ann.users.messages.modify({
      userId: 'me',
      id: msg.data.id!,
      requestBody: { addLabelIds: [label.data.id!], removeLabelIds: ['UNREAD'] },
    })
    expect(modified.data.labelIds).toContain(label.data.id)
    const byName = await ann.users.messages.list({ userId: 'me', q: 'label:needs-reply' })
    expect(byName.data.messages?.[0]?.id).toBe(msg.data.id)
  })

  test('reply in thread, then forward the attachment to a colleague', async () => {
    const found = (await ann.users.messages.list({ userId: 'me', q: 'subject:"invoice 1042" from:priya' })).data
      .messages![0]!
    const original = await ann.users.messages.get({ userId: 'me', id: found.id!, format: 'full' })
    const messageId = original.data.payload!.headers!.find((h) => h.name === 'Message-ID')!.value!
    const reply = await ann.users.messages.send({
      userId: 'me',
      requestBody: {
        threadId: found.threadId!,
        raw: rfc822(
          { To: 'priya@acme.test', Subject: 'Re: Invoice 1042', 'In-Reply-To': messageId, References: messageId },
          'Paid yesterday.',
        ),
      },
    })
    expect(reply.data.threadId).toBe(found.threadId)
    const part = original.data.payload!.parts!.find((p) => p.filename === 'invoice-1042.pdf')!
    const att = await ann.users.messages.attachments.get({
      userId: 'me',
      messageId: found.id!,
      id: part.body!.attachmentId!,
    })
    const pdf = Buffer.from(att.data.data!, 'base64url')
    const boundary = 'fwd-boundary'
    const mime = [
      'To: ben@example.com',
      'Subject: Fwd: Invoice 1042',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain',
      '',
      'See attached.',
      `--${boundary}`,
      'Content-Type: application/pdf; name="invoice-1042.pdf"',
      'Content-Disposition: attachment; filename="invoice-1042.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      pdf.toString('base64'),
      `--${boundary}--`,
      '',
    ].join('\r\n')
    await ann.users.messages.send({ userId: 'me', requestBody: { raw: Buffer.from(mime).toString('base64url') } })
    const inbox = await ben.users.messages.list({ userId: 'me', q: 'filename:invoice-1042.pdf' })
    expect(inbox.data.messages).toHaveLength(1)
    const got = await ben.users.messages.get({ userId: 'me', id: inbox.data.messages![0]!.id! })
    const benPart = got.data.payload!.parts!.find((p) => p.filename === 'invoice-1042.pdf')!
    const bytes = await ben.users.messages.attachments.get({
      userId: 'me',
      messageId: got.data.id!,
      id: benPart.body!.attachmentId!,
    })
    expect(Buffer.from(bytes.data.data!, 'base64url').equals(pdf)).toBe(true)
  })

  test('draft then send, and history sync sees it', async () => {
    const start = (await ben.users.getProfile({ userId: 'me' })).data.historyId!
    const draft = await ann.users.drafts.create({
      userId: 'me',
      requestBody: { message: { raw: rfc822({ To: 'ben@example.com', Subject: 'Agenda' }, '1. budget') } },
    })
    await ann.users.drafts.send({ userId: 'me', requestBody: { id: draft.data.id! } })
    const history = await ben.users.history.list({
      userId: 'me',
      startHistoryId: start,
      historyTypes: ['messageAdded'],
    })
    const added = history.data.history!.flatMap((h) => h.messagesAdded ?? [])
    expect(added).toHaveLength(1)
    expect(added[0]!.message!.labelIds).toContain('INBOX')
  })

  test('a filter acts on delivery', async () => {
    await ben.users.settings.filters.create({
      userId: 'me',
      requestBody: { criteria: { subject: 'urgent' }, action: { addLabelIds: ['STARRED', 'IMPORTANT'] } },
    })
    await ann.users.messages.send({
      userId: 'me',
      requestBody: { raw: rfc822({ To: 'ben@example.com', Subject: 'Urgent: server down' }, 'now') },
    })
    const starred = await ben.users.messages.list({ userId: 'me', q: 'is:starred is:important' })
    expect(starred.data.messages).toHaveLength(1)
  })

  test('from: with a whole address finds that sender, not a longer address containing it', async () => {
    const raw = rfc822({ From: 'Mpriya <mpriya@acme.test>', To: 'ann@example.com', Subject: 'Lookalike' }, 'hi')
    await ann.users.messages.insert({ userId: 'me', requestBody: { raw, labelIds: ['INBOX'] } })
    const subjects = async (q: string) => {
      const ids = (await ann.users.messages.list({ userId: 'me', q })).data.messages ?? []
      const got = await Promise.all(
        ids.map((m) => ann.users.messages.get({ userId: 'me', id: m.id!, format: 'metadata' })),
      )
      return got.map((m) => m.data.payload!.headers!.find((h) => h.name === 'Subject')!.value).sort()
    }
    expect(await subjects('from:priya@acme.test')).toEqual(['Invoice 1042'])
    expect(await subjects('from:PRIYA@acme.test subject:invoice')).toEqual(['Invoice 1042'])
    expect(await subjects('from:priya')).toEqual(['Invoice 1042', 'Lookalike'])
  })

  test("errors surface as GaxiosErrors with Google's envelope", async () => {
    await expect(
      ann.users.messages.get({ userId: 'me', id: '18c0000000000000' }, { retry: false }),
    ).rejects.toMatchObject({ status: 404 })
    await expect(
      ann.users.labels.create({ userId: 'me', requestBody: { name: 'INBOX' } }, { retry: false }),
    ).rejects.toMatchObject({ status: 400 })
  })

  test('media upload through the client (uploads need the per-call rootUrl)', async () => {
    const res = await ann.users.messages.send(
      {
        userId: 'me',
        media: { mimeType: 'message/rfc822', body: 'To: ben@example.com\r\nSubject: via upload\r\n\r\nhi' },
      },
      { rootUrl: server.url } as never,
    )
    expect(res.status).toBe(200)
    expect((await ben.users.messages.list({ userId: 'me', q: 'subject:"via upload"' })).data.messages).toHaveLength(1)
  })

  test('draft created and sent through media uploads', async () => {
    // With per-call options the client's overloads type the response loosely; the body is a Draft.
    const draft = (await ann.users.drafts.create(
      {
        userId: 'me',
        requestBody: {},
        media: { mimeType: 'message/rfc822', body: 'To: ben@example.com\r\nSubject: draft upload\r\n\r\nfirst' },
      },
      { rootUrl: server.url } as never,
    )) as unknown as { data: { id: string; message: { labelIds: string[] } } }
    expect(draft.data.message.labelIds).toEqual(['DRAFT'])
    const sent = (await ann.users.drafts.send(
      {
        userId: 'me',
        requestBody: { id: draft.data.id },
        media: { mimeType: 'message/rfc822', body: 'To: ben@example.com\r\nSubject: draft upload\r\n\r\nfinal' },
      },
      { rootUrl: server.url } as never,
    )) as unknown as { data: { labelIds: string[] } }
    expect(sent.data.labelIds).toContain('SENT')
    const got = await ben.users.messages.list({ userId: 'me', q: 'subject:"draft upload"' })
    expect(got.data.messages).toHaveLength(1)
    expect((await ben.users.messages.get({ userId: 'me', id: got.data.messages![0]!.id! })).data.snippet).toBe('final')
  })
})
