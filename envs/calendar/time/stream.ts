/**
 * Lazy expansion, for merging many series in start order (`events.list?singleEvents=true&orderBy=startTime`)
 * without expanding each one in full: instances come in ascending order, one time slice at a time.
 */
import { DAY, type ExpandOptions, type Occurrence, prepareRecurrence } from './expand.ts'

const FIRST_SLICE = 7 * DAY
const MAX_SLICE = 366 * DAY
const HORIZON = 100 * 365 * DAY
/** Most instances one slice computes (the rest of the slice is walked by the next call). */
const SLICE_INSTANCES = 512

/**
 * Yields the instances `expandRecurrence` would return for the same window, in order, computing them a slice
 * at a time (a week first, doubling after each slice). Without `windowEndMs` it stops 100 years after the
 * window start; stop earlier by leaving the loop.
 */
export function iterateRecurrence(opts: Omit<ExpandOptions, 'limit'>): Generator<Occurrence> {
  return slices(opts, false) as Generator<Occurrence>
}

/**
 * `iterateRecurrence`, with `null` after every slice: a caller that takes turns (envs/core/turns.ts) can hand one
 * over between slices even while a series yields nothing for many of them (a COUNT rule that ended before the
 * window walks its occurrences again on each).
 */
export function iterateRecurrenceSlices(opts: Omit<ExpandOptions, 'limit'>): Generator<Occurrence | null> {
  return slices(opts, true)
}

function* slices(opts: Omit<ExpandOptions, 'limit'>, marks: boolean): Generator<Occurrence | null> {
  const first = opts.windowStartMs ?? opts.start.ms
  const end = opts.windowEndMs ?? first + HORIZON
  // The series is read once; each slice only walks its rules.
  const expand = prepareRecurrence(opts)
  let from = first
  let slice = FIRST_SLICE
  while (from < end) {
    const to = Math.min(end, from + slice)
    // The first slice keeps the overlap rule (an instance already running at windowStart counts); later
    // slices take only instances that start inside them, so none is yielded twice.
    // At most SLICE_INSTANCES per call: a dense rule (BYHOUR × BYMINUTE × BYSECOND is 86,400 a day) is walked in
    // bounded steps, each resuming just after the last instance, so no single call does unbounded work.
    const found = expand({
      windowStartMs: from === first ? opts.windowStartMs : from,
      windowEndMs: to,
      limit: SLICE_INSTANCES,
    })
    let yielded = 0
    let last = from
    for (const o of found) {
      if (from !== first && o.originalStartMs < from) continue
      yielded++
      last = Math.max(last, o.originalStartMs)
      yield o
    }
    if (marks) yield null
    if (found.length >= SLICE_INSTANCES) {
      from = last + 1
      slice = Math.max(DAY, slice / 2)
      continue
    }
    // Small first slices serve callers that stop early; doubling keeps long scans to a few calls.
    slice = yielded ? Math.min(slice * 2, MAX_SLICE) : slice * 2
    from = to
  }
}
