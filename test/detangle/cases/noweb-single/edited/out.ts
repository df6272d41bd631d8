export class Greeter {
  greet(name: string): string {
    return `Hello, ${name}!`
  }
}
