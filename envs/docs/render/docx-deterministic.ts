import { readZip, writeZip } from './zip.ts'

/**
 * Deterministic .docx packages. The `docx` package stamps a package with the machine's clock (docProps/core.xml's
 * `dcterms:created`/`modified`, every zip entry's date) and names each hyperlink's relationship with a random id, so
 * two exports of one document differed byte for byte. Here the package is read back and written again with the
 * world's clock as its time and hyperlink ids numbered in order of first appearance (`rIdLink1`, …); every other
 * byte of every part stays as the package wrote it.
 */
export function deterministicDocx(zip: Buffer, atMs: number): Buffer {
  const when = new Date(atMs).toISOString()
  const ids = new Map<string, string>()
  const renumber = (text: string) =>
    text.replace(RANDOM_ID, (id) => {
      let to = ids.get(id)
      if (to === undefined) ids.set(id, (to = `rIdLink${ids.size + 1}`))
      return to
    })
  const parts = readZip(zip).map(({ name, data }) => {
    if (!name.endsWith('.xml') && !name.endsWith('.rels')) return { name, data }
    let text = renumber(data.toString('utf8'))
    if (name === 'docProps/core.xml') text = text.replace(W3CDTF, `$1${when}$2`)
    return { name, data: Buffer.from(text, 'utf8') }
  })
  return writeZip(parts, atMs)
}

/** `docx` relationship ids from `uniqueId()`: "rId" and a lower-cased 21-character nanoid. */
const RANDOM_ID = /rId[a-z0-9_-]{21}(?=")/g
const W3CDTF = /(<dcterms:(?:created|modified) xsi:type="dcterms:W3CDTF">)[^<]*(<\/dcterms:)/g
