export let counter = 0

export function increment(): number {
  counter += 1
  return counter
}
