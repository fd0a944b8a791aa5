// Array helpers for lists of any length. A call spreads its arguments onto the stack (`a.push(...b)`,
// `a.splice(i, n, ...b)`, `Math.max(...b)`), which throws RangeError past about a hundred thousand items: a request
// that makes such a list (a paste of 450,000 lines) must not become a 500.

/** Appends every item of `items` to `to`. */
export function pushAll<T>(to: T[], items: readonly T[]): void {
  for (const x of items) to.push(x)
}

/** `arr.splice(at, remove, ...items)` for any number of items. */
export function spliceAll<T>(arr: T[], at: number, remove: number, items: readonly T[]): void {
  const tail = arr.slice(at + remove)
  arr.length = at
  pushAll(arr, items)
  pushAll(arr, tail)
}

/** The largest number of a list (-Infinity for none, as Math.max()). */
export function maxOf(values: Iterable<number>): number {
  let m = -Infinity
  for (const v of values) if (v > m || Number.isNaN(v)) m = v
  return m
}
