import type { Episode } from './episode.ts'
import { publicTask } from './task.ts'

/** The first observation: who the agent is, what time it is, and the instruction. */
export function initialObservation(ep: Episode): string {
  const me = ep.credentials()
  const now = new Date(ep.initial.clockMs).toISOString()
  return `You are ${me.name} <${me.email}>. Current time: ${now}.\n\nTask: ${ep.instruction}`
}

/**
 * What reset answers: everything the agent needs (its identity, credentials, tools and where to call), nothing
 * of the answers. `baseUrls.mcp` is the agent-side MCP endpoint, reached with the episode's own token.
 */
export function describeEpisode(ep: Episode, agentBaseUrl: string) {
  const me = ep.credentials()
  return {
    episodeId: ep.id,
    worldId: ep.worldId,
    task: publicTask(ep.task),
    instruction: ep.instruction,
    tools: ep.tools,
    baseUrls: { google: agentBaseUrl, slack: `${agentBaseUrl}/api/`, mcp: `${agentBaseUrl}/mcp` },
    user: { id: me.id, email: me.email, name: me.name },
    tokens: { google: me.googleToken ?? null, slack: me.slackUserToken ?? null },
    observation: initialObservation(ep),
    maxSteps: ep.task.maxSteps,
  }
}
