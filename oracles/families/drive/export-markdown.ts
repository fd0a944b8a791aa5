import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'

export type ExportMarkdownParams = {
  actor: string
  /** The Doc to export (its title) and the folder the file must land in (by name). */
  doc: string
  folder: string
  /** The Markdown file's name. */
  fileName: string
  /** Headings that must come out as Markdown headings, and the numbered steps in their order. */
  headings: string[]
  steps: string[]
}

const MARKDOWN_TYPES = ['text/markdown', 'text/x-markdown']

/** Text with Markdown's markup, escapes and list markers taken out and white space collapsed, for comparing content. */
export function markdownless(s: string): string {
  return s
    .replace(/\\([\\`*_[\]#<>|])/g, '$1')
    .replace(/^[ \t]*(#{1,6}[ \t]+|[*+-][ \t]+|\d+\.[ \t]+)/gm, '')
    .replace(/^\|?[ \t:|-]+\|?$/gm, '')
    .replace(/[*_`|]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Export a Doc to Markdown into a folder: exactly one new file, named as asked, of a Markdown type, whose only parent
 * is the folder, holding the Doc's text (compared without markup) with its headings as `#` lines and its steps as a
 * numbered list in order. A plain-text export, another Doc's text, a copy of the Doc itself or a file elsewhere fail;
 * nothing but the new file may change.
 */
export function exportMarkdown({ initial, final, diff, params: p }: OracleInput<ExportMarkdownParams>): OracleResult {
  const files = entities(initial, 'drive', 'files')
  const source = files.find((f) => f.name === p.doc && f.mimeType === 'application/vnd.google-apps.document')
  const folder = files.find((f) => f.name === p.folder && f.mimeType === 'application/vnd.google-apps.folder')
  const created = diff.filter((c) => c.service === 'drive' && c.collection === 'files' && c.op === 'inserted')
  const after = entities(final, 'drive', 'files')
  const made = created.map((c) => after.find((f) => f.id === c.id)).filter(Boolean) as Entity[]
  const [file] = made
  const text = String(file?.text ?? '')
  const lines = text.split('\n').map((l) => l.trim())
  const hasHeading = (h: string) => lines.some((l) => new RegExp(`^#{1,6} +${escapeRe(h)}$`).test(l))
  const stepsAt = p.steps.map((s, i) => lines.indexOf(`${i + 1}. ${s}`))
  const checks = [
    { name: 'the Doc and the folder exist', ok: source !== undefined && folder !== undefined },
    { name: 'exactly one new file', ok: made.length === 1, note: `${made.length} new` },
    { name: 'it has the name asked for', ok: file?.name === p.fileName, note: String(file?.name ?? '') },
    {
      name: 'it is a Markdown file',
      ok: MARKDOWN_TYPES.includes(String(file?.mimeType)),
      note: String(file?.mimeType ?? ''),
    },
    {
      name: 'it sits only in the folder',
      ok: !!file && !file.trashed && JSON.stringify(file.parents) === JSON.stringify([folder?.id]),
    },
    {
      name: "it holds the Doc's text",
      ok: !!file && !!source && markdownless(text) === markdownless(String(source.text ?? '')),
    },
    { name: 'its headings are Markdown headings', ok: !!file && p.headings.every(hasHeading) },
    {
      name: 'its steps are a numbered list in order',
      ok: !!file && stepsAt.every((at, i) => at >= 0 && (i === 0 || at > stepsAt[i - 1]!)),
    },
  ]
  return verdict(
    checks,
    nothingElseChanged(diff, [
      { service: 'drive', collection: 'files', id: (id, c) => c.op === 'inserted' && id === file?.id },
      // The new file's owner permission; sharing it with anyone else (a domain, a colleague) was not asked.
      {
        service: 'drive',
        collection: 'permissions',
        id: (id, c) =>
          c.op === 'inserted' && !!file && id.startsWith(`${file.id}/`) && (c.after as Entity).role === 'owner',
      },
      readStateChanges,
    ]),
  )
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
