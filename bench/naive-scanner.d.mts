export function naiveTangle(files: string[]): void
