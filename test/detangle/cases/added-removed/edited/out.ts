export function sum(values: number[]): number {
  let total = 0
  for (const value of values) total += value
  if (Number.isNaN(total)) throw new Error('not a number')
  if (!Number.isFinite(total)) throw new Error('not finite')
  return total
}
