/**
 * A table's entry for a key a request chose, own entries only: `constructor`, `__proto__` or `toString` must not find
 * what every JavaScript object inherits (a function, or Object.prototype itself). Undefined where the table has none.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}
