import { eq } from 'drizzle-orm'
import { stmt } from '../../core/db.ts'
import { createGoogleRouter, googleValidationError, type WorldContext } from '../../core/http.ts'
import { File as FileSchema } from '../api/schemas.gen.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { checkUploadSize, splitRelated } from '../../core/multipart.ts'
import { parseJsonWithin } from '../../core/json-width.ts'
import { urlSafeId } from '../../core/ids.ts'
import { uploads } from '../schema.ts'
import { resumeIncomplete } from '../../core/resumable.ts'
import { createFile, keepHeadRevision, updateFile } from './files.ts'
import { findBareFile, GOOGLE_DOC } from '../store/files.ts'
import { blocksFromUpload, IMPORTABLE } from '../../docs/render.ts'
import { toFile } from '../map.ts'
import { requireFile, FILE_DEFAULT_FIELDS, fileFieldsKept, withDefaultFields } from './common.ts'
import { publicRequestUrl } from '../../core/request-url.ts'

// Media uploads at /upload/drive/v3/files: uploadType=media (bytes only), multipart (multipart/related:
// JSON metadata then the bytes) and resumable (a session URI, then one or more PUTs of byte ranges).

type Meta = Record<string, unknown>

/**
 * An upload's metadata, checked as files.create and files.update check their JSON body: a wrong type (`parents`
 * of objects, a `name` object) is a 400 naming the field, where it reached the store and answered 500 (0387).
 */
function checkedMeta(meta: unknown): Meta {
  if (meta === null) return {}
  if (typeof meta !== 'object' || Array.isArray(meta)) throw badRequest('Invalid JSON payload received.', 'parseError')
  const result = FileSchema.safeParse(meta)
  if (!result.success) throw googleValidationError(result.error, 'json', meta)
  return meta as Meta
}

async function receive(c: WorldContext, fileId?: string) {
  const type = c.req.query('uploadType') ?? 'media'
  const body = Buffer.from(await c.req.arrayBuffer())
  if (type === 'resumable') {
    let meta: Meta = {}
    if (body.length) {
      let parsed: unknown
      const text = body.toString('utf8')
      try {
        parsed = parseJsonWithin(text)
      } catch {
        throw badRequest('Invalid JSON payload received.', 'parseError')
      }
      meta = checkedMeta(parsed)
    }
    if (fileId) requireFile(c, fileId, 'writer')
    const id = c.var.world.tx((db) => {
      const sid = urlSafeId(db, 'drive.upload', 40)
      db.insert(uploads)
        .values({
          id: sid,
          userId: c.var.user.id,
          fileId: fileId ?? null,
          metadata: JSON.stringify({ ...meta, contentType: c.req.header('x-upload-content-type') }),
          received: Buffer.alloc(0),
        })
        .run()
      return sid
    })
    const url = publicRequestUrl(c.req.url, c.req.header('x-forwarded-proto'))
    url.searchParams.set('upload_id', id)
    return c.body(null, 200, { location: url.toString() })
  }
  if (type === 'multipart') {
    const { meta, data, dataType } = splitRelated(c.req.header('content-type') ?? '', body)
    return finish(c, checkedMeta(meta), data, dataType, fileId)
  }
  if (type !== 'media') throw badRequest(`Invalid upload type: ${type}`, 'invalid')
  return finish(c, {}, body, c.req.header('content-type') ?? undefined, fileId)
}

/**
 * An upload whose metadata asks for a Google Doc and whose bytes are an import format (text, HTML, docx, as
 * about.importFormats lists them) is converted into the document's content.
 */
async function conversion(meta: Meta, data: Buffer, contentType: string | undefined) {
  const source = contentType?.split(';')[0]?.trim().toLowerCase()
  if (meta.mimeType !== GOOGLE_DOC || !source || !IMPORTABLE.includes(source)) return undefined
  try {
    return await blocksFromUpload(source, data)
  } catch {
    // Deviation (unverified message): Drive's answer to an import it cannot read.
    throw badRequest(`The uploaded ${source} content could not be converted to a Google Docs document.`, 'badContent')
  }
}

async function finish(c: WorldContext, meta: Meta, data: Buffer, contentType: string | undefined, fileId?: string) {
  if (fileId) return finishUpdate(c, meta, data, fileId)
  const imported = await conversion(meta, data, contentType)
  const type = (meta.mimeType as string | undefined) ?? contentType?.split(';')[0]
  const out = createFile(c, meta as never, data, type, imported)
  keepHeadRevision(c, String(out.id))
  return c.json(withDefaultFields(c, out, FILE_DEFAULT_FIELDS), 200)
}

/** An upload that replaces a file's content: synchronous, so a session can be marked completed in the same turn. */
function finishUpdate(c: WorldContext, meta: Meta, data: Buffer, fileId: string): Response {
  // The metadata part of an update applies with the new content (name, modifiedTime, addParents/removeParents).
  const { contentType: _type, ...fields } = meta
  const q = { addParents: c.req.query('addParents'), removeParents: c.req.query('removeParents') }
  const out = updateFile(c, fileId, fields as never, q, data)
  keepHeadRevision(c, fileId)
  return c.json(withDefaultFields(c, out, FILE_DEFAULT_FIELDS), 200)
}

/**
 * Largest file a resumable session assembles. Deviation: Drive takes up to 5 TB; a world keeps files in
 * memory, so a session past 256 MiB is refused with 413 uploadTooLarge before its bytes are stored.
 */
export const DRIVE_MAX_UPLOAD_BYTES = 256 * 1024 * 1024

