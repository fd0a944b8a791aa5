import { badRequest, GoogleApiError } from '../../core/errors/google.ts'

/**
 * File fields the discovery document marks "Output only.": a create, copy or update body naming one is refused
 * with 403 `fieldNotWritable`, as Drive does. Deviation: `kind` is let through and ignored.
 */
const OUTPUT_ONLY = new Set([
  'viewedByMe',
  'lastModifyingUser',
  'webViewLink',
  'shared',
  'quotaBytesUsed',
  'version',
  'permissionIds',
  'sha1Checksum',
  'hasAugmentedPermissions',
  'iconLink',
  'sha256Checksum',
  'permissions',
  'resourceKey',
  'exportLinks',
  'ownedByMe',
  'spaces',
  'md5Checksum',
  'trashingUser',
  'videoMediaMetadata',
  'webContentLink',
  'hasThumbnail',
  'capabilities',
  'thumbnailVersion',
  'size',
  'isAppAuthorized',
  'driveId',
  'thumbnailLink',
  'modifiedByMe',
  'imageMediaMetadata',
  'teamDriveId',
  'fileExtension',
  'explicitlyTrashed',
  'fullFileExtension',
  'owners',
  'sharingUser',
  'headRevisionId',
])

const notWritable = (message: string) => new GoogleApiError('PERMISSION_DENIED', 'fieldNotWritable', message)

/**
 * Refuses output-only fields, and `parents` in an update body (Drive moves files with addParents/removeParents).
 * Deviation: writable sharing and display fields (`writersCanShare`, `copyRequiresWriterPermission`,
 * `viewersCanCopyContent`, `folderColorRgb`) pass this check and are ignored: files render Drive's defaults.
 */
export function checkWritable(meta: object, update: boolean) {
  const m = meta as Record<string, unknown>
  checkUpdateFields(m, update)
  // A create body may name the shared drive its parents are in (duplicity's gdrive backend sends `driveId` with
  // `parents`, as many scripts do, and Drive accepts it): `checkDriveNamed` judges it once the parents are known.
  const skip = update ? undefined : DRIVE_FIELDS
  for (const key of Object.keys(m))
    if (OUTPUT_ONLY.has(key) && m[key] !== undefined && !skip?.has(key))
      throw notWritable('The resource body includes fields which are not directly writable.')
}

const DRIVE_FIELDS = new Set(['driveId', 'teamDriveId'])

/**
 * A create body's `driveId` / `teamDriveId`, when given, must name the shared drive the new file lands in (null: My
 * Drive). Deviation (unverified): one naming another drive, or set in My Drive, is refused as any output-only field
 * is; Google's answer to it is not recorded.
 */
export function checkDriveNamed(meta: object, inDrive: string | null) {
  const m = meta as Record<string, unknown>
  for (const key of DRIVE_FIELDS)
    if (m[key] !== undefined && m[key] !== inDrive)
      throw notWritable('The resource body includes fields which are not directly writable.')
}

function checkUpdateFields(meta: object, update: boolean) {
  const m = meta as Record<string, unknown>
  // Discovery: `shortcutDetails.targetId` "can only be set on files.create requests".
  if (update && m.shortcutDetails !== undefined)
    throw notWritable('The resource body includes fields which are not directly writable.')
  if (update && m.parents !== undefined)
    throw notWritable(
      'The parents field is not directly writable in update requests. Use the addParents and removeParents ' +
        'parameters instead.',
    )
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

/**
 * A writable time field of the body (`modifiedTime`, `createdTime`) in epoch ms, or undefined when absent.
 * Deviation (wording unverified): a value that is not an RFC 3339 date-time is a 400 `invalid`.
 */
export function timeField(meta: object, key: 'modifiedTime' | 'createdTime'): number | undefined {
  const v = (meta as Record<string, unknown>)[key]
  if (v === undefined) return undefined
  const ms = typeof v === 'string' && RFC3339.test(v) ? Date.parse(v) : NaN
  if (Number.isNaN(ms)) throw badRequest(`Invalid value for ${key}: ${String(v)}`, 'invalid')
  return ms
}
