// written by hand
export const value = 1
