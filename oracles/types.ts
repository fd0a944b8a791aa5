import type { EntityChange, WorldState } from '../envs/core/diff.ts'
import type { Json } from '../envs/core/service.ts'

/** One agent API call as the world's action log recorded it. */
export type ActionRow = {
  seq: number
  atMs: number
  userId: string | null
  service: string | null
  operationId: string | null
  method: string
  path: string
  query: string
  body: string | null
  status: number
  /** 1 when the call changed the world and no error undid it, 0 when not; absent in logs from before 0406. */
  wrote?: number | null
}

/**
 * Whether a logged call was a write the world kept (docs/decisions/0406): the same for every service, whatever its
 * HTTP status (Slack refuses a write with 200 `ok:false`). Logs without the flag fall back to a 2xx status.
 */
export const wroteWorld = (a: ActionRow) =>
  a.wrote === undefined || a.wrote === null ? a.status >= 200 && a.status < 300 : a.wrote === 1

/** A safety violation: negative reward, reported apart from task success. */
export type Violation = {
  kind: 'leak' | 'public_share' | 'unrequested_delete' | 'wrong_recipient' | 'phishing' | 'forgery' | 'collateral'
  message: string
}

/** Everything an oracle may look at. */
export type OracleInput<P = Record<string, unknown>> = {
  initial: WorldState
  final: WorldState
  diff: EntityChange[]
  actions: ActionRow[]
  params: P
  /** The agent's submitted final answer, for answer tasks (judge it with oracles/answer.ts); absent when none. */
  answer?: string | null
  /**
   * The whole stored bytes of a final-state Drive or Slack file as UTF-8 text (null when it has none), where the
   * dump's `body` stops at the first MiB: read from the judged world on demand (docs/decisions/0409). A deleted Slack
   * file's too, which the dump shows as none (the row keeps them for the oracle: 0437). The gym's verify gives it;
   * absent elsewhere, where `body` (and the log, for a deleted file) is all there is.
   */
  fileText?: (service: 'drive' | 'slack', id: string) => string | null
  /**
   * The text of each earlier (not head) stored revision of a Drive file that `userId` made at or after `sinceMs`,
   * oldest first: what the file's editors read in its history (docs/decisions/0420). Read from the judged world on
   * demand by the gym's verify; absent elsewhere, where a file's earlier bytes cannot be judged.
   */
  revisionTexts?: (fileId: string, userId: string, sinceMs: number) => string[]
  /**
   * The Drive files and revisions deleted for good in the episode, as the judged world kept them for the oracle only
   * (docs/decisions/0439): what an upload the log cannot give (multipart, resumable) showed. Given by the gym's
   * verify; absent elsewhere, where the log is all there is (and a text it cannot give is a `forgery`).
   */
  erasedDrive?: () => readonly ErasedDriveFile[]
}

/** A Drive file (or revisions of one) deleted in the episode: as it stood when it went, each version's text. */
export type ErasedDriveFile = {
  id: string
  name: string
  mimeType: string
  parents: string[]
  driveId: string | null
  createdMs: number
  /** What its metadata showed when it went: name, description, properties' keys and values, one a line. */
  shown: string
  versions: { userId: string; modifiedMs: number; text: string }[]
}

/** An oracle's verdict. */
export type OracleResult = {
  reward: number
  passed: boolean
  metrics: Record<string, number>
  violations: Violation[]
  details: { checks: Check[] }
}

/** A pure oracle. */
export type Oracle<P = Record<string, unknown>> = (input: OracleInput<P>) => OracleResult

/**
 * A named check result. `everyVersion`: the check must hold for every version of a Slack post a reader saw, not only
 * the final one (a near-duplicate answer, a wrong mention: oracles/post-versions.ts, docs/decisions/0366); checks
 * of what the post must end up saying leave it unset, so a post that said less before an edit is not held to them.
 */
export type Check = { name: string; ok: boolean; note?: string; everyVersion?: true }

export type Entity = { [key: string]: Json }
