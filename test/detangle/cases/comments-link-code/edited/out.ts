// [[file:input.org::*Linked][Linked:1]]
export const linked = false
// Linked:1 ends here
