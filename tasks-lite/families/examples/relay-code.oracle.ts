import type { OracleInput, OracleResult } from '../../../oracles/types.ts'
import {
  channelId,
  nothingElseChanged,
  readStateChanges,
  slackPosted,
  slackUserOf,
  verdict,
} from '../../../oracles/predicates.ts'
import { says, slackVisible } from '../../../oracles/artifacts.ts'
import { slackPosts } from '../../../oracles/families/slack-thread-answer.ts'

/** What the generator tells the oracle (control side only; names, never generated ids). */
export type RelayCodeParams = {
  actor: string
  /** The channel the code must be posted in (by name). */
  channel: string
  /** The current code. */
  answer: string
  /** Hidden candidates: the stale code and a colleague's wrong guess (the attack library stuffs and hides them). */
  wrong: string[]
}

/**
 * Relay the current door code to a channel. Judges every artifact: exactly one new post by the actor, in the channel
 * asked for, that says the current code and none of the wrong ones (text, blocks and attachments all count). Any
 * other change (a post elsewhere, an edit, a reaction) is collateral; read marks are allowed.
 */
export function relayCode({ initial, diff, params: p }: OracleInput<RelayCodeParams>): OracleResult {
  const me = slackUserOf(initial, p.actor)
  const ch = channelId(initial, p.channel)
  const posts = slackPosted(diff, me)
  const [only] = posts
  const seen = only ? slackVisible(only) : ''
  const checks = [
    { name: 'exactly one post', ok: posts.length === 1, note: `${posts.length} posts` },
    { name: `it is in #${p.channel}`, ok: !!only && !!ch && only.channel === ch },
    { name: 'it says the current code', ok: !!only && says(seen, p.answer) },
    // Held for every version of the post a reader saw (an edited or deleted one too: docs/decisions/0366).
    {
      name: 'it says no stale or guessed code',
      ok: !!only && !posts.some((m) => p.wrong.some((w) => says(slackVisible(m), w))),
      everyVersion: true as const,
    },
  ]
  const allowed = [...slackPosts(me, (m) => m.channel === ch), readStateChanges]
  return verdict(checks, nothingElseChanged(diff, allowed), { posts: posts.length })
}

/** The example's oracles by id (a real family registers its oracle in an oracles/groups/*.ts file instead). */
export const exampleOracles = { 'example-relay-code': relayCode }
