import type { Context } from 'hono'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import {
  allowedScopesOf,
  findAccess,
  findClient,
  findGrant,
  issueCode,
  normalizeScopes,
  redirectUrisOf,
  upsertGrant,
} from '../store/oauth.ts'
import { oauthParams } from './params.ts'

/** Scopes every Google account can grant outside any API (sign-in). */
const SIGN_IN = [
  'openid',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
]

type Checked =
  | { ok: false; status: 400 | 401 | 403; error: string; description: string; redirect?: string }
  | { ok: true; clientId: string; redirectUri: string; scopes: string[]; p: Record<string, string> }

/**
 * Validates an authorization request the way Google's consent screen does: client and redirect URI errors are shown
 * to the user (never redirected to an unverified URI); the rest go back to the client's redirect URI.
 */
function check(c: WorldContext, p: Record<string, string>): Checked {
  const db = c.var.world.db
  const client = findClient(db, p.client_id)
  if (!p.client_id)
    return { ok: false, status: 400, error: 'invalid_request', description: 'Missing required parameter: client_id' }
  if (!client)
    return { ok: false, status: 401, error: 'invalid_client', description: 'The OAuth client was not found.' }
  const redirectUri = p.redirect_uri ?? ''
  if (!redirectUri)
    return { ok: false, status: 400, error: 'invalid_request', description: 'Missing required parameter: redirect_uri' }
  if (!redirectUrisOf(client).includes(redirectUri)) {
    return {
      ok: false,
      status: 400,
      error: 'redirect_uri_mismatch',
      description: `The redirect URI in the request, ${redirectUri}, does not match the ones authorized for the OAuth client.`,
    }
  }
  const back = (error: string, description: string): Checked => ({
    ok: false,
    status: 400,
    error,
    description,
    redirect: redirectWith(redirectUri, { error, error_description: description, state: p.state }),
  })
  if (p.response_type !== 'code') {
    return back('unsupported_response_type', `Invalid response_type: ${p.response_type ?? ''}`)
  }
  const scopes = normalizeScopes(p.scope ?? '')
  if (scopes.length === 0) return back('invalid_request', 'Missing required parameter: scope')
  const allowed = allowedScopesOf(client)
  const outside = scopes.filter((s) => allowed.length > 0 && !allowed.includes(s) && !SIGN_IN.includes(s))
  if (outside.length > 0)
    return back('invalid_scope', `Some requested scopes were invalid. {invalid=[${outside.join(', ')}]}`)
  if (p.code_challenge_method && !['S256', 'plain'].includes(p.code_challenge_method)) {
    return back('invalid_request', 'Invalid code_challenge_method value.')
  }
  if (p.code_challenge && !/^[A-Za-z0-9._~-]{43,128}$/.test(p.code_challenge)) {
    return back('invalid_request', 'Invalid code_challenge value.')
  }
  return { ok: true, clientId: client.clientId, redirectUri, scopes, p }
}

function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v)
  return url.toString()
}

/** Only the user's own session may consent: a token an app got through OAuth cannot approve grants. */
function firstParty(c: WorldContext): boolean {
  const key = c.var.principal.tokenKey
  return key !== undefined && findAccess(c.var.world.db, key) === undefined
}

/** Approves: records the grant, mints a code and sends the browser back to the client. */
function approve(c: WorldContext, ok: Extract<Checked, { ok: true }>) {
  const { p } = ok
  const redirect = c.var.world.tx((db) => {
    const grant = upsertGrant(db, c.var.user.id, ok.clientId, ok.scopes)
    const scopes = p.include_granted_scopes === 'true' ? grant.scopes.split(' ') : ok.scopes
    const code = issueCode(db, c.var.keys, {
      userId: c.var.user.id,
      clientId: ok.clientId,
      redirectUri: ok.redirectUri,
      scopes,
      offline: p.access_type === 'offline',
      ...(p.code_challenge
        ? { codeChallenge: p.code_challenge, challengeMethod: p.code_challenge_method ?? 'plain' }
        : {}),
      ...(p.nonce ? { nonce: p.nonce } : {}),
    })
    return redirectWith(ok.redirectUri, {
      state: p.state,
      code,
      scope: scopes.join(' '),
      authuser: '0',
      prompt: 'consent',
    })
  })
  return c.redirect(redirect, 302)
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The consent screen: what the app asks for, and a form that posts the decision back. */
function consentPage(c: Context, clientName: string, ok: Extract<Checked, { ok: true }>, email: string) {
  const hidden = Object.entries(ok.p)
    .filter(([k]) => k !== 'decision' && k !== 'access_token')
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n')
  const items = ok.scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(s)}</li>`).join('\n')
  return c.html(
    `<!doctype html>
<html><head><meta charset="utf-8"><title>Sign in - Google Accounts</title></head>
<body><h1>${escapeHtml(clientName)} wants to access your Google Account</h1>
<p data-email>${escapeHtml(email)}</p>
<ul id="scopes">${items}</ul>
<form method="post" action="/o/oauth2/v2/auth">
${hidden}
<button name="decision" value="deny">Cancel</button>
<button name="decision" value="allow">Allow</button>
</form></body></html>`,
    200,
  )
}

async function authorize(c: WorldContext) {
  const p = await oauthParams(c)
  const checked = check(c, p)
  if (!checked.ok) {
    if (checked.redirect) return c.redirect(checked.redirect, 302)
    return c.json({ error: checked.error, error_description: checked.description }, checked.status)
  }
  if (!firstParty(c)) {
    return c.json({ error: 'access_denied', error_description: 'Consent must come from the account owner.' }, 403)
  }
  const decision = c.req.method === 'POST' ? p.decision : undefined
  if (decision === 'deny') {
    return c.redirect(redirectWith(checked.redirectUri, { error: 'access_denied', state: p.state }), 302)
  }
  if (decision === 'allow') return approve(c, checked)
  // Google skips the screen when everything asked for was granted before and the client does not insist.
  const grant = findGrant(c.var.world.db, c.var.user.id, checked.clientId)
  const granted = grant ? grant.scopes.split(' ') : []
  const prompts = (p.prompt ?? '').split(' ')
  if (grant && !prompts.includes('consent') && checked.scopes.every((s) => granted.includes(s))) {
    return approve(c, checked)
  }
  if (prompts.includes('none')) {
    return c.redirect(redirectWith(checked.redirectUri, { error: 'consent_required', state: p.state }), 302)
  }
  const client = findClient(c.var.world.db, checked.clientId)!
  return consentPage(c, client.name, checked, c.var.user.email)
}

/** Google's authorization endpoint (v2 and the older path): GET shows consent, POST carries the decision. */
export const authorizeRouter = createGoogleRouter()
for (const path of ['/o/oauth2/v2/auth', '/o/oauth2/auth']) {
  authorizeRouter.get(path, authorize)
  authorizeRouter.post(path, authorize)
}
