import { wroteWorld, type ActionRow, type Entity, type OracleInput } from './types.ts'

const GDOC = 'application/vnd.google-apps.document'
const DOC_PATH = /^\/v1\/documents\/([^/:]+)/
/**
 * What a batchUpdate request writes that a reader of the Doc sees: inserted text, replacements, links, tab titles, an
 * image's address (`uri`) and, in `createNamedRange`, the range's name (0437).
 */
const SHOWN = new Set(['text', 'replaceText', 'url', 'title', 'uri'])
/** The same keys' string values in a body the log cut short (`…[truncated]`), read as JSON string literals. */
const SHOWN_RAW = /"(containsText)"\s*:\s*\{|"(?:text|replaceText|url|title|uri|name)"\s*:\s*("(?:[^"\\]|\\.)*")/g

/**
 * Earlier versions of a file that its editors read in its history (docs/decisions/0420), made by the actor in the
 * episode, other than the final one: a Drive file's earlier stored revisions (`revisionTexts`, read from the world:
 * an upload overwritten by another keeps its bytes in a revision that `revisions.get` serves), and for a Google Doc
 * (whose revisions store no bytes here) the text the actor's `documents.batchUpdate` calls wrote into it, read from
 * the log (every batchUpdate is a version in the Doc's history). A search text (`replaceAllText.containsText`) is not
 * written, so it is not read.
 */
export function earlierVersions(input: OracleInput, actor: string, f: Entity): string[] {
  const id = String(f.id)
  const out = input.revisionTexts?.(id, actor, input.initial.clockMs) ?? []
  if (f.mimeType !== GDOC) return out
  for (const a of input.actions) {
    if (a.userId !== actor || a.operationId !== 'docs.documents.batchUpdate' || !wroteWorld(a)) continue
    // The id as the router reads it: a path may escape its characters (`%61` for "a": 0425).
    const m = DOC_PATH.exec(a.path)?.[1]
    if (m === undefined || (m !== id && decoded(m) !== id)) continue
    const text = written(a)
    if (text) out.push(text)
  }
  return out
}

/** The text a logged batchUpdate wrote (joined by lines), from its parsed body or, cut short, its string literals. */
function written(a: ActionRow): string {
  const raw = a.body ?? ''
  const out: string[] = []
  try {
    collect(JSON.parse(raw) as unknown, '', out)
  } catch {
    let skip = false
    for (const m of raw.matchAll(SHOWN_RAW)) {
      if (m[1]) skip = true
      else if (skip) skip = false
      else out.push(literal(m[2]!))
    }
  }
  return out.join('\n')
}

function collect(v: unknown, key: string, out: string[], parent = ''): void {
  if (typeof v === 'string') {
    if (SHOWN.has(key) || (key === 'name' && parent === 'createNamedRange')) out.push(v)
  } else if (Array.isArray(v)) {
    for (const x of v) collect(x, key, out, parent)
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) if (k !== 'containsText') collect(x, k, out, key)
  }
}

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

const literal = (s: string) => {
  try {
    return JSON.parse(s) as string
  } catch {
    return s.slice(1, -1)
  }
}
