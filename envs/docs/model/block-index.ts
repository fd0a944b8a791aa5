import { spliceAll } from '../../core/arrays.ts'
import { blockLen, type Block } from './types.ts'
import { charge, work } from './work.ts'

// Start offsets of the blocks of a segment's top-level container, kept while one batchUpdate applies its requests
// (docs/decisions/0377), so that locating an index is a binary search instead of a walk over every block before it.
// Only containers registered by `withBlockIndex` are indexed, and only until it returns: the entries live exactly as
// long as the synchronous call, so nothing outlives a request. Every change of a segment's length reports itself
// through shiftInsert/shiftDelete (named ranges need it too); `noteChange` then measures again the blocks around the
// changed index and checks that the blocks on both sides are the same objects as before.

type Index = {
  /** The container's blocks when last synchronised (by identity) and their lengths. */
  blocks: Block[]
  lens: number[]
  /** pre[k]: offset of block k from the container's start, valid for k <= preOk. */
  pre: number[]
  preOk: number
}

/** Registered containers → their index (undefined until first used). */
const live = new WeakMap<Block[], Index | undefined>()

/** Blocks measured (blockLen calls made) to build or resynchronise indexes; read by tests. */
export const indexStats = { measured: 0 }

/** Runs `fn` with the given top-level containers indexed; the index is dropped when it returns or throws. */
export function withBlockIndex<T>(containers: readonly Block[][], fn: () => T): T {
  for (const c of containers) live.set(c, undefined)
  try {
    return fn()
  } finally {
    for (const c of containers) live.delete(c)
  }
}

function indexOf(container: Block[]): Index | undefined {
  if (!live.has(container)) return undefined
  let ix = live.get(container)
  if (!ix) {
    // Building costs one walk per batch, as loading and saving the document do: not charged to its requests.
    const left = work.left
    const lens = container.map(measure)
    work.left = left
    ix = { blocks: container.slice(), lens, pre: [0], preOk: 0 }
    live.set(container, ix)
  }
  return ix
}

function measure(b: Block): number {
  indexStats.measured++
  return blockLen(b)
}

/** Extends the valid prefix sums until they pass offset `rel` (or reach the end). */
function extend(ix: Index, rel: number) {
  const { pre, lens } = ix
  let k = ix.preOk
  const from = k
  while (k < lens.length && pre[k]! <= rel) {
    pre[k + 1] = pre[k]! + lens[k]!
    k++
  }
  ix.preOk = k
  charge((k - from) / 8)
}

/** The block holding offset `rel` from the container's start: its position, offset and length. */
function locate(ix: Index, rel: number): { i: number; start: number; len: number } | undefined {
  if (rel < 0) return undefined
  extend(ix, rel)
  const { pre } = ix
  const k = ix.preOk
  // Now pre[k] > rel, unless k is the end (then rel is past the last block).
  if (k === 0 || pre[k]! <= rel) return undefined
  let lo = 0
  let hi = k - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (pre[mid]! <= rel) lo = mid
    else hi = mid - 1
  }
  return { i: lo, start: pre[lo]!, len: ix.lens[lo]! }
}

/**
 * The block of an indexed container holding index `at` (its position, start index and length); undefined when the
 * index is past the end. `null` when the container is not indexed (the caller walks it).
 */
export function indexedBlockAt(
  container: Block[],
  from: number,
  at: number,
): { i: number; start: number; len: number } | undefined | null {
  const ix = indexOf(container)
  if (!ix) return null
  const hit = locate(ix, at - from)
  return hit && { i: hit.i, start: hit.start + from, len: hit.len }
}

/** Length of an indexed container, or undefined when it is not indexed. */
export function indexedLength(container: Block[]): number | undefined {
  const ix = indexOf(container)
  if (!ix) return undefined
  extend(ix, Infinity)
  return ix.pre[ix.lens.length]!
}

/** Whether a container is indexed now. */
export const isIndexed = (container: Block[]): boolean => live.has(container)

/** Length of block `i` of an indexed container (as measured when last synchronised). */
export const indexedLen = (container: Block[], i: number): number | undefined => live.get(container)?.lens[i]

/**
 * The container changed between indexes x0 and x1 (inclusive, relative to its start, before the change): blocks
 * entirely before x0 and after the block holding x1 are untouched (the edits in model/ and requests/ only change the
 * blocks holding the edited range and splice next to them). They are measured again; if the untouched blocks are
 * not the same objects as before, the index is dropped and rebuilt on next use.
 */
export function noteChange(container: Block[], x0: number, x1: number) {
  const ix = live.get(container)
  if (!ix) return
  const n = ix.lens.length
  const a = locate(ix, x0)
  const b = locate(ix, x1)
  const k = a ? a.i : -1
  const j = b ? b.i : n - 1
  const dn = container.length - n
  const end = j + dn // last changed position in the container as it is now
  const ok =
    k >= 0 &&
    k <= j &&
    end >= k - 1 &&
    end < container.length &&
    (k === 0 || container[k - 1] === ix.blocks[k - 1]) &&
    (j + 1 >= n || container[j + 1 + dn] === ix.blocks[j + 1])
  if (!ok) {
    live.set(container, undefined)
    return
  }
  const fresh = container.slice(k, end + 1)
  const lens = fresh.map(measure)
  if (dn === 0) {
    for (let m = 0; m < fresh.length; m++) {
      ix.blocks[k + m] = fresh[m]!
      ix.lens[k + m] = lens[m]!
    }
  } else {
    charge((n - k) / 4)
    spliceAll(ix.blocks, k, j - k + 1, fresh)
    spliceAll(ix.lens, k, j - k + 1, lens)
  }
  ix.preOk = Math.min(ix.preOk, k)
  ix.pre.length = ix.preOk + 1
}
