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

const cache = new WeakMap<readonly SpecMethod[], { method: string; re: RegExp; id: string }[]>()

function compiled(methods: readonly SpecMethod[]) {
  let list = cache.get(methods)
  if (!list) {
    list = methods.flatMap((m) =>
      [m.path, m.uploadPath, m.uploadPath ? `/resumable${m.uploadPath}` : undefined]
        .filter((p): p is string => !!p)
        .map((p) => ({ method: m.httpMethod.toUpperCase(), re: templateRegex(p), id: m.id })),
    )
    // Literal segments beat parameters: try the templates with fewer placeholders first.
    list.sort((a, b) => placeholders(a.re) - placeholders(b.re))
    cache.set(methods, list)
  }
  return list
}

const placeholders = (re: RegExp) => (re.source.match(/\[\^\/\]\+/g) ?? []).length

function templateRegex(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+')
  return new RegExp(`^${escaped}$`)
}

/** The spec method a request addresses, if any (`POST /v1/documents/x:batchUpdate` → `docs.documents.batchUpdate`). */
export function matchSpecMethod(methods: readonly SpecMethod[], httpMethod: string, path: string): string | undefined {
  const verb = httpMethod.toUpperCase()
  return compiled(methods).find((m) => m.method === verb && m.re.test(path))?.id
}

/** Whether any spec method has this path under another HTTP verb (405-ish situations answer 404 like Google). */
export function matchSpecPath(methods: readonly SpecMethod[], path: string): boolean {
  return compiled(methods).some((m) => m.re.test(path))
}
