/**
 * A Map that holds at most `limit` entries: setting a new key when full drops the entry set longest ago. For memos
 * of pure functions (a dropped entry is only computed again), so their memory stays bounded whatever the input.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super()
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value as K)
    return super.set(key, value)
  }

  /** The value of `key`, made the newest entry: a memo read through this drops the least recently used first. */
  recent(key: K): V | undefined {
    const value = this.get(key)
    if (value !== undefined) {
      this.delete(key)
      super.set(key, value)
    }
    return value
  }
}
