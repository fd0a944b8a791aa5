import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'

const seed = {
  name: 'docs-sdk',
  now: '2026-03-02T14:00:00Z',
  users: [
    { id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' },
    { id: 'bob', email: 'bob@northwind.test', name: 'Bob Okafor' },
  ],
}

let server: SdkServer
beforeAll(async () => {
  server = await startSdkServer(seed)
})
afterAll(async () => {
  await server.close()
})

const docsFor = (user: string) => google.docs({ version: 'v1', auth: server.auth(user), rootUrl: server.url })
const driveFor = (user: string) => google.drive({ version: 'v3', auth: server.auth(user), rootUrl: server.url })

/** The multi-request edit both workflows use. */
function edit(documentId: string, revisionId: string) {
  return docsFor('alice').documents.batchUpdate({
    documentId,
    requestBody: {
      requests: [
        { insertText: { location: { index: 1 }, text: 'Launch plan\nShip on Friday\n' } },
        {
          updateParagraphStyle: {
            range: { startIndex: 1, endIndex: 13 },
            paragraphStyle: { namedStyleType: 'HEADING_1' },
            fields: 'namedStyleType',
          },
        },
        { updateTextStyle: { range: { startIndex: 13, endIndex: 17 }, textStyle: { bold: true }, fields: 'bold' } },
        { insertTable: { endOfSegmentLocation: {}, rows: 2, columns: 2 } },
        { replaceAllText: { containsText: { text: 'friday', matchCase: false }, replaceText: 'Monday' } },
      ],
      writeControl: { requiredRevisionId: revisionId },
    },
  })
}

describe('docs.documents.* through googleapis', () => {
  test('create, edit with a multi-request batchUpdate and read back', async () => {
    const docs = docsFor('alice')
    const created = await docs.documents.create({ requestBody: { title: 'Launch plan' } })
    expect(created.status).toBe(200)
    const documentId = created.data.documentId!
    const update = await edit(documentId, created.data.revisionId!)
    expect(update.data.replies).toHaveLength(5)
    expect(update.data.replies![4]).toEqual({ replaceAllText: { occurrencesChanged: 1 } })
    const doc = await docs.documents.get({ documentId })
    const content = doc.data.body!.content!
    expect(content[1]!.paragraph!.paragraphStyle!.namedStyleType).toBe('HEADING_1')
    expect(content[2]!.paragraph!.elements![0]!.textRun).toMatchObject({ content: 'Ship', textStyle: { bold: true } })
    expect(content.some((e) => e.table?.rows === 2)).toBe(true)
    expect(doc.data.revisionId).toBe(update.data.writeControl!.requiredRevisionId)
    const tabs = await docs.documents.get({ documentId, includeTabsContent: true })
    expect(tabs.data.body).toBeUndefined()
    expect(tabs.data.tabs![0]!.documentTab!.body!.content!.length).toBe(content.length)
  })

  test('edits show in Drive (modifiedTime, version, export) and sharing governs access', async () => {
    const docs = docsFor('alice')
    const created = await docs.documents.create({ requestBody: { title: 'Shared plan' } })
    const documentId = created.data.documentId!
    const drive = driveFor('alice')
    const before = await drive.files.get({ fileId: documentId, fields: 'modifiedTime,version' })
    await edit(documentId, created.data.revisionId!)
    const after = await drive.files.get({ fileId: documentId, fields: 'modifiedTime,version' })
    expect(Date.parse(after.data.modifiedTime!)).toBeGreaterThan(Date.parse(before.data.modifiedTime!))
    expect(Number(after.data.version)).toBeGreaterThan(Number(before.data.version))

    const html = await drive.files.export({ fileId: documentId, mimeType: 'text/html' }, { responseType: 'text' })
    expect(String(html.data)).toContain('on Monday')
    const text = await drive.files.export({ fileId: documentId, mimeType: 'text/plain' }, { responseType: 'text' })
    expect(String(text.data)).toContain('Launch plan')
    const docx = await drive.files.export(
      { fileId: documentId, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
      { responseType: 'arraybuffer' },
    )
    expect(
      Buffer.from(docx.data as ArrayBuffer)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK')

    await expect(docsFor('bob').documents.get({ documentId }, { retry: false })).rejects.toMatchObject({ status: 403 })
    await drive.permissions.create({
      fileId: documentId,
      sendNotificationEmail: false,
      requestBody: { role: 'reader', type: 'user', emailAddress: 'bob@northwind.test' },
    })
    const asBob = await docsFor('bob').documents.get({ documentId })
    expect(asBob.data.title).toBe('Shared plan')
    expect(asBob.data.suggestionsViewMode).toBe('PREVIEW_WITHOUT_SUGGESTIONS')
    await expect(
      docsFor('bob').documents.batchUpdate(
        { documentId, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'x' } }] } },
        { retry: false },
      ),
    ).rejects.toMatchObject({ status: 403 })
  })

  test("each edit adds a Drive revision; a commenter replies to the owner's comment", async () => {
    const docs = docsFor('alice')
    const drive = driveFor('alice')
    const created = await docs.documents.create({ requestBody: { title: 'Review me' } })
    const documentId = created.data.documentId!
    const revisions = async () =>
      (await drive.revisions.list({ fileId: documentId, fields: 'revisions(id,modifiedTime)' })).data.revisions ?? []
    const before = await revisions()
    await edit(documentId, created.data.revisionId!)
    const after = await revisions()
    expect(after.length).toBe(before.length + 1)
    expect(Date.parse(after.at(-1)!.modifiedTime!)).toBeGreaterThan(
      Date.parse(before.at(-1)?.modifiedTime ?? '1970-01-01T00:00:00Z'),
    )

    const comment = await drive.comments.create({
      fileId: documentId,
      fields: 'id,content,author(displayName)',
      requestBody: { content: 'Is Monday final?' },
    })
    expect(comment.data.author?.displayName).toBe('Alice Moreno')
    // A reader may not comment; a commenter may reply.
    await drive.permissions.create({
      fileId: documentId,
      sendNotificationEmail: false,
      requestBody: { role: 'reader', type: 'user', emailAddress: 'bob@northwind.test' },
    })
    const bobDrive = driveFor('bob')
    await expect(
      bobDrive.replies.create(
        { fileId: documentId, commentId: comment.data.id!, fields: 'id', requestBody: { content: 'Yes' } },
        { retry: false },
      ),
    ).rejects.toMatchObject({ status: 403 })
    const perms = await drive.permissions.list({ fileId: documentId, fields: 'permissions(id,emailAddress)' })
    const bobPerm = perms.data.permissions!.find((p) => p.emailAddress === 'bob@northwind.test')!
    await drive.permissions.update({
      fileId: documentId,
      permissionId: bobPerm.id!,
      requestBody: { role: 'commenter' },
    })
    await bobDrive.replies.create({
      fileId: documentId,
      commentId: comment.data.id!,
      fields: 'id',
      requestBody: { content: 'Yes, Monday.' },
    })
    const thread = await drive.comments.get({
      fileId: documentId,
      commentId: comment.data.id!,
      fields: 'content,replies(content,author(displayName))',
    })
    expect(thread.data.replies?.map((r) => [r.author?.displayName, r.content])).toEqual([
      ['Bob Okafor', 'Yes, Monday.'],
    ])
  })

  test("an out-of-range index surfaces as a 400 with Google's message", async () => {
    const docs = docsFor('alice')
    const { data } = await docs.documents.create({ requestBody: { title: 'Tiny' } })
    const call = docs.documents.batchUpdate(
      {
        documentId: data.documentId!,
        requestBody: { requests: [{ insertText: { location: { index: 5 }, text: 'x' } }] },
      },
      { retry: false },
    )
    await expect(call).rejects.toMatchObject({
      status: 400,
      response: {
        data: {
          error: {
            message:
              'Invalid requests[0].insertText: Index 5 must be less than the end index of the referenced segment, 2.',
          },
        },
      },
    })
  })
})
