export const b = 'bee'
