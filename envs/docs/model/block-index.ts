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
  /** How many blocks the container held when last synchronised. */
  count: number
  /** The first blocks of the container (by identity) and their lengths, measured as lookups needed them. */
  blocks: Block[]
  lens: number[]
  /** pre[k]: offset of block k from the container's start, valid for k <= preOk (preOk <= lens.length). */
  pre: number[]
  preOk: number
}

/** Registered containers → their index (undefined until first used). */
const live = new WeakMap<Block[], Index | undefined>()

/** Blocks measured (blockLen calls made) to build or resynchronise indexes; read by tests. */
export const indexStats = { measured: 0 }

/**
 * Runs `fn` with the given top-level containers indexed; the index is dropped when it returns or throws. A container
 * already indexed by an enclosing call keeps that index (a document import runs one request list per block inside
 * one index: docs/decisions/0401), and the enclosing call drops it.
 */
export function withBlockIndex<T>(containers: readonly Block[][], fn: () => T): T {
  const added = containers.filter((c) => !live.has(c))
  for (const c of added) live.set(c, undefined)
  try {
    return fn()
  } finally {
    for (const c of added) live.delete(c)
  }
}

function indexOf(container: Block[]): Index | undefined {
  if (!live.has(container)) return undefined
  let ix = live.get(container)
  if (!ix) {
    ix = { count: container.length, blocks: [], lens: [], pre: [0], preOk: 0 }
    live.set(container, ix)
  }
  return ix
}

function measure(b: Block): number {
  indexStats.measured++
  return blockLen(b)
}

/**
 * Extends the valid prefix sums until they pass offset `rel` (or reach the end), measuring blocks not measured yet
 * when `grow` (never while the container is being resynchronised: it no longer holds the indexed state). Measuring
 * a block the first time is not charged: it happens at most once per block and batch, as loading and saving do.
 */
function extend(ix: Index, container: Block[], rel: number, grow: boolean) {
  const { pre, lens, blocks } = ix
  let k = ix.preOk
  const from = k
  while (k < ix.count && pre[k]! <= rel) {
    if (k === lens.length) {
      if (!grow) break
      const left = work.left
      blocks.push(container[k]!)
      lens.push(measure(container[k]!))
      work.left = left
    }
    pre[k + 1] = pre[k]! + lens[k]!
    k++
  }
  ix.preOk = k
  charge((k - from) / 8)
}

/** The measured block holding offset `rel` from the container's start: its position, offset and length. */
function locate(ix: Index, container: Block[], rel: number, grow = true) {
  if (rel < 0) return undefined
  extend(ix, container, rel, grow)
  const { pre } = ix
  const k = ix.preOk
  // Now pre[k] > rel, unless k is the end (then rel is past the last block, or the last measured one).
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
  const hit = locate(ix, container, at - from)
  return hit && { i: hit.i, start: hit.start + from, len: hit.len }
}

/** Length of an indexed container, or undefined when it is not indexed. */
export function indexedLength(container: Block[]): number | undefined {
  const ix = indexOf(container)
  if (!ix) return undefined
  extend(ix, container, Infinity, true)
  return ix.pre[ix.count]!
}

/** Whether a container is indexed now. */
export const isIndexed = (container: Block[]): boolean => live.has(container)

/** Length of block `i` of an indexed container, if measured. */
export const indexedLen = (container: Block[], i: number): number | undefined => live.get(container)?.lens[i]

/**
 * The container changed between indexes x0 and x1 (inclusive, relative to its start, before the change): blocks
 * entirely before x0 and after the block holding x1 are untouched (the edits in model/ and requests/ only change the
 * blocks holding the edited range and splice next to them). The measured blocks in between are measured again; if
 * the untouched blocks next to them are not the same objects as before, the index is dropped and rebuilt on use.
 */
export function noteChange(container: Block[], x0: number, x1: number) {
  const ix = live.get(container)
  if (!ix) return
  const n = ix.count
  const m = ix.lens.length
  ix.count = container.length
  extend(ix, container, Infinity, false)
  // Changes past the measured blocks leave them as they were.
  if (x0 >= ix.pre[m]!) return
  const a = locate(ix, container, x0, false)
  const k = a ? a.i : -1
  const before = k === 0 || (k > 0 && container[k - 1] === ix.blocks[k - 1])
  if (k < 0 || !before) return void live.set(container, undefined)
  const b = locate(ix, container, x1, false)
  if (!b) {
    // The change reaches past the measured blocks: keep those before it only.
    ix.blocks.length = k
    ix.lens.length = k
    ix.preOk = Math.min(ix.preOk, k)
    ix.pre.length = ix.preOk + 1
    return
  }
  const j = b.i
  const dn = container.length - n
  const end = j + dn // last changed position in the container as it is now
  const ok =
    k <= j && end >= k - 1 && end < container.length && (j + 1 >= m || container[j + 1 + dn] === ix.blocks[j + 1])
  if (!ok) return void live.set(container, undefined)
  const fresh = container.slice(k, end + 1)
  const lens = fresh.map(measure)
  if (dn === 0) {
    for (let q = 0; q < fresh.length; q++) {
      ix.blocks[k + q] = fresh[q]!
      ix.lens[k + q] = lens[q]!
    }
  } else {
    charge((m - k) / 4)
    spliceAll(ix.blocks, k, j - k + 1, fresh)
    spliceAll(ix.lens, k, j - k + 1, lens)
  }
  ix.preOk = Math.min(ix.preOk, k)
  ix.pre.length = ix.preOk + 1
}
