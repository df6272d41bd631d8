// [[file:input.org::*Second][Second:1]]
export const second = 2
// Second:1 ends here
