/**
 * Bytes held by snapshot images in this process: every image `World.snapshot()` serialized, from the moment it
 * exists until the garbage collector frees it (an image shared by several snapshots counts once). Process-wide
 * accounting only; nothing here changes what any world holds.
 *
 * An image's memory is SQLite's; Node gives it back on an event-loop turn after the collector found the Buffer
 * dead (a deferred free callback), never during synchronous code. A loop that snapshots without yielding a turn
 * therefore holds every image it made, and each new one is fresh memory the kernel must fault in
 * (docs/decisions/0291); the server yields between requests.
 */
const held = { bytes: 0, images: 0 }
const counted = new WeakSet<Buffer>()
const freed = new FinalizationRegistry<number>((size) => {
  held.bytes -= size
  held.images--
})

/** Counts a freshly serialized snapshot image until it is collected. */
export function trackSnapshotImage(bytes: Buffer): void {
  if (counted.has(bytes)) return
  counted.add(bytes)
  held.bytes += bytes.length
  held.images++
  freed.register(bytes, bytes.length)
}

/** Bytes and images of serialized snapshots not yet collected. */
export function snapshotMemory(): { bytes: number; images: number } {
  return { ...held }
}
