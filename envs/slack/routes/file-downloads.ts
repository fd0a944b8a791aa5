import type { Context } from 'hono'
import { createSlackRouter, type WorldEnv } from '../../core/http.ts'
import { findToken, parseToken } from '../../core/tokens.ts'
import { teamDomain, teamId, userByWorldId } from '../store/core.ts'
import { canSeeFile, fileById } from './files.ts'

// A file's `url_private`, `url_private_download` and `thumb_*` URLs (see fileUrls in files.ts), served like
// files.slack.com: the Bearer token is the only credential, whatever the URL says.
//  - no token, an unknown/revoked token, a token of another world or without `files:read`: HTTP 200 with Slack's
//    HTML sign-in page (what Slack's file host answers a request it cannot authenticate; clients that forget the
//    header get HTML instead of the file, as they do against Slack);
//  - a member who cannot see the file (not its owner, not in a conversation it is shared in), a deleted, pending or
//    unknown file: HTTP 404 with an HTML page. Deviation: Slack's answer to an authenticated member without access
//    is not documented; we answer 404 and reveal nothing about the file.

export const fileDownloadsRouter = createSlackRouter()

const html = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body>${body}</body></html>\n`

function signIn(c: Context<WorldEnv>) {
  const domain = teamDomain(c.var.world.db)
  const page = html(`Sign in | Slack`, `<h1>Sign in to ${domain}</h1><p>${domain}.slack.com</p>`)
  const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-cache, no-store' }
  return c.body(page, 200, headers)
}

const notFound = (c: Context<WorldEnv>) =>
  c.body(html('File not found | Slack', '<h1>File not found</h1>'), 404, { 'content-type': 'text/html; charset=utf-8' })

/** The Slack member behind the request's Bearer token, if it is a live Slack token of this world with `files:read`. */
function member(c: Context<WorldEnv>) {
  const db = c.var.world.db
  const m = /^Bearer\s+(\S+)$/i.exec((c.req.header('authorization') ?? '').trim())
  const parsed = m ? parseToken(m[1]!) : undefined
  if (!parsed || parsed.worldId !== c.var.worldId || parsed.kind === 'google') return undefined
  const token = findToken(db, parsed.key)
  if (!token || token.revoked || token.kind !== parsed.kind) return undefined
  if (!token.scopes.split(',').includes('files:read')) return undefined
  const user = userByWorldId(db, token.userId)
  return user && !user.deleted ? user : undefined
}

function serve(c: Context<WorldEnv>, download: boolean) {
  const user = member(c)
  if (!user) return signIn(c)
  const db = c.var.world.db
  const key = c.req.param('key') ?? ''
  const prefix = `${teamId(db)}-`
  const f = key.startsWith(prefix) ? fileById(db, key.slice(prefix.length)) : undefined
  if (!f || f.pending || !f.data || !canSeeFile(db, f, user.id)) return notFound(c)
  const headers: Record<string, string> = { 'content-type': f.mimetype, 'cache-control': 'private, max-age=0' }
  if (download) headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`
  return c.body(new Uint8Array(f.data), 200, headers)
}

fileDownloadsRouter.get('/_upload/slack/:world/files-pri/:key/download/:name', (c) => serve(c, true))
fileDownloadsRouter.get('/_upload/slack/:world/files-pri/:key/:name', (c) => serve(c, false))
fileDownloadsRouter.get('/_upload/slack/:world/files-tmb/:key/:size/:name', (c) => serve(c, false))
