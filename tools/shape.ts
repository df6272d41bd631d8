/**
 * Checks of the JSON the toolchain reads back from its own files (the tangle
 * cache, the write journal): a few type guards that compose, so that a file
 * damaged or written by another build is told apart from one of ours. Not zod:
 * importing zod costs 60-70 ms here, a third of a `tangle` that finds nothing
 * changed. Keys a shape does not name are allowed.
 */

export type Shape<T> = (value: unknown) => value is T
export type Infer<S> = S extends Shape<infer T> ? T : never

export const string: Shape<string> = (value): value is string => typeof value === 'string'
export const number: Shape<number> = (value): value is number => typeof value === 'number'

export function literal<const T extends string | number | boolean>(...values: T[]): Shape<T> {
  return (value): value is T => values.includes(value as T)
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (value): value is T | null => value === null || shape(value)
}

export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return (value): value is T | undefined => value === undefined || shape(value)
}

export function array<T>(shape: Shape<T>): Shape<T[]> {
  return (value): value is T[] => Array.isArray(value) && value.every(shape)
}

/** An object whose own values all have SHAPE (a JSON object read back: no prototype keys to fear). */
export function record<T>(shape: Shape<T>): Shape<Record<string, T>> {
  return (value): value is Record<string, T> => isObject(value) && Object.values(value).every(shape)
}

export function object<S extends Record<string, Shape<unknown>>>(shapes: S): Shape<{[K in keyof S]: Infer<S[K]>}> {
  const entries = Object.entries(shapes)
  return (value): value is {[K in keyof S]: Infer<S[K]>} =>
    isObject(value) && entries.every(([key, shape]) => shape((value as Record<string, unknown>)[key]))
}

export function union<T extends Shape<unknown>[]>(...shapes: T): Shape<Infer<T[number]>> {
  return (value): value is Infer<T[number]> => shapes.some((shape) => shape(value))
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
