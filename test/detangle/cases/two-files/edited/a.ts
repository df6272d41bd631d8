export const a = 'A'
