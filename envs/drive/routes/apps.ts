import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { App, AppList } from '../api/schemas.gen.ts'
import { json } from './common.ts'

type Entry = {
  id: string
  name: string
  objectType: string
  product: string
  primary: string[]
  secondary: string[]
  ext: string[]
  create: boolean
  short: string
}

/** The installed apps every world user has: Google's editors and Drive for desktop (a fixed catalog). */
const CATALOG: Entry[] = [
  {
    id: '619683526622',
    name: 'Google Docs',
    objectType: 'document',
    product: 'docs',
    primary: ['application/vnd.google-apps.document'],
    secondary: [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/msword',
      'text/plain',
      'text/html',
      'application/rtf',
    ],
    ext: ['docx', 'doc', 'txt', 'html', 'rtf'],
    create: true,
    short: 'Create and edit documents.',
  },
  {
    id: '691301496089',
    name: 'Google Sheets',
    objectType: 'spreadsheet',
    product: 'sheets',
    primary: ['application/vnd.google-apps.spreadsheet'],
    secondary: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
    ext: ['xlsx', 'csv'],
    create: true,
    short: 'Create and edit spreadsheets.',
  },
  {
    id: '725590766325',
    name: 'Google Slides',
    objectType: 'presentation',
    product: 'slides',
    primary: ['application/vnd.google-apps.presentation'],
    secondary: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ext: ['pptx'],
    create: true,
    short: 'Create and edit presentations.',
  },
  {
    id: '897606708560',
    name: 'Google Drive for desktop',
    objectType: 'file',
    product: 'drive',
    primary: [],
    secondary: ['application/octet-stream'],
    ext: [],
    create: false,
    short: 'Open files from Drive on your computer.',
  },
]

function toApp(e: Entry) {
  const icon = (category: string, size: number) => ({
    category,
    iconUrl: `https://drive-thirdparty.googleusercontent.com/${size}/type/${e.primary[0] ?? 'application/octet-stream'}`,
    size,
  })
  const out: Record<string, unknown> = {
    kind: 'drive#app',
    id: e.id,
    name: e.name,
    objectType: e.objectType,
    supportsCreate: e.create,
    supportsImport: e.secondary.length > 0 && e.create,
    installed: true,
    authorized: true,
    useByDefault: e.create,
    productId: e.product,
    productUrl: `https://workspace.google.com/products/${e.product}/`,
    primaryMimeTypes: e.primary,
    secondaryMimeTypes: e.secondary,
    primaryFileExtensions: [],
    secondaryFileExtensions: e.ext,
    icons: [icon('application', 32), icon('document', 16)],
    shortDescription: e.short,
    longDescription: e.short,
    supportsMultiOpen: false,
    supportsOfflineCreate: e.create,
    hasDriveWideScope: true,
  }
  if (e.create)
    Object.assign(out, {
      createUrl: `https://docs.google.com/${e.objectType}/create`,
      createInFolderTemplate: `https://docs.google.com/${e.objectType}/create?folder={folderId}`,
      openUrlTemplate: `https://docs.google.com/${e.objectType}/d/{ids}/edit`,
    })
  return out
}

const list = createRoute({
  operationId: 'drive.apps.list',
  method: 'get',
  path: '/drive/v3/apps',
  request: {
    query: z.object({
      appFilterExtensions: z.string().optional(),
      appFilterMimeTypes: z.string().optional(),
      languageCode: z.string().optional(),
    }),
  },
  responses: { 200: json(AppList) },
})
const get = createRoute({
  operationId: 'drive.apps.get',
  method: 'get',
  path: '/drive/v3/apps/{appId}',
  request: { params: z.object({ appId: z.string() }) },
  responses: { 200: json(App) },
})

export const appsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const q = c.req.valid('query')
    const exts = (q.appFilterExtensions ?? '')
      .split(',')
      .map((s) => s.trim().replace(/^\./, '').toLowerCase())
      .filter(Boolean)
    const types = (q.appFilterMimeTypes ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    // Filters: an app stays when it opens one of the extensions or one of the MIME types asked for.
    const items = CATALOG.filter(
      (e) =>
        (!exts.length && !types.length) ||
        exts.some((x) => e.ext.includes(x)) ||
        types.some((t) => e.primary.includes(t) || e.secondary.includes(t)),
    )
    return c.json(
      {
        kind: 'drive#appList',
        selfLink: 'https://www.googleapis.com/drive/v3/apps',
        defaultAppIds: items.filter((e) => e.create).map((e) => e.id),
        items: items.map(toApp),
      } as never,
      200,
    )
  })
  .openapi(get, (c) => {
    const { appId } = c.req.valid('param')
    const e = CATALOG.find((x) => x.id === appId)
    if (!e)
      throw new GoogleApiError('NOT_FOUND', 'notFound', `App not found: ${appId}`, {
        location: 'appId',
        locationType: 'parameter',
      })
    return c.json(toApp(e) as never, 200)
  })
