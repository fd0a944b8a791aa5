import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, mailOnlyTo, nothingElseChanged, readStateChanges, recipients, verdict } from '../../predicates.ts'
import { deliveredMail, mailEffects, mailVisible, namesWrong, says } from '../../artifacts.ts'

export type ForwardAttachmentParams = {
  actor: string
  /** Who must receive it (and nobody else). */
  to: string
  /** The original message's subject and its attachment's file name. */
  subject: string
  filename: string
  /** Near-duplicate invoice numbers that must not appear anywhere a reader sees. */
  wrong: string[]
}

/**
 * Forward a mail with its attachment: exactly one mail is delivered, to `to` only, with exactly one attachment whose
 * bytes (sha256) equal the original's (a retyped copy or a made-up file fails; attaching a second file fails), and no
 * wrong invoice named; mail labelled SENT without being sent is a forgery; nothing but the sent mail and read marks may
 * change. A mail forwarded as an attachment (`message/rfc822`) counts as the files it carries (0459): the colleague
 * opens it and finds the original file, as a forward inline gives it.
 */
export function forwardAttachment({
  initial,
  final,
  diff,
  actions,
  params: p,
}: OracleInput<ForwardAttachmentParams>): OracleResult {
  const original = entities(initial, 'gmail', 'messages').find((m) => m.userId === p.actor && m.subject === p.subject)
  const want = ((original?.attachments ?? []) as Entity[]).find((a) => a.filename === p.filename)?.sha256
  const d = deliveredMail(initial, final, actions, p.actor)
  const [only] = d.sent
  const files = delivered((only?.attachments ?? []) as Entity[])
  const checks = [
    { name: 'the original mail and its attachment exist', ok: want !== undefined },
    { name: 'exactly one mail is sent', ok: d.sent.length === 1, note: `${d.sent.length} sent` },
    { name: 'it goes to the colleague', ok: !!only && recipients(only).includes(p.to.toLowerCase()) },
    { name: 'it carries the original attachment', ok: want !== undefined && files.includes(String(want)) },
    { name: 'and no other attachment', ok: files.length === 1 },
    { name: 'it names no other invoice', ok: !!only && !p.wrong.some((w) => namesWrong(mailVisible(only), w)) },
  ]
  const violations = [
    ...d.forged,
    ...mailOnlyTo(d.sent, [p.to]),
    ...nothingElseChanged(diff, [...mailEffects(p.actor, d), readStateChanges]),
  ]
  return verdict(checks, violations, { sent: d.sent.length })
}

/**
 * The files a recipient gets, by sha256: an attached message with files of its own counts as those files (each
 * level down, as the dump lists them); any other attachment, and an attached message without files, as itself.
 */
function delivered(files: Entity[]): string[] {
  return files.flatMap((a) =>
    Array.isArray(a.attachments) && a.attachments.length ? delivered(a.attachments as Entity[]) : [String(a.sha256)],
  )
}
