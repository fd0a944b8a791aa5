/**
 * `wsgym tasks export --format harbor DIR`: one Harbor task directory per task (the layout Harbor and BenchFlow run:
 * task.toml, instruction.md, environment/, tests/test.sh). The agent works against a gym server in a service
 * container; the verifier (tests/test.sh, uploaded only after the agent finished) asks that server's control plane to
 * verify the episode and passes only on reward 1. See docs/decisions/0193-harbor-export.md.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TaskSpec } from './task.ts'
import { indexEntry } from '../tasks-lite/corpus.ts'

export type HarborOptions = {
  /** The control-plane token the gym service runs with; it appears only in tests/ and the compose file. */
  adminToken: string
  /** Image of this repository the gym service runs (built with its Dockerfile; see environment/README.md). */
  gymImage?: string
}

/** A TOML basic string. */
const toml = (s: string) => JSON.stringify(s)
const tomlList = (xs: string[]) => `[${xs.map(toml).join(', ')}]`
/** A single-quoted shell word. */
const sh = (s: string) => `'${s.replaceAll("'", `'"'"'`)}'`

/** Seconds the agent gets: generous per allowed step (model latency dominates), at least ten minutes. */
export const agentTimeoutSec = (t: TaskSpec) => Math.max(600, t.maxSteps * 30)

export function taskToml(t: TaskSpec): string {
  const e = indexEntry(t)
  return `version = "1.0"

[metadata]
author_name = "workspace-gym tasks-lite"
difficulty = ${toml(t.difficulty)}
category = "workspace-apis"
tags = ${tomlList([...new Set(['workspace-gym', t.family, ...t.services, ...t.tags])])}
task_id = ${toml(t.id)}
family = ${toml(t.family)}
split = ${toml(t.split ?? 'train')}
tier = ${toml(t.difficulty)}
services = ${tomlList(t.services)}
multi_app = ${e.multiApp}
safety = ${e.safety}
answer_task = ${e.answerTask}
max_steps = ${t.maxSteps}
tool_profile = ${toml(t.toolProfile)}
sha256 = ${toml(e.sha256)}

[verifier]
timeout_sec = 120.0

[agent]
timeout_sec = ${agentTimeoutSec(t).toFixed(1)}

[environment]
build_timeout_sec = 900.0
cpus = 2
memory_mb = 4096
storage_mb = 4096
`
}

export function instructionMd(t: TaskSpec): string {
  const answer = t.tags.includes('answer')
  return `${t.instruction.trim()}

---

You work through the Google Workspace (Gmail, Calendar, Drive, Docs) and Slack Web APIs of a simulated company.
Your session is described in \`/shared/episode.json\`: \`baseUrls.google\` and \`baseUrls.slack\` are the API roots,
\`tokens.google\` and \`tokens.slack\` your bearer tokens (\`Authorization: Bearer …\`), \`user\` who you are.
The APIs answer like the real ones (same paths, parameters and errors). You may make at most ${t.maxSteps} API calls.
${
  answer
    ? `
When you are done, write your final answer (only the answer) to \`/shared/answer.txt\`.
`
    : ''
}`
}

/** The gym service's start script: serve, reset this task, publish the agent's session, keep serving. */
export function startScript(t: TaskSpec): string {
  return `#!/usr/bin/env bash
# Runs in the gym service: starts the server, opens the episode of task ${t.id} and writes the agent's session
# (API base URLs and tokens, never the admin token) to the shared volume.
set -euo pipefail
npx wsgym serve --host 0.0.0.0 --port 8080 --control-port 8081 --admin-token "$WSGYM_ADMIN_TOKEN" &
server=$!
for _ in $(seq 1 120); do curl -fsS http://127.0.0.1:8081/health >/dev/null 2>&1 && break; sleep 1; done
curl -fsS -X POST http://127.0.0.1:8081/gym/reset \\
  -H "authorization: Bearer $WSGYM_ADMIN_TOKEN" -H 'content-type: application/json' \\
  -d '{"taskId": ${JSON.stringify(t.id)}}' \\
  | sed 's#http://[^"/]*:8080#http://gym:8080#g' > /shared/episode.json.tmp
mv /shared/episode.json.tmp /shared/episode.json
wait "$server"
`
}

export function composeYaml(opts: HarborOptions): string {
  return `# Harbor runs the agent in "main"; the gym serves the APIs next to it. The admin token stays in this
# file and in tests/ (uploaded after the agent finished), never in the agent's container.
services:
  main:
    build: .
    volumes: [shared:/shared]
    depends_on: [gym]
  gym:
    image: ${opts.gymImage ?? 'workspace-gym:local'}
    command: ["bash", "/start-episode.sh"]
    environment:
      WSGYM_ADMIN_TOKEN: ${toml(opts.adminToken)}
    volumes:
      - shared:/shared
      - ./start-episode.sh:/start-episode.sh:ro
volumes:
  shared: {}
