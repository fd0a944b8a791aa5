import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { googleUserId } from '../ids.ts'
import { etag, requireAdmin } from './directory-tokens.ts'
import { liveUser } from './directory-users.ts'
import {
  decodePhotoData,
  deletePhoto,
  MAX_PHOTO_BYTES,
  photoOf,
  readImage,
  savePhoto,
  webSafeBase64,
  type UserPhoto,
} from '../store/photos.ts'
import type { Db } from '../../core/db.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { json, Any, Body } from './openapi-shapes.ts'

// Directory `users.photos` (get, update, patch, delete): a user's profile photo, set by an administrator.

const User = z.object({ userKey: z.string() })
const PATH = '/admin/directory/v1/users/{userKey}/photos/thumbnail'

const get = createRoute({
  operationId: 'directory.users.photos.get',
  method: 'get',
  path: PATH,
  request: { params: User },
  responses: { 200: Any },
})
// update and patch both replace the photo (a photo has no parts to patch).
const setRoute = <M extends 'put' | 'patch'>(operationId: string, method: M) =>
  createRoute({ operationId, method, path: PATH, request: { params: User, body: Body }, responses: { 200: Any } })
const update = setRoute('directory.users.photos.update', 'put')
const patch = setRoute('directory.users.photos.patch', 'patch')
const remove = createRoute({
  operationId: 'directory.users.photos.delete',
  method: 'delete',
  path: PATH,
  request: { params: User },
  responses: { 204: { description: 'Deleted' } },
})

// Deviation (unverified): Google's wording for a user without a photo is not recorded.
const noPhoto = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: photo')
const invalid = (why: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${why}`)

export function photoResource(db: Db, user: WorldUserRow, photo: UserPhoto) {
  const body = {
    kind: 'admin#directory#user#photo',
    id: googleUserId(db, user.id),
    primaryEmail: user.email,
    mimeType: photo.mimeType,
    // Deviation: Google downsizes every upload to 96x96 pixels; the bytes and size here are the upload's own.
    width: photo.width,
    height: photo.height,
    photoData: webSafeBase64(Buffer.from(photo.data, 'base64')),
  }
  return { ...body, etag: etag(body) }
}

/** The photo a body sets: `photoData` (required) must be an image in a format Google takes. */
function photoIn(userId: string, body: Record<string, unknown>): UserPhoto {
  const data = body.photoData
  if (typeof data !== 'string' || !data) {
    throw new GoogleApiError('INVALID_ARGUMENT', 'required', 'Missing required field: photoData')
  }
  const bytes = decodePhotoData(data)
  if (!bytes?.length) throw invalid('photoData')
  if (bytes.length > MAX_PHOTO_BYTES) throw invalid('photoData is too large')
  const image = readImage(bytes)
  if (!image) throw invalid('photoData is not a JPEG, PNG, GIF, BMP or TIFF image')
  // `mimeType`, `width` and `height` in the body are ignored: they are read from the image itself.
  return { userId, ...image, data: bytes.toString('base64') }
}

/** Sets a user's photo from a body (update and patch alike). */
function setPhoto(c: WorldContext, userKey: string, body: Record<string, unknown>) {
  requireAdmin(c)
  const user = liveUser(c, userKey)
  const photo = photoIn(user.id, body)
  c.var.world.tx((db) => savePhoto(db, photo))
  return photoResource(c.var.world.db, user, photo)
}

/** Directory `users.photos`: administrators only (delegated admins with the users privileges, 0468). */
export const directoryPhotosRouter = createGoogleRouter()
  .openapi(get, (c) => {
    requireAdmin(c)
    const db = c.var.world.db
    const user = liveUser(c, c.req.valid('param').userKey)
    const photo = photoOf(db, user.id)
    if (!photo) throw noPhoto()
    return c.json(photoResource(db, user, photo), 200)
  })
  .openapi(update, (c) => c.json(setPhoto(c, c.req.valid('param').userKey, c.req.valid('json')), 200))
  .openapi(patch, (c) => c.json(setPhoto(c, c.req.valid('param').userKey, c.req.valid('json')), 200))
  .openapi(remove, (c) => {
    requireAdmin(c)
    const user = liveUser(c, c.req.valid('param').userKey)
    c.var.world.tx((db) => {
      if (!photoOf(db, user.id)) throw noPhoto()
      deletePhoto(db, user.id)
    })
    return c.body(null, 204)
  })
