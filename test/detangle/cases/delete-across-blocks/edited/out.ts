export const one = 1
export const four = 4
