// What glibc must read at process start for big world images (docs/decisions/0005, 0161, 0291). The launcher
// (bin/wsgym.mjs) re-executes Node once with these added; `npm run bench` sets the same values.

/** Keep blocks up to 1 GiB on the heap and the freed top of the heap mapped (restore reuses faulted pages). */
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: String(1 << 30), MALLOC_TRIM_THRESHOLD_: String(2 ** 31) }

/**
 * memcpy switches to non-temporal stores above this size. glibc 2.36 derives it from the L3 size the CPU reports
 * (480 MiB on the shared VM: 181 MiB), so copying a 35-64 MiB image (restore, snapshot, fork) went through the
 * cache and ran at about half the speed of a 256 MiB one. 4 MiB is past any core's L2. Ignored off x86.
 */
export const NON_TEMPORAL_TUNABLE = 'glibc.cpu.x86_non_temporal_threshold=0x400000'

/**
 * The variables to add to `env` before Node starts, or undefined when there is nothing to add (not Linux, already
 * set, or `WSGYM_NO_MALLOC_ENV=1`). A caller's own value of any of them wins; other tunables they set are kept.
 * (musl ignores all of them; re-executing there costs one more Node start and nothing else.)
 */
export function allocatorEnv(env, platform = process.platform) {
  if (platform !== 'linux' || env.WSGYM_NO_MALLOC_ENV === '1') return undefined
  const add = {}
  for (const [k, v] of Object.entries(MALLOC_ENV)) if (env[k] === undefined) add[k] = v
  const tunables = env.GLIBC_TUNABLES ?? ''
  const name = NON_TEMPORAL_TUNABLE.split('=')[0]
  if (!tunables.split(':').some((t) => t.startsWith(`${name}=`))) {
    add.GLIBC_TUNABLES = tunables ? `${tunables}:${NON_TEMPORAL_TUNABLE}` : NON_TEMPORAL_TUNABLE
  }
  return Object.keys(add).length ? add : undefined
}
