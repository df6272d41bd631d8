// [[file:../input.org::*Greeting][Greeting:1]]
export const greeting = 'hello'
// Greeting:1 ends here
