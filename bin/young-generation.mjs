// V8's young generation while `wsgym serve` starts (docs/decisions/0299). Nearly everything allocated while the
// bundle's modules are evaluated and the start world is made survives, so V8 doubles the young generation at each
// scavenge up to its maximum (two semi-spaces of 8 MiB here) and keeps it, touched, until its memory reducer shrinks
// it after seconds of idleness: ~8 MiB of the idle server's resident set. The launcher holds the semi-spaces at
// their initial size while starting (the growth factor, which V8 reads at each growth, set to 1) and gives the
// default factor back once the server is ready, so requests grow it exactly as they grow a fresh V8 heap.
import { callerChose, holdFlag } from './flag-hold.mjs'

/** While starting: a scavenge that would grow the semi-spaces keeps their size. */
export const HOLD_FLAG = '--semi-space-growth-factor=1'
/** Once ready: V8's own default (`node --v8-options`). */
export const RELEASE_FLAG = '--semi-space-growth-factor=2'

/**
 * Whether the launcher may hold the young generation: not when the caller sized or tuned it themselves (a
 * semi-space flag on the command line or in NODE_OPTIONS), whose choice it would otherwise override.
 */
export function mayHoldYoungGeneration(execArgv, nodeOptions = '') {
  return !callerChose(/semi[-_]space/, execArgv, nodeOptions)
}

/** Holds the young generation at its size now; returns the function that lets it grow again (idempotent). */
export function holdYoungGeneration() {
  return holdFlag(HOLD_FLAG, RELEASE_FLAG)
}
