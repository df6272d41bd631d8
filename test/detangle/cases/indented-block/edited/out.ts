export function twice(n: number): number {
  const doubled = n * 2
  return doubled
}
