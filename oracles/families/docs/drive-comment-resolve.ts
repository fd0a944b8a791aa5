import type { EntityChange } from '../../../envs/core/diff.ts'
import type { Entity, OracleInput, OracleResult, Violation } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'
import { fileIdByName } from '../doc-correction.ts'
import { namesWrong } from '../../artifacts.ts'
import { checkAnswer, type Expected } from '../../answer.ts'

export type DriveCommentResolveParams = {
  actor: string
  actorEmail: string
  /** The file's name; `asker` (e-mail) left the comment whose content is `question`. */
  file: string
  asker: string
  question: string
  /** Any one of these in the reply answers the question; none of `wrong` may appear. */
  answers: string[]
  wrong: string[]
}

const low = (v: unknown) => String(v ?? '').toLowerCase()

/**
 * Answer and resolve one comment. On the named file, the asker's comment is resolved and has a reply by the actor that
 * gives the answer (read as a date answer: not denied, not hedged, not deleted; 0459) and no wrong one, and only that
 * one reply; every other comment thread is as it was (no reply, no change of state), nothing was deleted, and nothing
 * else changed. Resolving with an empty reply, or answering another thread, fails.
 */
export function driveCommentResolve({
  initial,
  final,
  diff,
  params: p,
}: OracleInput<DriveCommentResolveParams>): OracleResult {
  const fileId = fileIdByName(initial, p.file)
  const actorEmail = low(p.actorEmail)
  const target = entities(initial, 'drive', 'comments').find(
    (x) => x.fileId === fileId && !x.commentId && low(x.author) === low(p.asker) && x.content === p.question,
  )
  const after = entities(final, 'drive', 'comments')
  const targetAfter = after.find((x) => x.fileId === fileId && x.id === target?.id)
  const replies = diff
    .filter((c) => c.service === 'drive' && c.collection === 'comments' && c.op === 'inserted')
    .map((c) => (c as { after: Entity }).after)
  const mine = replies.filter((x) => x.commentId === target?.id && x.fileId === fileId)
  const text = mine.map((x) => low(x.content)).join('\n')
  const byActor = mine.length > 0 && mine.every((x) => low(x.author) === actorEmail)
  // What the asker reads: the replies not deleted, read as a date answer is (0459).
  const shown = mine
    .filter((x) => x.deleted !== true)
    .map((x) => String(x.content ?? ''))
    .join('\n')
  const checks = [
    { name: 'the question is on the file', ok: target !== undefined },
    { name: 'the comment is resolved', ok: targetAfter?.resolved === true },
    {
      // A deleted reply shows nothing; a date denied ("not June 4") or offered with another ("June 4 or a week
      // later") does not answer (answer.ts, as answer tasks read dates: docs/decisions/0459).
      name: 'a reply gives the answer',
      ok: byActor && answers(shown, p.answers, p.wrong),
    },
    // One answer, not a string of them (a second reply, even an empty one that resolves again, is noise to the asker).
    { name: 'the thread gained exactly one reply', ok: mine.length === 1, note: `${mine.length}` },
    {
      // Read as a reader reads it (look-alikes, other date spellings: namesWrong), in every version the asker saw:
      // a wrong date edited into the right one was still shown (world-versions.ts, docs/decisions/0393).
      name: 'the reply gives no wrong answer',
      ok: mine.length > 0 && !p.wrong.some((w) => namesWrong(text, w)),
      everyVersion: true as const,
    },
  ]
  // Replies to the target thread may be added, and the target comment may change its resolution; nothing else.
  const onTarget = (e: Entity, key: 'id' | 'commentId') => e[key] === target?.id && e.fileId === fileId
  const allowed = (c: EntityChange) =>
    (c.op === 'inserted' && onTarget(c.after as Entity, 'commentId')) ||
    (c.op === 'updated' &&
      onTarget(c.before as Entity, 'id') &&
      Object.keys(c.fields).every((f) => f === 'resolved' || f === 'modifiedTime'))
  const violations: Violation[] = nothingElseChanged(diff, [
    { service: 'drive', collection: 'comments', id: (_k, c) => allowed(c) },
    readStateChanges,
  ])
  return verdict(checks, violations, { replies: mine.length })
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
/**
 * Whether `text` states the answer as a date answer is read (checkAnswer: stated, not denied, no other date offered
 * beside it, no wrong one), the date being the answers' ISO spelling; answers without one are looked for as written.
 */
function answers(text: string, right: string[], wrong: string[]): boolean {
  const iso = right.find((a) => ISO_DATE.test(a))
  if (!iso) return right.some((a) => low(text).includes(a.toLowerCase()))
  const others = wrong.filter((w) => ISO_DATE.test(w)).map((date): Expected => ({ kind: 'date', date }))
  return checkAnswer(text, { kind: 'date', date: iso }, others).ok
}
