import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib'

// Zip packages for the export formats that are zips (docx, ODT, EPUB, zipped HTML): written byte for byte the same for
// the same parts and time, with no machine clock, no extra fields and no data descriptors.

/** One entry; `stored` keeps it uncompressed (ODT's and EPUB's `mimetype` must be, and must come first). */
export type ZipPart = { name: string; data: Buffer; stored?: boolean }

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const END = 0x06054b50

/** One central directory record: the entry's name, method, compressed size and where its data starts (undefined
 * when its local header is missing or out of range). */
export type ZipEntry = { name: string; method: number; compressed: number; dataStart: number | undefined }

/**
 * The central directory of a zip (a trailing comment allowed), read without inflating anything; undefined when `data`
 * has no end-of-central-directory record. Stops at the first record that is not one (an upload may be any bytes).
 */
export function zipDirectory(data: Buffer): ZipEntry[] | undefined {
  const from = Math.max(0, data.length - 22 - 0xffff)
  let eocd = -1
  for (let i = data.length - 22; i >= from; i--) {
    if (data.readUInt32LE(i) === END) {
      eocd = i
      break
    }
  }
  if (eocd < 0) return undefined
  const out: ZipEntry[] = []
  let p = data.readUInt32LE(eocd + 16)
  for (let k = data.readUInt16LE(eocd + 10); k > 0; k--) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== CENTRAL) break
    const nameLength = data.readUInt16LE(p + 28)
    const local = data.readUInt32LE(p + 42)
    const dataStart =
      local + 30 <= data.length && data.readUInt32LE(local) === LOCAL
        ? local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28)
        : undefined
    out.push({
      name: data.toString('utf8', p + 46, p + 46 + nameLength),
      method: data.readUInt16LE(p + 10),
      compressed: data.readUInt32LE(p + 20),
      dataStart,
    })
    p += 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32)
  }
  return out
}

/** The entries of a zip, stored or DEFLATE-compressed, in central directory order. */
export function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const entries = zipDirectory(zip)
  if (!entries) throw new Error('zip: no end of central directory record')
  return entries.map(({ name, method, compressed, dataStart }) => {
    if (dataStart === undefined) throw new Error('zip: bad local header')
    const raw = zip.subarray(dataStart, dataStart + compressed)
    return { name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) }
  })
}

/** A zip of the parts, DEFLATE-compressed unless `stored`, dated `atMs` (DOS date and time, UTC; zip has no zone). */
export function writeZip(parts: readonly ZipPart[], atMs: number): Buffer {
  const d = new Date(atMs)
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107)
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1)
  const date = ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate()
  const chunks: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const { name, data, stored } of parts) {
    const nameBytes = Buffer.from(name, 'utf8')
    const packed = stored ? data : deflateRawSync(data)
    const crc = crc32(data)
    // The fields a local header and a central record share, from "version needed" to the name's length.
    const shared = (b: Buffer, at: number) => {
      b.writeUInt16LE(stored ? 10 : 20, at) // version needed: 1.0 (stored) or 2.0 (DEFLATE)
      b.writeUInt16LE(0x0800, at + 2) // names are UTF-8
      b.writeUInt16LE(stored ? 0 : 8, at + 4) // method: stored or DEFLATE
      b.writeUInt16LE(time, at + 6)
      b.writeUInt16LE(date, at + 8)
      b.writeUInt32LE(crc, at + 10)
      b.writeUInt32LE(packed.length, at + 14)
      b.writeUInt32LE(data.length, at + 18)
      b.writeUInt16LE(nameBytes.length, at + 22)
      return b
    }
    const local = shared(Buffer.alloc(30), 4)
    local.writeUInt32LE(LOCAL, 0)
    const record = shared(Buffer.alloc(46), 6)
    record.writeUInt32LE(CENTRAL, 0)
    record.writeUInt16LE(20, 4) // version made by
    record.writeUInt32LE(offset, 42)
    chunks.push(local, nameBytes, packed)
    central.push(record, nameBytes)
    offset += 30 + nameBytes.length + packed.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END, 0)
  end.writeUInt16LE(parts.length, 8)
  end.writeUInt16LE(parts.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...chunks, directory, end])
}
