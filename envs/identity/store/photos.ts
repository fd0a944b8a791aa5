import { eq } from 'drizzle-orm'
import { imageSize } from 'image-size'
import { selectRows, type Db } from '../../core/db.ts'
import { identityUserPhotos } from '../schema.ts'

// Users' profile photos (Directory `users.photos`). Google takes JPEG, PNG, GIF, BMP or TIFF bytes in web-safe
// base64 and answers with the same alphabet. image-size reads the format and size from the image's header.

export type UserPhoto = typeof identityUserPhotos.$inferSelect

/** The formats Google accepts, by image-size's type name, with the `mimeType` the resource gives. */
const FORMATS: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
}

/** Decoded bytes past which an upload is refused. Deviation (unverified): Google's own limit is not documented. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024

/**
 * Bytes from base64 in either alphabet: web-safe (`-`, `_`, padding `*` or `.`, as Google documents) or standard.
 * Undefined when the text is not base64.
 */
export function decodePhotoData(text: string): Buffer | undefined {
  const standard = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/').replace(/[*.]/g, '=')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard) || standard.length % 4 === 1) return undefined
  return Buffer.from(standard, 'base64')
}

/** Bytes as Google's web-safe base64: `-` and `_` for `+` and `/`, `*` for the padding `=`. */
export const webSafeBase64 = (bytes: Buffer) =>
  bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '*')

/** The image's format and size, or undefined when the bytes are not an image in a format Google accepts. */
export function readImage(bytes: Buffer): { mimeType: string; width: number; height: number } | undefined {
  try {
    const size = imageSize(bytes)
    const mimeType = size.type ? FORMATS[size.type] : undefined
    const [width, height] = [size.width, Math.abs(size.height)]
    // The resource's width and height are int32s: a header claiming more is not an image anyone could upload.
    if (!mimeType || !width || !height || width > 0x7fffffff || height > 0x7fffffff) return undefined
    return { mimeType, width, height }
  } catch {
    return undefined
  }
}

export const photoOf = (db: Db, userId: string): UserPhoto | undefined =>
  selectRows(db, identityUserPhotos, { userId })[0]

export function savePhoto(db: Db, photo: UserPhoto) {
  db.insert(identityUserPhotos)
    .values(photo)
    .onConflictDoUpdate({ target: identityUserPhotos.userId, set: photo })
    .run()
}

export function deletePhoto(db: Db, userId: string) {
  db.delete(identityUserPhotos).where(eq(identityUserPhotos.userId, userId)).run()
}

/** The dump's `photos`: whose photo is set, with its format, size and a digest of the bytes (shape in ../state.ts). */
export function photoEntities(db: Db, digest: (data: string) => string) {
  const rows = selectRows(db, identityUserPhotos, {}).sort((a, b) => a.userId.localeCompare(b.userId))
  return Object.fromEntries(
    rows.map((p) => [
      p.userId,
      { userId: p.userId, mimeType: p.mimeType, width: p.width, height: p.height, sha256: digest(p.data) },
    ]),
  )
}
