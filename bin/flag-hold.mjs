// V8 flags the launcher holds while `wsgym serve` starts and releases once it is ready (docs/decisions/0299, 0343).
import { setFlagsFromString } from 'node:v8'

/** Whether the caller set a flag matching `chosen` on the command line or in NODE_OPTIONS (then nothing is held). */
export function callerChose(chosen, execArgv, nodeOptions = '') {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => chosen.test(a))
}

/** Sets the `hold` flag now; returns the function that sets `release` (idempotent). */
export function holdFlag(hold, release) {
  setFlagsFromString(hold)
  let held = true
  return () => {
    if (held) setFlagsFromString(release)
    held = false
  }
}
