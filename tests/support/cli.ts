import { vi } from 'vitest'
import { main } from '../../server/cli.ts'

/** Runs the `wsgym` command in process (what bin/wsgym.mjs runs): its exit status, stdout and stderr. */
export async function wsgym(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = []
  const err: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')))
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')))
  try {
    const status = await main(args)
    return { status, stdout: out.join('\n'), stderr: err.join('\n') }
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}
