/** The README's admin token: accepted only while the server listens on loopback (server/cli.ts). */
export const DEFAULT_ADMIN_TOKEN = 'dev-admin-token'

/** The only place that reads process.env: defaults for `wsgym serve`. */
export const envDefaults = {
  host: process.env.WSGYM_HOST ?? '127.0.0.1',
  port: Number(process.env.WSGYM_PORT ?? 8080),
  controlPort: Number(process.env.WSGYM_CONTROL_PORT ?? 8081),
  adminToken: process.env.WSGYM_ADMIN_TOKEN ?? DEFAULT_ADMIN_TOKEN,
  dataDir: process.env.WSGYM_DATA_DIR,
  openenvKey: process.env.WSGYM_OPENENV_KEY,
  /** A secret shared by every worker and host of one deployment (docs/security.md); `--secret-file` overrides. */
  secret: process.env.WSGYM_SECRET,
  /** The agent URL clients reach this server through (a proxy in front of a `--slot` upstream), for reset answers. */
  publicAgentUrl: process.env.WSGYM_PUBLIC_AGENT_URL,
  /** Agent requests per commit of an in-memory world (server/worlds.ts BATCH_REQUESTS; 0: every write). */
  batchWrites: process.env.WSGYM_BATCH_WRITES,
  /** `1`: every gym episode opens a connection of its own instead of reusing an idle one (gym/index.ts). */
  freshEpisodeWorlds: process.env.WSGYM_FRESH_EPISODE_WORLDS === '1',
}

/** Set by the `--workers` front on each worker it forks (server/workers.ts): its slot `k/n` and the front's URLs. */
export const workerEnv = {
  slot: process.env.WSGYM_WORKER,
  agentUrl: process.env.WSGYM_PUBLIC_AGENT,
  controlUrl: process.env.WSGYM_PUBLIC_CONTROL,
}

/** This process's environment plus `extra`, for a child process. */
export const childEnv = (extra: Record<string, string>) => ({ ...process.env, ...extra })
