import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

// Builds and runs tests/sdk/go/slackgo (slack-go against this server). Offline, from Debian's packages:
// golang-go and golang-github-slack-go-slack-dev put slack-go and its dependencies under /usr/share/gocode,
// so the program builds in GOPATH mode (GO111MODULE=off) with no module proxy. The binary is cached in .tmp/
// (git-ignored) under a hash of the Go sources and the toolchain version.

const GOPATH = '/usr/share/gocode'
const SOURCE = resolve('tests/sdk/go/slackgo')
const CACHE = resolve('.tmp/go-bin')

const goEnv = () => ({
  ...process.env,
  GOPATH,
  GO111MODULE: 'off',
  GOFLAGS: '',
  GOPROXY: 'off',
  GOCACHE: join(CACHE, 'gocache'),
})

/** Why the slack-go tests cannot run here (no toolchain, no slack-go), or undefined when they can. */
export function slackGoUnavailable(): string | undefined {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' })
  if (go.error || go.status !== 0) return 'no Go toolchain (apt-get install golang-go golang-github-slack-go-slack-dev)'
  if (!existsSync(join(GOPATH, 'src/github.com/slack-go/slack/slack.go'))) {
    return `slack-go is not under ${GOPATH} (apt-get install golang-github-slack-go-slack-dev)`
  }
  return undefined
}

/** The built program, compiled once per version of its sources and of the toolchain. */
export function buildSlackGo(): string {
  const version = spawnSync('go', ['version'], { encoding: 'utf8' }).stdout.trim()
  const hash = createHash('sha256').update(version)
  const sources = readdirSync(SOURCE)
    .filter((n) => n.endsWith('.go'))
    .sort()
  for (const f of sources) hash.update(f).update(readFileSync(join(SOURCE, f)))
  const bin = join(CACHE, `slackgo-${hash.digest('hex').slice(0, 16)}`)
  if (existsSync(bin)) return bin
  mkdirSync(CACHE, { recursive: true })
  const built = spawnSync('go', ['build', '-o', bin, '.'], { cwd: SOURCE, env: goEnv(), encoding: 'utf8' })
  if (built.status !== 0) throw new Error(`go build failed:\n${built.stderr}`)
  return bin
}

const run = promisify(execFile)

/** Runs one scenario of the program and returns the JSON it prints. */
export async function slackGo(bin: string, scenario: string, env: Record<string, string>) {
  const { stdout } = await run(bin, [scenario], { env: { ...process.env, ...env }, timeout: 60_000 })
  return JSON.parse(stdout) as Record<string, any>
}
