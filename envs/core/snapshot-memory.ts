/**
 * Bytes held by snapshot images in this process: every image `World.snapshot()` serialized, from the moment it
 * exists until the garbage collector frees it (an image shared by several snapshots counts once). Process-wide
 * accounting only; nothing here changes what any world holds.
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
