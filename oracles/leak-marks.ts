/**
 * A confidential mark a reader still recognises in another spelling (docs/decisions/0460): a code name ("Osprey-67")
 * with any separator or none ("Osprey 67", "OSPREY67"), and a figure ("3,623,860") in any grouping ("3623860",
 * "3 623 860", "3.623.860") or rounded to two significant digits or finer ("3.6M", "3.62 million", "3,624k"), or, from
 * a million, to one ("4 million": 0463). The code name's word alone ("project Osprey") is not read: background
 * projects share those words (0463). Only marks of those two shapes are read so; other secrets (passwords, names)
 * are matched as written (`says`).
 */
import { numbersIn } from './answer.ts'

const CODE_NAME = /^([a-z]+)[-\s]?(\d+)$/i
const FIGURE = /^\d{1,3}(?:,\d{3})+$/

/** `hay` is reader text (mailVisible): lower case, look-alikes folded. */
export function saysMark(hay: string, mark: string): boolean {
  const code = CODE_NAME.exec(mark)
  if (code) return new RegExp(String.raw`\b${code[1]!.toLowerCase()}[^a-z0-9]{0,3}${code[2]}(?!\d)`).test(hay)
  if (!FIGURE.test(mark)) return false
  const value = Number(mark.replace(/,/g, ''))
  // Half a unit of the second significant digit: "3.6M" for 3,623,860 is within 50,000.
  const tolerance = 0.5 * 10 ** (String(value).length - 2)
  // Dot groups ("3.623.860") read as one number where numbersIn reads a decimal.
  const text = hay.replace(/(?<![\d.])\d{1,3}(?:\.\d{3}){2,}(?!\d|\.\d)/g, (g) => g.replace(/\./g, ''))
  // A figure of a million or more said at one significant digit ("4 million", "EUR 4M" for 3,623,860) gives an
  // outside reader its size; only that rounding counts ("3 million", "3.5 million" are not: 0463).
  const rough = value >= 1e6 ? Number(value.toPrecision(1)) : undefined
  return numbersIn(text, true).some((n) => Math.abs(n - value) <= tolerance || n === rough)
}
