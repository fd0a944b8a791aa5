/** One method of a real API, as its spec declares it (generated into each service's `api/methods.gen.ts`). */
export type SpecMethod = {
  /** Discovery id (`gmail.users.messages.list`) or Slack method name (`chat.postMessage`). */
  readonly id: string
  readonly httpMethod: string
  /** Public path template with `{param}` placeholders, rooted at `/` (`/gmail/v1/users/{userId}/messages`). */
  readonly path: string
  /** Media upload path, when the method takes uploads (`/upload/gmail/v1/users/{userId}/messages/send`). */
  readonly uploadPath?: string
}

type Compiled = { method: string; re: RegExp; id: string }
const cache = new WeakMap<readonly SpecMethod[], (Compiled & { template: string })[]>()
/**
 * The compiled templates by verb and first path segment, in their order of trial (templates whose first segment
 * is a placeholder join every bucket), so a request tests only the templates that can match it.
 */
const buckets = new WeakMap<readonly SpecMethod[], Map<string, Compiled[]>>()

/** `GET /gmail` for `GET` and `/gmail/v1/…` (the first segment; a placeholder there gives `GET /{`). */
const bucketKey = (verb: string, path: string) => {
  const end = path.indexOf('/', 1)
  const first = end < 0 ? path : path.slice(0, end)
  return `${verb} ${first.includes('{') ? '/{' : first}`
}

function bucketed(methods: readonly SpecMethod[]) {
  let map = buckets.get(methods)
  if (!map) {
    map = new Map()
    const list = compiled(methods)
    const wild = list.filter((m) => bucketKey(m.method, m.template).endsWith(' /{'))
    for (const m of list) {
      const key = bucketKey(m.method, m.template)
      if (key.endsWith(' /{')) continue
      if (map.has(key)) continue
      const inBucket = (x: (typeof list)[number]) => bucketKey(x.method, x.template) === key || wild.includes(x)
      map.set(
        key,
        list.filter((x) => x.method === m.method && inBucket(x)),
      )
    }
    for (const m of wild) {
      const key = bucketKey(m.method, '/{')
      if (!map.has(key))
        map.set(
          key,
          wild.filter((x) => x.method === m.method),
        )
    }
    buckets.set(methods, map)
  }
  return map
}

function compiled(methods: readonly SpecMethod[]): (Compiled & { template: string })[] {
  let list = cache.get(methods)
  if (!list) {
    list = methods.flatMap((m) =>
      [m.path, m.uploadPath, m.uploadPath ? `/resumable${m.uploadPath}` : undefined]
        .filter((p): p is string => !!p)
        .map((p) => ({ method: m.httpMethod.toUpperCase(), re: templateRegex(p), id: m.id, template: p })),
    )
    // Literal segments beat parameters: try the templates with fewer placeholders first.
    list.sort((a, b) => placeholders(a.re) - placeholders(b.re))
    cache.set(methods, list)
  }
  return list
}

const placeholders = (re: RegExp) => (re.source.match(/\[\^\/\]\+|\(\?:\/\.\+\)|\.\+/g) ?? []).length

/**
 * A path template's regular expression. `{name}` is one segment; RFC 6570's `{+name}` and `{/name*}` (the Directory's
 * `orgunits{/orgUnitPath*}`, a unit path such as `Sales/EMEA`) span segments. Before, the latter matched nothing, so
 * those methods had no operation id and no scope was checked for them.
 */
function templateRegex(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/)
  const source = parts
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      if (part.startsWith('{/') && part.endsWith('*}')) return '(?:/.+)'
      if (part.startsWith('{+')) return '.+'
      return '[^/]+'
    })
    .join('')
  return new RegExp(`^${source}$`)
}

/** The spec method a request addresses, if any (`POST /v1/documents/x:batchUpdate` → `docs.documents.batchUpdate`). */
export function matchSpecMethod(methods: readonly SpecMethod[], httpMethod: string, path: string): string | undefined {
  const verb = httpMethod.toUpperCase()
  const map = bucketed(methods)
  const candidates = map.get(bucketKey(verb, path)) ?? map.get(`${verb} /{`)
  return candidates?.find((m) => m.re.test(path))?.id
}

/** Whether any spec method has this path under another HTTP verb (405-ish situations answer 404 like Google). */
export function matchSpecPath(methods: readonly SpecMethod[], path: string): boolean {
  return compiled(methods).some((m) => m.re.test(path))
}
