import { expect } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { validateAgainst } from '../support/discovery.ts'
import { calSeed } from './fixtures.ts'

export const C = '/calendar/v3'

/** A fresh calendar-test world with calls as `as` (a user id; Ann when omitted). */
export function cal(seed: Record<string, unknown> = calSeed) {
  const h = harness(seed)
  const call = async (method: string, path: string, opts: { json?: unknown; as?: string } = {}) =>
    h.call(method, `${C}${path}`, { json: opts.json, token: h.google(opts.as ?? 'ann') })
  /** A call that must succeed with a body valid against the discovery schema `schema`. */
  const ok = async (
    schema: string | null,
    method: string,
    path: string,
    opts: { json?: unknown; as?: string } = {},
  ) => {
    const res = await call(method, path, opts)
    expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBeLessThan(300)
    if (schema) expect(validateAgainst('calendar', schema, res.body)).toEqual([])
    return res.body
  }
  const fails = async (
    status: number,
    reason: string,
    method: string,
    path: string,
    opts: { json?: unknown; as?: string } = {},
  ) => {
    const res = await call(method, path, opts)
    expect(res.status, res.text.slice(0, 300)).toBe(status)
    expect(res.body.error.errors[0].reason).toBe(reason)
    return res.body
  }
  return { h, call, ok, fails }
}

export type Cal = ReturnType<typeof cal> & { h: Harness }

export const timed = (start: string, end: string, timeZone?: string) => ({
  start: { dateTime: start, ...(timeZone ? { timeZone } : {}) },
  end: { dateTime: end, ...(timeZone ? { timeZone } : {}) },
})
