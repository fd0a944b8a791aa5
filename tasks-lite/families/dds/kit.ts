/** Shared bits of the Drive, Docs and Slack families (helper 5): volume, phrasing choice, API step builders. */
import type { Rng } from '../common.ts'
import { volumeFor } from '../../world/index.ts'

type Step = { tool: string; args: Record<string, unknown>; save?: Record<string, string> }

/** Background volume by seed (the world generator, tasks-lite/world/, reads it). */
export const volumeOf = (seed: number) => ({ volume: volumeFor(seed) })

/** One of the family's phrasings, by seed (so consecutive seeds read differently). */
export const phrase = (seed: number, r: Rng, ps: readonly string[]) => ps[(seed + r.int(0, ps.length - 1)) % ps.length]!

/** A Slack Web API call (GET with a query, POST with a JSON body). */
export const slack = (
  method: string,
  params: Record<string, unknown> = {},
  save?: Record<string, string>,
  get = false,
): Step => ({
  tool: 'http_request',
  args: get
    ? { method: 'GET', path: `/api/${method}`, query: params }
    : { method: 'POST', path: `/api/${method}`, body: params },
  ...(save ? { save } : {}),
})

/** A Drive v3 call. */
export const drive = (
  method: string,
  path: string,
  extra: Record<string, unknown> = {},
  save?: Record<string, string>,
): Step => ({
  tool: 'http_request',
  args: { method, path: `/drive/v3/${path}`, ...extra },
  ...(save ? { save } : {}),
})

/** A Docs v1 call. */
export const docs = (
  method: string,
  path: string,
  extra: Record<string, unknown> = {},
  save?: Record<string, string>,
): Step => ({
  tool: 'http_request',
  args: { method, path: `/v1/documents${path}`, ...extra },
  ...(save ? { save } : {}),
})

/** Lists Drive files matching `q` (names and ids). */
export const driveList = (q: string, save: Record<string, string>) =>
  drive(
    'GET',
    'files',
    {
      query: {
        q,
        fields: 'files(id,name,mimeType,parents,driveId)',
        supportsAllDrives: true,
        includeItemsFromAllDrives: true,
      },
    },
    save,
  )
