// [[file:input.org::*Linked][linked Linked:1]]
export const linked = true
// Linked:1 ends here