// A PUT to a resumable session: `Content-Range: bytes a-b/total` chunks,
// or the whole body; `bytes */total` asks status.
async function resume(c: WorldContext) {
  const id = c.req.query('upload_id')!
  // The session without its bytes (they are chunk rows: read once, when the upload completes).
  const read = () => {
    const session = stmt(c.var.world.db, SESSION).get(id) as Session | undefined
    if (!session || session.userId !== c.var.user.id) throw notFound('Upload session not found.')
    return session
  }
  let session = read()
  const done = finished(c, session.metadata)
  if (done) return done
  const chunk = Buffer.from(await c.req.arrayBuffer())
  // Read again after every wait: another request to this session may have added a chunk or finished it meanwhile.
  session = read()
  const doneMeanwhile = finished(c, session.metadata)
  if (doneMeanwhile) return doneMeanwhile
  const range = c.req.header('content-range') ?? ''
  const status = /^bytes \*\/(\d+|\*)$/.exec(range)
  const part = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range)
  let size = session.size
  let total: number | undefined = chunk.length
  let append = false
  if (status) total = status[1] === '*' ? undefined : Number(status[1])
  else if (part) {
    if (Number(part[1]) !== size) throw badRequest('Chunk does not continue the upload.', 'badContent')
    append = true
    total = part[3] === '*' ? undefined : Number(part[3])
  } else append = true
  const stored = size
  if (append) size += chunk.length
  checkUploadSize(size, total, DRIVE_MAX_UPLOAD_BYTES)
  if (total === undefined || size < total) {
    if (append && chunk.length) c.var.world.tx((db) => stmt(db, ADD_CHUNK).run(id, id, chunk))
    return resumeIncomplete(c, size)
  }
  // The last chunk is not stored: the bytes are joined once, here (a parallel final PUT still finds the session
  // as it was, and answers the finished file below: decision 0392).
  const chunks = stored ? (stmt(c.var.world.db, CHUNKS).pluck().all(id) as Buffer[]) : []
  const received = append ? (chunks.length ? Buffer.concat([...chunks, chunk]) : chunk) : Buffer.concat(chunks)
  const meta = JSON.parse(session.metadata) as Meta
  const contentType = meta.contentType as string | undefined
  const imported = session.fileId ? undefined : await conversion(meta, received, contentType)
  // Converting waited (a .docx is read asynchronously): a parallel final PUT may have completed the session.
  const other = session.fileId ? undefined : finished(c, read().metadata)
  if (other) return other
  // From here to marking the session completed nothing waits, so no other request sees it half done (decision 0392).
  let res: Response
  let doneId: string
  if (session.fileId) {
    res = finishUpdate(c, meta, received, session.fileId)
    doneId = session.fileId
  } else {
    const type = (meta.mimeType as string | undefined) ?? contentType?.split(';')[0]
    const out = createFile(c, meta as never, received, type, imported)
    res = c.json(withDefaultFields(c, out, FILE_DEFAULT_FIELDS), 200)
    doneId = out.id as string
    // The session URL carries the query of the request that opened it, keepRevisionForever included.
    keepHeadRevision(c, doneId)
  }
  c.var.world.tx((db) => {
    db.update(uploads)
      .set({ metadata: JSON.stringify({ ...meta, [COMPLETED]: doneId }), received: Buffer.alloc(0) })
      .where(eq(uploads.id, id))
      .run()
    stmt(db, 'DELETE FROM drive_upload_chunks WHERE upload_id = ?').run(id)
  })
  return res
}

type Session = { userId: string; fileId: string | null; metadata: string; size: number }
/** A session and the bytes it holds (its chunks' lengths: no chunk is read). */
const SESSION =
  'SELECT user_id AS userId, file_id AS fileId, metadata, ' +
  '(SELECT coalesce(sum(length(bytes)), 0) FROM drive_upload_chunks WHERE upload_id = drive_uploads.id) AS size ' +
  'FROM drive_uploads WHERE id = ?'
const ADD_CHUNK =
  'INSERT INTO drive_upload_chunks (upload_id, seq, bytes) ' +
  'VALUES (?, (SELECT coalesce(max(seq), -1) + 1 FROM drive_upload_chunks WHERE upload_id = ?), ?)'
const CHUNKS = 'SELECT bytes FROM drive_upload_chunks WHERE upload_id = ? ORDER BY seq'

/**
 * The answer of a finished session (metadata holding the file it made or replaced), else undefined: a status query
 * or a repeated final PUT after the last chunk gets 200 and the file, as Google's does.
 */
function finished(c: WorldContext, metadata: string): Response | undefined {
  const completed = (JSON.parse(metadata) as Meta)[COMPLETED] as string | undefined
  if (!completed) return undefined
  const file = findBareFile(c.var.world.db, completed)
  if (!file) throw notFound('Upload session not found.')
  return c.json(
    withDefaultFields(c, toFile(c.var.world.db, file, c.var.user, fileFieldsKept(c)), FILE_DEFAULT_FIELDS),
    200,
  )
}

/** Metadata key of a finished resumable session: the id of the file it made or replaced. */
const COMPLETED = '$completedFileId'

export const uploadsRouter = createGoogleRouter()
// A session URI takes its chunks by PUT, or by POST/PATCH as google-api-go-client sends them.
uploadsRouter.post('/upload/drive/v3/files', (c) => (c.req.query('upload_id') ? resume(c) : receive(c)))
uploadsRouter.patch('/upload/drive/v3/files/:fileId', (c) =>
  c.req.query('upload_id') ? resume(c) : receive(c, c.req.param('fileId')),
)
uploadsRouter.post('/upload/drive/v3/files/:fileId', (c) => (c.req.query('upload_id') ? resume(c) : c.notFound()))
uploadsRouter.put('/upload/drive/v3/files', (c) => resume(c))
uploadsRouter.put('/upload/drive/v3/files/:fileId', (c) => resume(c))
