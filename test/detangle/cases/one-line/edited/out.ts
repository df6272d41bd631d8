export function greet(name: string): string {
  return `Bonjour, ${name}`
}
