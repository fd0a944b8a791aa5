// `wsgym serve` as shipped, spawned for a bench section: dist/ when built and current, the allocator's variables set
// as the launcher would set them, both ports chosen by the system. Shared by ./startup.ts and ./uploads.ts.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
// @ts-expect-error: the launcher's helper is plain JavaScript without declarations
import { MALLOC_ENV } from '../../bin/allocator-env.mjs'

const root = join(import.meta.dirname, '..', '..')

export type Served = {
  child: ChildProcess
  /** Everything it printed so far (stdout and stderr). */
  output(): string
  /** Rejects when the process exits (a start that fails ends the wait instead of hanging it). */
  exited: Promise<never>
  /** The agent API's base URL once `/healthz` answers 200 there. */
  ready(): Promise<string>
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<void>
}

export function spawnServe(): Served {
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0'],
    { cwd: root, env: { ...process.env, ...MALLOC_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<never>((_, reject) =>
    child.on('exit', (code) => reject(new Error(`wsgym serve exited ${code}: ${out}`))),
  )
  exited.catch(() => {})
  const ready = async () => {
    let agent: string | undefined
    while (!(agent = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1])) await Promise.race([pause(2), exited])
    for (;;) {
      const ok = await fetch(`${agent}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) return agent
      await Promise.race([pause(2), exited])
    }
  }
  const stop = async () => {
    child.kill('SIGTERM')
    await exited.catch(() => {})
  }
  return { child, output: () => out, exited, ready, stop }
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
