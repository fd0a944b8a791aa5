/** Server-rendered HTML for the inspector: every interpolated value is escaped unless it is `Raw`. */

export class Raw {
  constructor(readonly html: string) {}
  toString() {
    return this.html
  }
}

const ESC: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
}

/** Escapes text for element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => ESC[c]!)
}

function part(v: unknown): string {
  if (v === null || v === undefined || v === false) return ''
  if (v instanceof Raw) return v.html
  if (Array.isArray(v)) return v.map(part).join('')
  return esc(v)
}

/** Tagged template: `h\`<b>${name}</b>\`` escapes `name`; nested `h` results and arrays of them stay markup. */
export function h(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!
  return new Raw(out)
}

/** A URL path built from segments, each percent-encoded. */
export function href(...segments: (string | number)[]): string {
  return '/ui/' + segments.map((s) => encodeURIComponent(String(s))).join('/')
}

/** A query string (leading `?`), leaving out empty values. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v))
  return p.size ? `?${p}` : ''
}

/**
 * Untrusted HTML (a mail body, a rendered doc) inside a sandboxed frame: no scripts, no same-origin access,
 * no forms, no top navigation. The content is an attribute value, so it is escaped like any other.
 */
export function sandboxed(htmlDoc: string, title: string): Raw {
  return h`<iframe class="sandboxed" sandbox="" referrerpolicy="no-referrer" title="${title}"
    srcdoc="${htmlDoc}"></iframe>`
}

export type Crumb = { label: string; href?: string }

/** The page frame: header with breadcrumbs, then the body. */
export function page(title: string, crumbs: Crumb[], body: Raw): string {
  const trail = crumbs.map(
    (c, i) => h`${i ? h` › ` : ''}${c.href ? h`<a href="${c.href}">${c.label}</a>` : h`<span>${c.label}</span>`}`,
  )
  return h`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · workspace-gym inspector</title><link rel="stylesheet" href="/ui/static/app.css">
<script src="/ui/static/app.js" defer></script></head>
<body><header><a class="brand" href="/ui">workspace-gym</a><nav>${trail}</nav>
<a href="/ui/tasks">Tasks</a><form method="post" action="/ui/logout"><button>Sign out</button></form></header>
<main>${body}</main></body></html>`.html
}

/** A small POST form (one action button plus optional fields). */
export function postForm(action: string, button: string, fields: Raw | Raw[] = []): Raw {
  return h`<form class="inline" method="post" action="${action}">${fields}<button>${button}</button></form>`
}

/** Pretty JSON in a <pre>, escaped. */
export function jsonBlock(value: unknown, cls = 'json'): Raw {
  let text: string
  if (typeof value === 'string') {
    try {
      text = JSON.stringify(JSON.parse(value), null, 2)
    } catch {
      text = value
    }
  } else text = JSON.stringify(value, null, 2) ?? 'null'
  return h`<pre class="${cls}">${text}</pre>`
}
