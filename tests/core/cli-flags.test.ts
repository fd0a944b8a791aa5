import { describe, expect, test } from 'vitest'
import { wsgym } from '../support/cli.ts'

// Flags the command line refuses: one line on stderr and exit status 2 (a usage error), never a stack trace.

describe('wsgym flags', () => {
  test('--help after a command prints the usage and succeeds', async () => {
    for (const args of [
      ['serve', '--help'],
      ['serve', '-h'],
      ['seed', 'show', 'demo', '--help'],
    ]) {
      const r = await wsgym(...args)
      expect(r.status, args.join(' ')).toBe(0)
      expect(r.stdout).toContain('wsgym serve [options]')
    }
  })

  test('an unknown flag or a flag without its value is a usage error naming the flag', async () => {
    for (const [args, flag] of [
      [['serve', '--bogus'], '--bogus'],
      [['serve', '--port'], '--port'],
      [['serve', '--seed-value', '-5'], '--seed-value'],
      [['seed', 'show', 'demo', '--colour'], '--colour'],
    ] as const) {
      const r = await wsgym(...args)
      expect(r.status, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(/^wsgym: /)
      expect(r.stderr).toContain(flag)
      expect(r.stderr).toContain('wsgym --help')
      expect(r.stderr.split('\n')).toHaveLength(1)
    }
  })

  test('ports and seed values out of range are refused before anything starts', async () => {
    const cases: [string[], RegExp][] = [
      [['serve', '--port', 'abc'], /--port takes a port number/],
      [['serve', '--port', '70000'], /--port takes a port number/],
      [['serve', '--control-port', '8081x'], /--control-port takes a port number/],
      [['serve', '--seed-value', 'abc'], /--seed-value takes a whole number/],
      [['serve', '--seed-value', '4294967296'], /--seed-value takes a whole number/],
      [['seed', 'show', 'demo', '--seed-value', '1.5'], /--seed-value takes a whole number/],
    ]
    for (const [args, message] of cases) {
      const r = await wsgym(...args)
      expect(r.status, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
    }
  })

  test('a good seed value still shows the seed it salts', async () => {
    const a = await wsgym('seed', 'show', 'demo', '--seed-value', '7')
    const b = await wsgym('seed', 'show', 'demo', '--seed-value=7')
    expect(a.status).toBe(0)
    expect(JSON.parse(a.stdout).name).toBe('demo')
    expect(b.stdout).toBe(a.stdout)
  })
})