`
}

const DOCKERFILE = `# The agent's container: a shell with curl and Python to call the APIs. The APIs themselves
# run in the gym service (docker-compose.yaml), started with \`npx wsgym serve\` from an image of workspace-gym.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl jq python3 \\
  && rm -rf /var/lib/apt/lists/*
WORKDIR /workspace
`

const ENV_README = `# Environment

- \`Dockerfile\`: the agent's container (\`main\`).
- \`docker-compose.yaml\`: \`main\` plus \`gym\`, the workspace-gym server (\`npx wsgym serve\`), image
  \`workspace-gym:local\` by default: build it from a checkout of workspace-gym with a Node 20 image that runs
  \`npm ci\` (for instance \`FROM node:20-bookworm\`, \`COPY . /app\`, \`WORKDIR /app\`, \`RUN npm ci\`).
- \`start-episode.sh\`: what \`gym\` runs: the server, then \`POST /gym/reset {taskId}\`; the agent's session goes to
  \`/shared/episode.json\`.
`

/** tests/test.sh: verify the episode over HTTP; reward to /logs/verifier/reward.txt; exit 0 only on reward 1. */
export function testScript(t: TaskSpec, opts: HarborOptions): string {
  return `#!/usr/bin/env bash
# Verifier of ${t.id}: asks the gym to judge the episode
# (POST /gym/episodes/{id}/verify on the control port) and passes only on reward 1.
# Overridable for local runs: WSGYM_CONTROL_URL, WSGYM_ADMIN_TOKEN, WSGYM_EPISODE_FILE, WSGYM_ANSWER_FILE,
# WSGYM_REWARD_DIR.
set -uo pipefail
control=\${WSGYM_CONTROL_URL:-http://gym:8081}
token=\${WSGYM_ADMIN_TOKEN:-${sh(opts.adminToken)}}
episode_file=\${WSGYM_EPISODE_FILE:-/shared/episode.json}
answer_file=\${WSGYM_ANSWER_FILE:-/shared/answer.txt}
reward_dir=\${WSGYM_REWARD_DIR:-/logs/verifier}
task=${sh(t.id)}

fail() {
  echo "wsgym verifier: $*" >&2
  mkdir -p "$reward_dir" 2>/dev/null && echo 0 > "$reward_dir/reward.txt"
  exit 1
}
command -v curl >/dev/null || fail "curl is missing"
[ -r "$episode_file" ] || fail "no episode file at $episode_file"
episode=$(sed -n 's/^{"episodeId":"\\([A-Za-z0-9._-]*\\)".*/\\1/p' "$episode_file")
[ -n "$episode" ] || fail "no episode id in $episode_file"
auth=(-H "authorization: Bearer $token")

# The episode must be this task's (a session file pointing elsewhere earns nothing).
info=$(curl -fsS "\${auth[@]}" "$control/gym/episodes/$episode") || fail "episode $episode is not live"
printf '%s' "$info" | grep -qF "\\"task\\":{\\"id\\":\\"$task\\"" || fail "episode $episode is not task $task"
${
  t.tags.includes('answer')
    ? `
# An answer task ends with done + the answer the agent wrote (JSON-escaped by the helper beside this script).
if [ -r "$answer_file" ]; then
  body=$(bash "$(dirname "$0")/json-string.sh" < "$answer_file")
  curl -fsS "\${auth[@]}" -H 'content-type: application/json' -X POST "$control/gym/episodes/$episode/step" \\
    -d "{\\"action\\":{\\"tool\\":\\"done\\",\\"arguments\\":{\\"answer\\":$body}}}" >/dev/null \\
    || fail "could not submit the answer"
fi
`
    : ''
}
verdict=$(curl -fsS "\${auth[@]}" -X POST "$control/gym/episodes/$episode/verify") || fail "verify failed"
reward=$(printf '%s' "$verdict" | sed -n 's/^{"reward":\\(-\\{0,1\\}[0-9.eE+-]*\\),.*/\\1/p')
[ -n "$reward" ] || fail "no reward in the verdict: $verdict"
mkdir -p "$reward_dir" 2>/dev/null && echo "$reward" > "$reward_dir/reward.txt"
echo "$verdict"
[ "$reward" = "1" ] && exit 0
exit 1
`
}

/** A helper that prints stdin as one JSON string (no jq or Python needed). */
const JSON_STRING = `#!/usr/bin/env bash
# Prints stdin as a JSON string literal (control characters other than newline, return and tab dropped).
s=$(tr -d '\\000-\\010\\013\\014\\016-\\037'; printf x); s=\${s%x}
s=\${s//\\\\/\\\\\\\\}; s=\${s//\\"/\\\\\\"}; s=\${s//$'\\n'/\\\\n}; s=\${s//$'\\r'/\\\\r}; s=\${s//$'\\t'/\\\\t}
printf '"%s"' "$s"
`

/** Writes one task directory per task under `dir`; returns the directories written. */
export function exportHarbor(tasks: TaskSpec[], dir: string, opts: HarborOptions): string[] {
  const out: string[] = []
  for (const t of tasks) {
    const root = join(dir, t.id)
    const file = (rel: string, text: string, exec = false) => {
      const path = join(root, rel)
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, text)
      if (exec) chmodSync(path, 0o755)
    }
    file('task.toml', taskToml(t))
    file('instruction.md', instructionMd(t))
    file('environment/Dockerfile', DOCKERFILE)
    file('environment/docker-compose.yaml', composeYaml(opts))
    file('environment/start-episode.sh', startScript(t), true)
    file('environment/README.md', ENV_README)
    file('tests/test.sh', testScript(t, opts), true)
    if (t.tags.includes('answer')) file('tests/json-string.sh', JSON_STRING, true)
    out.push(root)
  }
  return out
}
