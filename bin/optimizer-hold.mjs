// V8's optimizing compiler while `wsgym serve` starts (docs/decisions/0343). What runs hot during a start is the
// module loader resolving the bundle's chunks (path and URL helpers) and the start's one-off setup: TurboFan compiles
// a dozen such functions on V8's worker threads, which pages in the compiler's code (~1.4 MiB of the node binary) and
// leaves each thread's malloc arena holding its freed zones (~0.5 MiB each), ~2.5-3 MiB of an idle server's resident
// set, for code that never runs again. The launcher turns TurboFan off until the server is ready and back on then;
// functions keep their feedback and invocation counts, so requests tier up exactly as before.
import { callerChose, holdFlag } from './flag-hold.mjs'

/** While starting: no function is optimized by TurboFan (Ignition and Sparkplug run everything). */
export const HOLD_FLAG = '--no-turbofan'
/** Once ready: V8's own default (`node --v8-options`). */
export const RELEASE_FLAG = '--turbofan'

/**
 * Whether the launcher may hold TurboFan: not when the caller chose a tiering policy themselves (a TurboFan, `--opt`,
 * `--max-opt`, `--always-*` or `--jitless` flag on the command line or in NODE_OPTIONS), which the release would
 * otherwise override.
 */
export function mayHoldOptimizer(execArgv, nodeOptions = '') {
  return !callerChose(/^--(no-)?(turbofan|opt|max-opt|always-|jitless)/, execArgv, nodeOptions)
}

/** Holds TurboFan off from now; returns the function that turns it back on (idempotent). */
export function holdOptimizer() {
  return holdFlag(HOLD_FLAG, RELEASE_FLAG)
}
