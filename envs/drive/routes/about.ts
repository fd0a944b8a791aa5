import { createRoute } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { About } from '../api/schemas.gen.ts'
import { stmt } from '../../core/db.ts'
import { driveUser } from '../map.ts'
import { json, requireFields } from './common.ts'
import { DRIVE_THEMES } from '../map-drive.ts'

/** Bytes of the files a user owns, and of those in the trash (`size` is NULL for folders and Google Docs). */
const OWNED_BYTES =
  'SELECT coalesce(sum(size), 0), coalesce(sum(CASE WHEN trashed THEN size END), 0) ' +
  'FROM drive_files WHERE owner_id = ?'

const get = createRoute({
  operationId: 'drive.about.get',
  method: 'get',
  path: '/drive/v3/about',
  responses: { 200: json(About) },
})

export const aboutRouter = createGoogleRouter().openapi(get, (c) => {
  requireFields(c)
  const db = c.var.world.db
  // Summed by SQLite (whole numbers, as the JavaScript sums were): no row per file handed over.
  const [used, trash] = stmt(db, OWNED_BYTES).raw(true).get(c.var.user.id) as [number, number]
  return c.json(
    {
      kind: 'drive#about',
      user: driveUser(db, c.var.user.id, c.var.user.id),
      storageQuota: {
        limit: '16106127360',
        usage: String(used),
        usageInDrive: String(used),
        usageInDriveTrash: String(trash),
      },
      importFormats: {
        'text/plain': ['application/vnd.google-apps.document'],
        'text/html': ['application/vnd.google-apps.document'],
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document': [
          'application/vnd.google-apps.document',
        ],
      },
      exportFormats: {
        // In the order Drive lists them (specs/parity/gdrive/about_get.json); files.export renders each.
        'application/vnd.google-apps.document': [
          'application/rtf',
          'application/vnd.oasis.opendocument.text',
          'text/html',
          'application/pdf',
          'text/x-markdown',
          'text/markdown',
          'application/epub+zip',
          'application/zip',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'text/plain',
        ],
      },
      maxImportSizes: { 'application/vnd.google-apps.document': '10485760' },
      maxUploadSize: '5242880000000',
      appInstalled: false,
      folderColorPalette: ['#ac725e', '#d06b64', '#f83a22', '#fa573c', '#ff7537', '#ffad46', '#42d692', '#16a765'],
      canCreateDrives: true,
      canCreateTeamDrives: true,
      driveThemes: DRIVE_THEMES,
      teamDriveThemes: DRIVE_THEMES,
    } as never,
    200,
  )
})
