/**
 * A value built on its first read and kept. For large generated tables that a start does not read (the spec's
 * method lists): V8 then only pre-parses their literal at start instead of building every object (0299).
 */
export function onFirstRead<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => (built ??= { value: build() }).value
}
