export const b = 'B'
